/**
 * Slack-format incoming webhooks (https://api.slack.com/messaging/webhooks), so scripts written
 * for Slack post here unchanged: `text` in Slack's mrkdwn, `blocks` (sections, headers, fields,
 * context, images, dividers) and legacy `attachments`, as JSON or as a form's `payload` field.
 * The topic is the user's `topic`, else the Slack `channel` the script names.
 */
import type { Integration } from '../framework';
import type { Payload } from '../payload';

/** Slack's mrkdwn in our Markdown: *bold*, _italic_, ~strike~, <url|text>, <@U1>, <!here>. */
export function fromMrkdwn(text: string): string {
  return text
    .replace(/<(https?:[^|>]+|mailto:[^|>]+)\|([^>]+)>/g, '[$2]($1)')
    .replace(/<(https?:[^|>]+|mailto:[^|>]+)>/g, '$1')
    .replace(/<!(here|channel|everyone)(\|[^>]*)?>/g, (_m, w: string) => (w === 'here' ? '@**topic**' : '@**all**'))
    .replace(/<[@#]([A-Z0-9]+)\|([^>]+)>/g, '@$2')
    .replace(/<([@#])([A-Z0-9]+)>/g, '$1$2')
    .replace(/(^|[\s(])\*([^*\n]+)\*(?=[\s).,!?:;]|$)/gm, '$1**$2**')
    .replace(/(^|[\s(])_([^_\n]+)_(?=[\s).,!?:;]|$)/gm, '$1*$2*')
    .replace(/(^|[\s(])~([^~\n]+)~(?=[\s).,!?:;]|$)/gm, '$1~~$2~~')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** A text object: mrkdwn is converted, plain_text kept as written. */
function textOf(t: Payload): string {
  if (!t.exists) return '';
  if (typeof t.value === 'string') return fromMrkdwn(t.value);
  const s = t.get('text').str();
  return t.get('type').optStr() === 'plain_text' ? s : fromMrkdwn(s);
}

function block(b: Payload): string {
  switch (b.get('type').str()) {
    case 'header': return `### ${textOf(b.get('text'))}`;
    case 'divider': return '---';
    case 'section': {
      const parts = [textOf(b.get('text'))];
      // A field is a title over its value: one line each here.
      const fields = b.get('fields').optList().map((f) => textOf(f).trim().replace(/\s*\n+\s*/g, ': '));
      if (fields.length) parts.push(fields.map((f) => `* ${f}`).join('\n'));
      const acc = b.get('accessory');
      if (acc.exists && acc.get('type').optStr() === 'image') parts.push(`[${acc.get('alt_text').optStr() ?? 'image'}](${acc.get('image_url').str()})`);
      return parts.filter(Boolean).join('\n\n');
    }
    case 'context': return b.get('elements').list().map((e) => (e.get('type').str() === 'image' ? `[${e.get('alt_text').optStr() ?? 'image'}](${e.get('image_url').str()})` : textOf(e))).join(' ');
    case 'image': return `[${b.get('title').exists ? textOf(b.get('title')) : b.get('alt_text').optStr() ?? 'image'}](${b.get('image_url').str()})`;
    default: return '';
  }
}

function attachment(a: Payload): string {
  const lines: string[] = [];
  const pre = a.get('pretext').optStr();
  if (pre) lines.push(fromMrkdwn(pre));
  const title = a.get('title').optStr();
  if (title) {
    const url = a.get('title_link').optStr();
    lines.push(`**${url ? `[${title}](${url})` : title}**`);
  }
  const text = a.get('text').optStr() ?? (lines.length ? undefined : a.get('fallback').optStr());
  if (text) lines.push(fromMrkdwn(text));
  for (const f of a.get('fields').optList()) lines.push(`**${f.get('title').str()}**: ${fromMrkdwn(f.get('value').text())}`);
  const image = a.get('image_url').optStr();
  if (image) lines.push(`[image](${image})`);
  const footer = a.get('footer').optStr();
  if (footer) lines.push(`*${fromMrkdwn(footer)}*`);
  for (const b of a.get('blocks').optList()) lines.push(block(b));
  return lines.filter(Boolean).join('\n');
}

export const slackIncoming: Integration = {
  name: 'slack_incoming',
  displayName: 'Slack-compatible webhook',
  allEventTypes: null,
  body: 'form',
  handle(_event, req) {
    const p = req.body;
    const parts: string[] = [];
    const blocks = p.get('blocks').optList();
    // With blocks, Slack shows them and keeps `text` for notifications only.
    if (blocks.length) parts.push(...blocks.map(block));
    else if (p.get('text').exists) parts.push(fromMrkdwn(p.get('text').str()));
    parts.push(...p.get('attachments').optList().map(attachment));
    const content = parts.filter((s) => s.trim() !== '').join('\n\n');
    const channel = p.get('channel').optStr()?.replace(/^#/, '');
    return { topic: channel || '(no topic)', content: content || '*(empty message)*' };
  },
};
