/**
 * Runs the requests to bots' services (BullMQ jobs of jobs.ts) and acts on the answers as the
 * family's outgoing-webhook worker does: a reply is posted where the bot was triggered; a timeout
 * or a connection error is retried with backoff and, after the last try, reported as "Bot is
 * unavailable" there and to the bot's owner; any other failure (an error status, an answer that
 * is not JSON, an address refused) is reported at once, without retrying.
 */
import { Worker, type Job } from 'bullmq';
import { ApiError } from '@chat/contracts';
import type { createRedis } from '@chat/bus';
import type { Services } from '../../context';
import type { LoadedActor } from '../../lib/caller';
import { parseNetworks } from '../../lib/outbound';
import { doSendBotReply, loadActiveBot } from '../../actions/bot-replies';
import { AnswerError, buildRequest, replyOf, SLACK_INTERFACE } from './formats';
import { QUEUE_NAME, type OutgoingWebhookJob } from './jobs';
import { failureContent, ownerNoticeContent, type OwnerNotice } from './notices';
import { PostError, postGuarded, type PostAnswer } from './post';
import { placeOf } from './triggers';

/** Longest answer read from a bot's service. */
const MAX_ANSWER_BYTES = 256 * 1024;
const USER_AGENT = 'ChatOutgoingWebhook/1.0';

export function startTriggerWorker(services: Services, connection: ReturnType<typeof createRedis>, prefix: string): Worker<OutgoingWebhookJob> {
  const worker = new Worker<OutgoingWebhookJob>(QUEUE_NAME, (job) => runJob(services, job), {
    connection,
    prefix,
    concurrency: services.config.OUTGOING_WEBHOOK_CONCURRENCY,
  });
  worker.on('failed', (job, err) => services.log.warn({ err, jobId: job?.id, attempts: job?.attemptsMade }, 'outgoing webhook job failed'));
  worker.on('error', (err) => services.log.warn({ err }, 'outgoing webhook worker error'));
  return worker;
}

/** What one job's outcome needs: the bot acting, and the conversation it was triggered in. */
interface Outcome {
  services: Services;
  bot: LoadedActor;
  ownerId: number | null;
  job: OutgoingWebhookJob;
}

async function runJob(services: Services, job: Job<OutgoingWebhookJob>): Promise<void> {
  const data = job.data;
  const loaded = await loadActiveBot(services.db, data.botId, data.realmUrl);
  // Deactivated since the message was sent: nothing is asked of it any more.
  if (!loaded) return;
  const rows = await services.db.botService.findMany({ where: { botId: data.botId }, orderBy: { id: 'asc' } });
  const o: Outcome = { services, bot: loaded.actor, ownerId: loaded.botOwnerId, job: data };
  for (const service of rows) {
    if (service.interface === SLACK_INTERFACE && data.message.type === 'private') {
      await fail(o, "Slack outgoing webhooks don't support direct messages.");
      continue;
    }
    const request = buildRequest(service.interface, {
      botId: data.botId,
      botEmail: o.bot.email,
      botFullName: o.bot.fullName,
      token: service.token,
      trigger: data.trigger,
      realmId: data.realmId,
      realmHost: data.realmHost,
      message: data.message,
    });
    const { config } = services;
    let answer: PostAnswer;
    try {
      answer = await postGuarded(service.baseUrl, {
        ...request,
        timeoutMs: config.OUTGOING_WEBHOOK_TIMEOUT_SECONDS * 1000,
        allowedNetworks: parseNetworks(config.OUTGOING_WEBHOOK_ALLOWED_NETWORKS),
        maxBytes: MAX_ANSWER_BYTES,
        userAgent: USER_AGENT,
      });
    } catch (err) {
      if (!(err instanceof PostError)) throw err;
      await onPostError(o, job, err);
      continue;
    }
    await onAnswer(o, service.interface, answer);
  }
}

async function onPostError(o: Outcome, job: Job<OutgoingWebhookJob>, err: PostError): Promise<void> {
  const { services } = o;
  if (err.kind === 'timeout' || err.kind === 'connection') {
    // BullMQ tries again after its backoff; only the last try reports.
    if (job.attemptsMade + 1 < (job.opts.attempts ?? 1)) throw err;
    const failure =
      err.kind === 'timeout'
        ? `Request timed out after ${services.config.OUTGOING_WEBHOOK_TIMEOUT_SECONDS} seconds.`
        : 'A connection error occurred. Is my bot server down?';
    services.log.warn({ botId: o.bot.userId, err: err.message }, 'outgoing webhook: maximum retries exceeded');
    await fail(o, 'Bot is unavailable');
    await notifyOwner(o, { failure });
    return;
  }
  if (err.kind === 'refused') {
    // What the family's users see when its proxy refuses the address (a 407 from the proxy).
    services.log.info({ botId: o.bot.userId, err: err.message }, 'outgoing webhook: address refused');
    await fail(o, 'Third party responded with 407');
    await notifyOwner(o, { status: 407 });
    return;
  }
  await fail(o, `An exception of type *${err.name}* occurred for message \`${String(o.job.message.content)}\`! See the server logs for more information.`);
  await notifyOwner(o, { failure: `When trying to send a request to the webhook service, an exception of type ${err.name} occurred:\n\`\`\`\n${err.message}\n\`\`\`` });
}

async function onAnswer(o: Outcome, iface: number, answer: PostAnswer): Promise<void> {
  if (answer.status < 200 || answer.status >= 300) {
    o.services.log.info({ botId: o.bot.userId, status: answer.status }, 'outgoing webhook answered with an error status');
    await fail(o, `Third party responded with ${answer.status}`);
    await notifyOwner(o, { status: answer.status, payload: { text: answer.text, bytes: true } });
    return;
  }
  try {
    const reply = replyOf(iface, answer.text);
    if (reply !== null) await doSendBotReply(o.services, o.bot, placeOf(o.job.message), reply);
  } catch (err) {
    // An unreadable answer, or a reply the send refuses: said there and to the owner, not retried
    // (calling the bot again would not change its answer).
    if (!(err instanceof AnswerError || err instanceof ApiError)) throw err;
    await fail(o, err.message);
    await notifyOwner(o, {
      failure: `The outgoing webhook server attempted to send a message, but that request resulted in the following error:\n> ${err.message}`,
      payload: { text: answer.text, bytes: false },
    });
  }
}

/** "Failure! ..." where the bot was triggered. */
async function fail(o: Outcome, reason: string): Promise<void> {
  await sendNotice(o, () => doSendBotReply(o.services, o.bot, placeOf(o.job.message), failureContent(reason)));
}

async function notifyOwner(o: Outcome, notice: OwnerNotice): Promise<void> {
  if (o.ownerId === null) return;
  const content = ownerNoticeContent(o.job.realmUrl, o.bot.fullName, o.job.message, notice);
  await sendNotice(o, () => doSendBotReply(o.services, o.bot, { type: 'private', userIds: [o.ownerId!] }, content));
}

/** A notice that cannot be sent (its conversation is gone) is logged: there is nowhere else to say it. */
async function sendNotice(o: Outcome, send: () => Promise<unknown>): Promise<void> {
  try {
    await send();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    o.services.log.info({ botId: o.bot.userId, err: err.message }, 'outgoing webhook: notice not sent');
  }
}
