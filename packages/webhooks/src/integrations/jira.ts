/**
 * Jira (https://developer.atlassian.com/server/jira/platform/webhooks/): the event is the
 * payload's `webhookEvent` (`jira:issue_created`, `jira:issue_updated`, `comment_created`, ...);
 * an update says what it was in `issue_event_type_name` and lists its changes in `changelog`.
 * Every message goes to the issue's topic, `KEY-12: Summary`, and links the issue's page, whose
 * address is the site's part of the issue's REST URL followed by `/browse/KEY-12`.
 * Jira's wiki markup in comments is turned into Markdown.
 */
import { UnsupportedEvent, type Integration, type WebhookMessage, type WebhookRequest } from '../framework';
import { link, quote, topic } from '../format';
import type { Payload } from '../payload';

const EVENTS = ['jira:issue_created', 'jira:issue_updated', 'jira:issue_deleted', 'comment_created', 'comment_updated', 'comment_deleted'] as const;

/** Events Jira can send that nobody follows in chat (the family's list): nothing is posted. */
const QUIET_EVENTS = new Set([
  'attachment_created', 'attachment_deleted', 'issuelink_created', 'issuelink_deleted', 'jira:version_released',
  'jira:worklog_updated', 'sprint_closed', 'sprint_started', 'worklog_created', 'worklog_updated', 'worklog_deleted',
]);

/** Jira's wiki markup, as far as it reads differently in Markdown. */
export function jiraToMarkdown(text: string): string {
  // Blocks are fenced with backticks on lines of their own: the whole comment is shown inside a
  // `~~~ quote` block, which a backtick fence does not close.
  return text
    .replace(/\s*\{quote\}([\s\S]*?)\{quote\}\s*/g, (_m, q: string) => `\n\`\`\`quote\n${q.trim()}\n\`\`\`\n`)
    .replace(/\s*\{(?:noformat|code(?::[^}]*)?)\}([\s\S]*?)\{(?:noformat|code)\}\s*/g, (_m, c: string) => `\n\`\`\`\n${c.replace(/^\n|\n$/g, '')}\n\`\`\`\n`)
    .replace(/^bq\. (.*)$/gm, '> $1')
    .replace(/\{\{(.+?)\}\}/g, '`$1`')
    .replace(/(^|[\s(])\*(\S(?:[^*\n]*\S)?)\*(?=$|[\s).,!?:;])/gm, '$1**$2**')
    .replace(/\[~([^\]]+)\]/g, '**$1**')
    .replace(/\[([^|\]\n]+)\|([^\]\s]+)\]/g, '[$1]($2)')
    .replace(/\[(https?:\/\/[^\]\s|]+)\]/g, '<$1>')
    // Jira escapes "!" (its image markup) in what it sends.
    .replace(/\\!/g, '!')
    .trim();
}

interface Ctx {
  p: Payload;
  key: string;
  summary: string;
  /** `[KEY-12: Summary](https://site/browse/KEY-12)` */
  issue: string;
  author: string;
}

function issueLink(p: Payload, key: string, summary: string): string {
  const site = /^(.*)\/rest\/api\//.exec(p.at('issue.self').optStr() ?? '')?.[1];
  return link(`${key}: ${summary}`, site ? `${site}/browse/${key}` : undefined);
}

const userName = (u: Payload) => u.get('displayName').optStr() ?? u.get('name').str();

function created(c: Ctx): string {
  const f = c.p.at('issue.fields');
  const assignee = f.get('assignee').exists ? userName(f.get('assignee')) : 'no one';
  const lines = [`${c.author} created ${c.issue}:`, ''];
  if (f.get('issuetype').exists) lines.push(`* **Type**: ${f.at('issuetype.name').str()}`);
  if (f.get('priority').exists) lines.push(`* **Priority**: ${f.at('priority.name').str()}`);
  lines.push(`* **Assignee**: ${assignee}`);
  const description = f.get('description').optStr()?.trim();
  if (description) lines.push(quote(jiraToMarkdown(description)));
  return lines.join('\n');
}

/** A comment event of an issue update, or of the separate comment_* events. */
function commented(c: Ctx, kind: 'created' | 'updated' | 'deleted', assigned = ''): string {
  const cm = c.p.get('comment');
  const author = cm.get('author').exists ? userName(cm.get('author')) : c.author;
  const verb = kind === 'created' ? 'commented on' : kind === 'updated' ? 'edited a comment on' : 'deleted a comment from';
  const body = kind === 'deleted' ? undefined : cm.get('body').optStr()?.trim();
  return `${author} ${verb} ${c.issue}${assigned}${body ? `:\n${quote(jiraToMarkdown(body))}` : '.'}`;
}

function updated(c: Ctx): string {
  const { p } = c;
  const assignee = p.at('issue.fields.assignee').exists ? userName(p.at('issue.fields.assignee')) : undefined;
  const assigned = assignee ? ` (assigned to **${assignee}**)` : '';
  const sub = p.get('issue_event_type_name').optStr() ?? (p.get('comment').exists ? 'issue_commented' : '');
  if (sub === 'issue_commented') return commented(c, 'created', assigned);
  if (sub === 'issue_comment_edited') return commented(c, 'updated', assigned);
  if (sub === 'issue_comment_deleted') return commented(c, 'deleted', assigned);
  const changes = p.at('changelog.items').optList().flatMap((item) => {
    const field = item.get('field').str();
    const from = item.get('fromString').optStr();
    const to = item.get('toString').optStr();
    if (!from && !to) return [];
    return [`* Changed ${field}${from ? ` from **${from}**` : ''}${to ? ` to **${to}**` : ' to nothing'}`];
  });
  // An older Jira (and some apps) describes a workflow step as a transition instead.
  if (!changes.length && p.get('transition').exists) {
    const t = p.get('transition');
    changes.push(`* Changed status from **${t.get('from_status').str()}** to **${t.get('to_status').str()}**`);
  }
  return changes.length ? `${c.author} updated ${c.issue}${assigned}:\n\n${changes.join('\n')}` : `${c.author} updated ${c.issue}${assigned}.`;
}

function handle(event: string | null, req: WebhookRequest): WebhookMessage[] {
  const p = req.body;
  const e = event ?? '';
  if (QUIET_EVENTS.has(e)) return [];
  if (!(EVENTS as readonly string[]).includes(e)) throw new UnsupportedEvent(e || 'unknown');
  const key = p.at('issue.key').str();
  const summary = p.at('issue.fields.summary').str();
  const c: Ctx = {
    p, key, summary,
    issue: issueLink(p, key, summary),
    author: p.get('user').exists ? userName(p.get('user')) : 'Someone',
  };
  let content: string;
  switch (e) {
    case 'jira:issue_created': content = created(c); break;
    case 'jira:issue_deleted': content = `${c.author} deleted ${c.issue}.`; break;
    case 'jira:issue_updated': content = updated(c); break;
    case 'comment_created': content = commented(c, 'created'); break;
    case 'comment_updated': content = commented(c, 'updated'); break;
    default: content = commented(c, 'deleted');
  }
  return [{ topic: topic(`${key}: ${summary}`), content }];
}

export const jira: Integration = {
  name: 'jira',
  displayName: 'Jira',
  allEventTypes: EVENTS,
  // Jira names its event in the payload; a transition posted by an older Jira has none.
  event: (req) => req.body.get('webhookEvent').optStr() ?? (req.body.get('transition').exists ? 'jira:issue_updated' : null),
  handle,
};
