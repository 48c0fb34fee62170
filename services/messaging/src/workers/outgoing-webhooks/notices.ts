/**
 * What the family says when an outgoing webhook fails, word for word: "Failure! ..." in the
 * conversation that set it off, and a direct message from the bot to its owner naming the
 * message (with a silent mention of the bot, which triggers nothing) and what went wrong.
 */
import type { DisplayRecipientUser } from '@chat/contracts';
import { topicUrl } from '../../markdown/urls';

export function failureContent(reason: string): string {
  return `Failure! ${reason}`;
}

/** A link to the message as the family's message_link_url builds it. */
export function messageUrl(realmUrl: string, message: Record<string, unknown>): string {
  if (message.type === 'stream') {
    return `${realmUrl}${topicUrl(Number(message.stream_id), String(message.display_recipient), String(message.subject ?? ''))}/near/${String(message.id)}`;
  }
  const ids = (message.display_recipient as DisplayRecipientUser[]).map((r) => r.id).sort((a, b) => a - b);
  return `${realmUrl}/#narrow/dm/${ids.join(',')}-group/near/${String(message.id)}`;
}

export interface OwnerNotice {
  /** A line of its own after the first: the reason as the family words it. */
  failure?: string;
  status?: number;
  /** The service's answer, shown as the family shows it (Python's repr of the body). */
  payload?: { text: string; bytes: boolean };
}

export function ownerNoticeContent(realmUrl: string, botFullName: string, message: Record<string, unknown>, n: OwnerNotice): string {
  let content = `[A message](${messageUrl(realmUrl, message)}) to your bot @_**${botFullName}** triggered an outgoing webhook.`;
  if (n.failure) content += `\n${n.failure}`;
  else if (n.status === 407) content += '\nThe URL configured for the webhook is for a private or disallowed network.';
  else if (n.status) content += `\nThe webhook got a response with status code *${n.status}*.`;
  if (n.payload?.text) content += `\nThe response contains the following payload:\n\`\`\`\n${pythonRepr(n.payload.text, n.payload.bytes)}\n\`\`\``;
  return content;
}

/**
 * Python's repr() of a str, or of the UTF-8 bytes of `text` when `bytes`: the family prints the
 * answer that way, and bot authors compare it with their own logs.
 */
export function pythonRepr(text: string, bytes: boolean): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = '';
  const units = bytes ? [...Buffer.from(text, 'utf8')].map((b) => String.fromCharCode(b)) : [...text];
  for (const ch of units) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\' || ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f || (bytes && code > 0x7f)) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${bytes ? 'b' : ''}${quote}${out}${quote}`;
}
