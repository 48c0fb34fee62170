/**
 * PagerDuty: V3 webhook subscriptions (https://developer.pagerduty.com/docs/webhooks-overview),
 * one event per request in `event` (`incident.triggered`, ...), and the older V2 webhooks, a list
 * of `messages` (`incident.trigger`, ...), each posted. The topic is `Incident <number>`, as the
 * family names it; the message links the incident, its service and who acted.
 */
import { UnsupportedEvent, type Integration, type WebhookMessage, type WebhookRequest } from '../framework';
import { link, quote, topic } from '../format';
import type { Payload } from '../payload';

const V3_EVENTS = [
  'incident.triggered', 'incident.acknowledged', 'incident.unacknowledged', 'incident.resolved', 'incident.reopened',
  'incident.assigned', 'incident.reassigned', 'incident.escalated', 'incident.delegated', 'incident.priority_updated', 'incident.annotated',
] as const;
const V2_EVENTS = ['incident.trigger', 'incident.acknowledge', 'incident.unacknowledge', 'incident.resolve', 'incident.assign', 'incident.escalate', 'incident.delegate'] as const;

/** A PagerDuty reference (`{summary, html_url}`) as a link. */
const ref = (r: Payload) => link(r.get('summary').str(), r.get('html_url').optStr());
const list = (items: string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}` : items[0] ?? '');

function v3(p: Payload): WebhookMessage {
  const e = p.get('event');
  const type = e.get('event_type').str();
  if (!(V3_EVENTS as readonly string[]).includes(type)) throw new UnsupportedEvent(type);
  const d = e.get('data');
  const agent = e.get('agent').exists ? ref(e.get('agent')) : undefined;
  const by = agent ? ` by ${agent}` : '';
  if (type === 'incident.annotated') {
    // An annotation's data is the note; the incident is a reference beside it.
    const inc = d.get('incident');
    const name = /#?(\d+)/.exec(inc.get('summary').optStr() ?? '')?.[1] ?? inc.get('id').str();
    return { topic: topic(`Incident ${name}`), content: `${agent ?? 'Someone'} added a note to incident ${link(name, inc.get('html_url').optStr())}:\n${quote(d.get('content').str())}` };
  }
  const number = d.get('number').num();
  const incident = link(`${number}`, d.get('html_url').str());
  const assignees = () => list(d.get('assignees').optList().map(ref));
  const title = d.get('title').str();
  let text: string;
  switch (type) {
    case 'incident.triggered': {
      const to = assignees();
      text = `Incident ${incident} triggered by ${ref(d.get('service'))}${to ? ` (assigned to ${to})` : ''}:\n${quote(title)}`;
      break;
    }
    case 'incident.acknowledged': text = `Incident ${incident} acknowledged${by}.`; break;
    case 'incident.unacknowledged': text = `Incident ${incident} unacknowledged${by}.`; break;
    case 'incident.resolved': text = `Incident ${incident} resolved${by}.`; break;
    case 'incident.reopened': text = `Incident ${incident} reopened${by}.`; break;
    case 'incident.assigned': case 'incident.reassigned': text = `Incident ${incident} ${type.slice('incident.'.length)} to ${assignees() || 'no one'}${by}.`; break;
    case 'incident.escalated': text = `Incident ${incident} escalated to ${assignees() || 'the next level'}.`; break;
    case 'incident.delegated': text = `Incident ${incident} delegated to ${ref(d.get('escalation_policy'))}${by}.`; break;
    case 'incident.priority_updated': text = `Incident ${incident} priority changed to **${d.at('priority.summary').optStr() ?? 'none'}**${by}.`; break;
    default: throw new UnsupportedEvent(type);
  }
  return { topic: topic(`Incident ${number}`), content: text };
}

/** A message of the older V2 webhooks. */
function v2(m: Payload): WebhookMessage {
  const type = m.get('event').str();
  const inc = m.get('incident');
  const number = inc.get('incident_number').num();
  const incident = link(`${number}`, inc.get('html_url').str());
  const assignees = list(inc.get('assignments').optList().map((a) => ref(a.get('assignee'))));
  const agents = m.get('log_entries').optList().map((l) => l.get('agent')).filter((a) => a.exists && a.get('type').optStr() === 'user_reference');
  const by = agents.length ? ` by ${ref(agents[0])}` : '';
  const title = inc.get('title').optStr() ?? inc.get('summary').str();
  let text: string;
  switch (type) {
    case 'incident.trigger': text = `Incident ${incident} triggered by ${ref(inc.get('service'))}${assignees ? ` (assigned to ${assignees})` : ''}:\n${quote(title)}`; break;
    case 'incident.acknowledge': text = `Incident ${incident} acknowledged${by}.`; break;
    case 'incident.unacknowledge': text = `Incident ${incident} unacknowledged${by}.`; break;
    case 'incident.resolve': text = `Incident ${incident} resolved${by}.`; break;
    case 'incident.assign': text = `Incident ${incident} assigned to ${assignees || 'no one'}${by}.`; break;
    case 'incident.escalate': text = `Incident ${incident} escalated to ${assignees || 'the next level'}.`; break;
    case 'incident.delegate': text = `Incident ${incident} delegated to ${ref(inc.get('escalation_policy'))}${by}.`; break;
    default: throw new UnsupportedEvent(type);
  }
  return { topic: topic(`Incident ${number}`), content: text };
}

function handle(_event: string | null, req: WebhookRequest): WebhookMessage[] {
  const p = req.body;
  if (p.get('event').exists) return [v3(p)];
  return p.get('messages').list().map(v2);
}

export const pagerduty: Integration = {
  name: 'pagerduty',
  displayName: 'PagerDuty',
  allEventTypes: [...V3_EVENTS, ...V2_EVENTS],
  // V2 posts several messages at once, each with its event: their filter is the first one's.
  event: (req) => req.body.at('event.event_type').optStr() ?? req.body.get('messages').list()[0]?.get('event').str() ?? null,
  handle,
};
