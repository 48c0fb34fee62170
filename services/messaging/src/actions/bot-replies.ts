/**
 * Messages an outgoing-webhook bot sends without a request of its own: the answer its service
 * gave, and the family's failure notices (workers/outgoing-webhooks). As on the family's server
 * the answer goes where the trigger was (same channel and topic, or the same direct-message
 * conversation) without the channel access checks of a send through the API: the bot was
 * mentioned there, so it answers there.
 */
import { errors } from '@chat/contracts';
import type { Tx } from '@chat/db';
import type { Services } from '../context';
import { actorOf, type LoadedActor } from '../lib/caller';
import { normalizeContent } from '../lib/text';
import { loadRenderContext, renderMarkdown } from '../markdown';
import { sendMessageInTx } from './send';

/** Where a reply goes: a channel's topic, or a direct-message conversation (everyone in it). */
export type ReplyPlace = { type: 'stream'; streamId: number; topic: string } | { type: 'private'; userIds: number[] };

/** The client name the family gives these messages. */
const REPLY_CLIENT = 'OutgoingWebhookResponse';

/** The bot as it acts now; null when it was deactivated (or its realm) since the trigger. */
export async function loadActiveBot(tx: Tx | Services['db'], botId: number, realmUrl: string): Promise<{ actor: LoadedActor; botOwnerId: number | null } | null> {
  const bot = await tx.user.findUnique({ where: { id: botId }, include: { realm: { select: { deactivated: true } } } });
  if (!bot || !bot.isActive || !bot.isBot || bot.realm.deactivated) return null;
  return { actor: actorOf(bot, realmUrl), botOwnerId: bot.botOwnerId };
}

/** Sends `content` from the bot to `place`; returns the message id, or null when there is nowhere to send it. */
export async function doSendBotReply(services: Services, bot: LoadedActor, place: ReplyPlace, raw: string): Promise<number | null> {
  const content = normalizeContent(raw);
  return services.db.$transaction(async (tx) => {
    const rendered = renderMarkdown(content, await loadRenderContext(tx, bot.realmId, bot.realmUrl, content, bot.userId));
    if (place.type === 'stream') {
      const stream = await tx.stream.findFirst({ where: { id: place.streamId, realmId: bot.realmId, isArchived: false } });
      // The channel was archived since: the family has no place for the answer either.
      if (!stream) return null;
      const subs = await tx.subscription.findMany({ where: { streamId: stream.id, active: true, user: { isActive: true } }, select: { userId: true } });
      const result = await sendMessageInTx(tx, {
        actor: bot,
        target: { kind: 'stream', stream, topic: place.topic, subscriberIds: subs.map((s) => s.userId) },
        content,
        rendered,
        input: { type: 'stream', to: stream.id, content, topic: place.topic, client: REPLY_CLIENT, readBySender: true },
      });
      return result.id;
    }
    const ids = place.userIds.filter((id) => id !== bot.userId);
    const recipients = await tx.user.findMany({ where: { id: { in: ids }, realmId: bot.realmId }, select: { id: true, email: true, fullName: true, isActive: true } });
    if (recipients.some((r) => !r.isActive)) throw errors.badRequest('A recipient is no longer a member of this organization.');
    const result = await sendMessageInTx(tx, {
      actor: bot,
      target: { kind: 'private', recipients: recipients.map((r) => ({ id: r.id, email: r.email, fullName: r.fullName })) },
      content,
      rendered,
      input: { type: 'private', to: recipients.map((r) => r.id), content, client: REPLY_CLIENT, readBySender: true },
    });
    return result.id;
  });
}
