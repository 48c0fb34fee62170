/**
 * Sentry's integration platform (https://docs.sentry.io/organization/integrations/integration-platform/webhooks/):
 * the kind of payload is in the `Sentry-Hook-Resource` header (`issue`, `event_alert`, `error`,
 * `metric_alert`, `installation`) and what happened in its `action`; the family's event names
 * are `<resource>.<action>` here (`issue.resolved`). With the integration's client secret set as
 * the bot's secret, `Sentry-Hook-Signature` (a hex HMAC-SHA256 of the body) is checked.
 * The topic is the issue's or event's title, as the family shows it.
 */
import { checkHmacSha256, SECRET_OPTION, UnsupportedEvent, type Integration, type WebhookMessage, type WebhookRequest } from '../framework';
import { link, topic } from '../format';
import type { Payload } from '../payload';

const EVENTS = [
  'installation.created', 'installation.deleted', 'issue.created', 'issue.resolved', 'issue.assigned', 'issue.ignored', 'issue.archived', 'issue.unresolved',
  'event_alert.triggered', 'error.created', 'metric_alert.critical', 'metric_alert.warning', 'metric_alert.resolved',
] as const;

const msg = (t: string, content: string): WebhookMessage => ({ topic: topic(t), content });
/** Details shown under a title, as a quoted list. */
const details = (rows: Array<[string, string | undefined]>) =>
  `\n~~~ quote\n${rows.filter(([, v]) => v).map(([k, v]) => `**${k}:** ${v}`).join('\n')}\n~~~`;

/** Who did it: a person, or Sentry itself for automatic changes. */
const actorName = (p: Payload) => p.at('actor.name').optStr() ?? 'Sentry';

/** An error event: its title, level, time and where it happened. */
function eventText(head: string, e: Payload): WebhookMessage {
  const title = e.get('title').str();
  const frames = e.at('exception.values').optList().flatMap((v) => v.at('stacktrace.frames').optList());
  const file = frames.length ? frames[frames.length - 1].get('filename').optStr() : undefined;
  return msg(title, `**${head}:** ${link(title, e.get('web_url').optStr())}${details([
    ['level', e.get('level').optStr()],
    ['timestamp', e.get('datetime').optStr()],
    ['culprit', e.get('culprit').optStr()],
    ['filename', file],
  ])}`);
}

function issue(action: string, p: Payload): WebhookMessage[] {
  const it = p.at('data.issue');
  const title = it.get('title').str();
  const name = `**${link(title, it.get('web_url').optStr())}**`;
  const actor = actorName(p);
  switch (action) {
    case 'created':
      return [msg(title, `**New issue created:** ${link(title, it.get('web_url').optStr())}${details([
        ['level', it.get('level').optStr()],
        ['timestamp', it.get('firstSeen').optStr()],
        ['culprit', it.get('culprit').optStr()],
        ['assignee', it.at('assignedTo.name').optStr() ?? 'No one'],
      ])}`)];
    case 'resolved': return [msg(title, `Issue ${name} was marked as resolved by **${actor}**.`)];
    case 'unresolved': return [msg(title, `Issue ${name} was marked as unresolved by **${actor}**.`)];
    // Sentry renamed "ignored" to "archived"; both are sent depending on the version.
    case 'ignored': case 'archived': return [msg(title, `Issue ${name} was ${action} by **${actor}**.`)];
    case 'assigned': {
      const to = it.at('assignedTo.name').optStr() ?? it.at('assignedTo.email').optStr() ?? 'no one';
      return [msg(title, `Issue ${name} has now been assigned to **${to}** by **${actor}**.`)];
    }
    default: throw new UnsupportedEvent(`issue.${action}`);
  }
}

function metricAlert(action: string, p: Payload): WebhookMessage[] {
  const d = p.get('data');
  const title = d.get('description_title').str();
  const icon = action === 'resolved' ? ':squared_ok:' : action === 'critical' ? ':alert:' : ':warning:';
  return [msg(title, `${icon} **${action === 'resolved' ? 'Resolved' : action === 'critical' ? 'Critical' : 'Warning'}:** ${link(title, d.get('web_url').optStr())}\n${d.get('description_text').optStr() ?? ''}`.trimEnd())];
}

function handle(event: string | null, req: WebhookRequest): WebhookMessage[] {
  const p = req.body;
  const e = event ?? '';
  const [resource, action] = e.split('.');
  switch (resource) {
    // Installing the integration in Sentry says nothing people need in a channel.
    case 'installation': return [];
    case 'issue': return issue(action, p);
    case 'event_alert': return [eventText(`Alert "${p.at('data.triggered_rule').optStr() ?? 'triggered'}"`, p.at('data.event'))];
    case 'error': return [eventText('New error event', p.at('data.error'))];
    case 'metric_alert': return metricAlert(action, p);
    default: throw new UnsupportedEvent(e || 'unknown');
  }
}

export const sentry: Integration = {
  name: 'sentry',
  displayName: 'Sentry',
  allEventTypes: EVENTS,
  configOptions: [SECRET_OPTION],
  eventHeader: 'Sentry-Hook-Resource',
  event: (req) => `${req.headers['sentry-hook-resource'] ?? ''}.${req.body.get('action').str()}`,
  verify: (req) => checkHmacSha256(req, req.headers['sentry-hook-signature']),
  handle,
};
