/**
 * CircleCI webhooks (https://circleci.com/docs/webhooks-reference/): `workflow-completed` and
 * `job-completed`, named in the `Circleci-Event-Type` header (and the payload's `type`). A
 * webhook with a secret signs the body in `circleci-signature` as `v1=<hex HMAC-SHA256>`.
 * The topic is the project's name; the message links the workflow or job and names the
 * pipeline, branch and commit.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { errors } from '@chat/contracts';
import { SECRET_OPTION, UnsupportedEvent, type Integration, type WebhookMessage, type WebhookRequest } from '../framework';
import { duration, link, shortSha, topic } from '../format';
import type { Payload } from '../payload';

const STATUS: Record<string, [string, string]> = {
  success: [':check:', 'succeeded'], failed: [':cross_mark:', 'failed'], error: [':cross_mark:', 'errored'],
  canceled: [':stop_sign:', 'was canceled'], unauthorized: [':lock:', 'was not authorized'], not_run: [':fast_forward:', 'did not run'],
};

/** `circleci-signature` may list several schemes (`v1=...,v2=...`); v1 is the HMAC-SHA256. */
function verify(req: WebhookRequest): void {
  const secret = req.config[SECRET_OPTION.key];
  if (!secret) return;
  const expected = Buffer.from(createHmac('sha256', secret).update(req.raw).digest('hex'));
  const sent = (req.headers['circleci-signature'] ?? '').split(',').map((s) => s.trim()).filter((s) => s.startsWith('v1=')).map((s) => Buffer.from(s.slice(3)));
  if (!sent.some((s) => s.length === expected.length && timingSafeEqual(s, expected))) throw errors.webhookSignatureFailed();
}

/** "(pipeline #12 on branch `main`)." and, below it, the commit with its subject and author. */
function pipelineText(p: Payload): string {
  const vcs = p.at('pipeline.vcs');
  const branch = vcs.get('branch').optStr();
  const tag = vcs.get('tag').optStr();
  const sha = vcs.get('revision').optStr();
  const repoUrl = vcs.get('origin_repository_url').optStr();
  const ref = branch ? ` on branch \`${branch}\`` : tag ? ` on tag \`${tag}\`` : '';
  let text = ` (pipeline #${p.at('pipeline.number').num()}${ref}).`;
  if (sha) {
    const subject = vcs.at('commit.subject').optStr();
    const author = vcs.at('commit.author.name').optStr();
    text += `\nCommit ${link(shortSha(sha), repoUrl ? `${repoUrl}/commit/${sha}` : undefined)}${subject ? ` ${subject}` : ''}${author ? ` by ${author}` : ''}`;
  }
  return text;
}

/** "in 30s" from the run's start and stop times, when both are known. */
function took(run: Payload, startKey: string): string {
  const start = Date.parse(run.get(startKey).optStr() ?? '');
  const stop = Date.parse(run.get('stopped_at').optStr() ?? '');
  return Number.isFinite(start) && Number.isFinite(stop) ? ` in ${duration((stop - start) / 1000)}` : '';
}

function handle(event: string | null, req: WebhookRequest): WebhookMessage[] {
  const p = req.body;
  if (event !== 'workflow-completed' && event !== 'job-completed') throw new UnsupportedEvent(event ?? 'unknown');
  const project = p.at('project.name').str();
  const wf = p.get('workflow');
  if (event === 'workflow-completed') {
    const [icon, said] = STATUS[wf.get('status').str()] ?? [':grey_question:', `finished: ${wf.get('status').str()}`];
    const text = `${icon} Workflow ${link(wf.get('name').str(), wf.get('url').optStr())} **${said}**${took(wf, 'created_at')}${pipelineText(p)}`;
    return [{ topic: topic(project), content: text }];
  }
  const job = p.get('job');
  const [icon, said] = STATUS[job.get('status').str()] ?? [':grey_question:', `finished: ${job.get('status').str()}`];
  const jobUrl = wf.get('url').optStr() && job.get('number').optNum() !== undefined ? `${wf.get('url').str()}/jobs/${job.get('number').num()}` : wf.get('url').optStr();
  const text = `${icon} Job ${link(job.get('name').str(), jobUrl)} of workflow ${wf.get('name').str()} **${said}**${took(job, 'started_at')}${pipelineText(p)}`;
  return [{ topic: topic(project), content: text }];
}

export const circleci: Integration = {
  name: 'circleci',
  displayName: 'CircleCI',
  allEventTypes: ['workflow-completed', 'job-completed'],
  configOptions: [SECRET_OPTION],
  eventHeader: 'Circleci-Event-Type',
  verify,
  handle,
};
