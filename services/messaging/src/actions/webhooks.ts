/**
 * POST /api/v1/external/<name>: a provider's request, already authenticated by the gateway as
 * the bot whose URL it is (docs/integrations.md). The integration (@chat/webhooks) turns it into
 * topics and messages; here they are sent as the bot through the usual send path, to the
 * `stream` of the URL or, without one, as a direct message to the bot's owner. What the owner
 * should hear about (an event the integration does not handle, a missing event header, a
 * channel that does not exist) is told to them once, by the notification bot.
 */
import type { Tx, User } from '@chat/db';
import { ApiError, errors } from '@chat/contracts';
import { processWebhook, type EventFilters, type Integration, type Outcome, type WebhookRequest } from '@chat/webhooks';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { botDirectMessage } from './onboarding';
import { notificationBot, silentMention } from './move-notices';
import { actingCaller, checkSendMessage, doSendMessage } from './send';

export interface WebhookTarget extends EventFilters {
  /** The URL's `stream`: a channel id or name. */
  stream?: string;
  /** The URL's `topic`, which replaces the integration's. */
  topic?: string;
}

export interface WebhookCaller {
  actor: LoadedActor;
  user: User;
}

/** The bot's configuration (bot_config_data): its integration's options, e.g. a signing secret. */
export async function webhookConfig(services: Pick<Services, 'db'>, botId: number): Promise<Record<string, string>> {
  const rows = await services.db.botConfigData.findMany({ where: { botId }, select: { key: true, value: true } });
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

/** The response's fields: `msg` for an event left alone, the caller for Zapier's test. */
export async function doIncomingWebhook(
  services: Services,
  caller: WebhookCaller,
  integration: Integration,
  req: WebhookRequest,
  target: WebhookTarget,
): Promise<Record<string, unknown>> {
  const { actor, user } = caller;
  if (integration.answersCaller?.(req)) return { full_name: actor.fullName, email: actor.email, id: actor.userId };
  let outcome: Outcome;
  try {
    outcome = processWebhook(integration, req, target);
  } catch (err) {
    // A payload that breaks an integration's assumptions in a way the payload reader did not
    // catch is still the request's fault, not the server's.
    if (err instanceof TypeError || err instanceof RangeError) throw errors.webhookPayloadMalformed(integration.displayName);
    throw err;
  }
  switch (outcome.kind) {
    case 'filtered':
      return {};
    case 'unsupported':
      await noticeOwnerOnce(services, caller, `unsupported:${integration.name}:${outcome.event}`.slice(0, 500), (bot) =>
        `${bot} received a '${outcome.event}' event from ${integration.displayName}, which it does not handle, so nothing was posted. ` +
        `Events of this kind will keep being ignored without another notice; its URL's \`exclude_events\` can leave them out.`);
      return { msg: outcome.text };
    case 'missing-header':
      await noticeOwnerOnce(services, caller, `header:${integration.name}`, (bot) =>
        `${bot} was sent a request for the ${integration.displayName} integration without the HTTP \`${outcome.header}\` header, ` +
        `which is how ${integration.displayName} names its events. The URL may have been entered in another service's settings, ` +
        `or the service may be an older version that does not send the header.`);
      throw errors.missingWebhookEventHeader(outcome.header);
    case 'post':
      for (const m of outcome.messages) {
        const posted = await postAsBot(services, actor, user, integration, target, m.topic, m.content);
        if (!posted) break;
      }
      return {};
  }
}

/** Sends one message as the bot; false when the channel does not exist (the owner is told). */
async function postAsBot(
  services: Services, actor: LoadedActor, user: User, integration: Integration, target: WebhookTarget, topic: string, content: string,
): Promise<boolean> {
  const client = `Zulip${integration.displayName.replace(/[^A-Za-z0-9]/g, '')}Webhook`;
  const input = target.stream === undefined
    ? { type: 'private', to: [user.botOwnerId ?? user.id], content, client }
    : { type: 'stream', to: target.stream, topic: target.topic ?? topic, content, client };
  try {
    const plan = await checkSendMessage(services, actingCaller(actor, user), input);
    await doSendMessage(services, plan);
    return true;
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'STREAM_DOES_NOT_EXIST') throw err;
    const stream = target.stream!;
    await noticeOwnerOnce(services, { actor, user }, `channel:${stream}`.slice(0, 500), (bot) =>
      `${bot} tried to post to the channel ${/^\d+$/.test(stream) ? `with ID ${stream}` : `#**${stream}**`}, which does not exist. ` +
      `Create the channel, or change the \`stream\` of the URL given to ${integration.displayName}.`);
    return false;
  }
}

/**
 * A direct message from the notification bot to the bot's owner (or, for a person's own key,
 * to them), sent only the first time `notice` comes up for this bot: the claim and the message
 * commit together.
 */
async function noticeOwnerOnce(services: Services, caller: WebhookCaller, notice: string, text: (bot: string) => string): Promise<void> {
  const { actor, user } = caller;
  await services.db.$transaction(async (tx: Tx) => {
    const claimed = await tx.$executeRawUnsafe(
      'INSERT INTO incoming_webhook_notices (bot_id, notice) VALUES ($1, $2) ON CONFLICT DO NOTHING', user.id, notice,
    );
    if (claimed !== 1) return;
    const owner = await tx.user.findFirst({ where: { id: user.botOwnerId ?? user.id, realmId: user.realmId, isActive: true } });
    if (!owner) return;
    const bot = await notificationBot(tx, actor);
    await botDirectMessage(tx, bot, owner, actor.realmUrl, text(actor.isBot ? `Your bot ${silentMention(actor)}` : `A webhook using your API key`));
  });
}
