/**
 * Jenkins, through the Notification plugin (https://plugins.jenkins.io/notification/) with the
 * JSON format: one request per phase of a build (`QUEUED`, `STARTED`, `COMPLETED`, `FINALIZED`),
 * the phase being the event. A build is told when it starts and when it completes; the queue and
 * the finalization (after the post-build steps, with the same result) would only repeat it.
 * The topic is the job's name.
 */
import { UnsupportedEvent, type Integration, type WebhookMessage } from '../framework';
import { link, shortSha, topic } from '../format';

/** A build's result: its emoji and what it says. */
const RESULTS: Record<string, [string, string]> = {
  SUCCESS: [':check:', 'succeeded'], FAILURE: [':cross_mark:', 'failed'], UNSTABLE: [':warning:', 'is unstable'],
  ABORTED: [':stop_sign:', 'was aborted'], NOT_BUILT: [':fast_forward:', 'was not built'],
};

export const jenkins: Integration = {
  name: 'jenkins',
  displayName: 'Jenkins',
  allEventTypes: ['queued', 'started', 'completed', 'finalized'],
  event: (req) => req.body.at('build.phase').str().toLowerCase(),
  handle(event, req): WebhookMessage[] {
    const p = req.body;
    if (event === 'queued' || event === 'finalized') return [];
    if (event !== 'started' && event !== 'completed') throw new UnsupportedEvent(event ?? 'unknown');
    const b = p.get('build');
    const name = link(`Build #${b.get('number').num()}`, b.get('full_url').optStr());
    const scm = b.get('scm');
    const branch = scm.get('branch').optStr()?.replace(/^origin\//, '');
    const commit = scm.get('commit').optStr();
    const where = [branch && `branch \`${branch}\``, commit && `commit ${shortSha(commit)}`].filter(Boolean).join(', ');
    const on = where ? ` (${where})` : '';
    if (event === 'started') return [{ topic: topic(p.get('name').str()), content: `${name}${on} started.` }];
    const status = b.get('status').str();
    const [icon, said] = RESULTS[status] ?? [':grey_question:', `finished with ${status}`];
    return [{ topic: topic(p.get('name').str()), content: `${icon} ${name}${on} **${said}**.` }];
  },
};
