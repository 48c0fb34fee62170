/** Typing notifications: composing a message, and editing one. Nothing is stored. */
import { errors } from '@chat/contracts';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { recordEvent } from '@chat/bus';
import { parseDirectTargets } from '../lib/recipients';
import { normalizeTopic } from '../lib/text';
import { accessMessage } from './message-access';
import { activeSubscriberIds } from './stream-dicts';
import { streamAccessOf } from './streams-access';

export interface TypingRequest {
  op: string;
  type: string;
  to?: unknown;
  streamId?: number;
  topic?: string;
}

function checkOp(op: string): 'start' | 'stop' {
  if (op !== 'start' && op !== 'stop') throw errors.badRequest('Invalid op');
  return op;
}

/** The family's typing endpoint reads only these (not the legacy "private" of sends). */
function checkTypingType(type: string): 'direct' | 'stream' {
  if (type === 'direct') return 'direct';
  if (type === 'stream' || type === 'channel') return 'stream';
  throw errors.badRequest('Invalid type');
}

/** `to` of a typing notice: a non-empty list of user ids (an empty one is its own error). */
function typingTargets(raw: unknown): number[] {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      value = raw;
    }
  }
  if (Array.isArray(value) && value.length === 0) throw errors.badRequest("Empty 'to' list");
  const parsed = parseDirectTargets(value);
  if (!('ids' in parsed)) throw errors.badRequest('Invalid user ID');
  return parsed.ids;
}

/** Users among `ids` who want typing notifications. */
async function receivers(services: Services, ids: number[]): Promise<number[]> {
  const users = await services.db.user.findMany({ where: { id: { in: ids }, isActive: true }, select: { id: true, settings: true } });
  return users.filter((u) => (u.settings as Record<string, unknown> | null)?.receives_typing_notifications !== false).map((u) => u.id);
}

export async function doTyping(services: Services, actor: LoadedActor, req: TypingRequest): Promise<void> {
  const op = checkOp(req.op);
  const sender = { user_id: actor.userId, email: actor.email };
  if (checkTypingType(req.type) === 'direct') {
    if (req.to === undefined) throw errors.missingArgument('to');
    const ids = typingTargets(req.to);
    if (actor.settings.send_private_typing_notifications === false) {
      throw errors.badRequest('User has disabled typing notifications for direct messages');
    }
    const users = await services.db.user.findMany({ where: { id: { in: ids }, realmId: actor.realmId }, select: { id: true, email: true } });
    const found = new Set(users.map((u) => u.id));
    // The whole notice is refused when one id is wrong, naming it, as the family does.
    const unknown = ids.find((id) => !found.has(id));
    if (unknown !== undefined) throw errors.badRequest(`Invalid user ID ${unknown}`);
    const all = [...new Map([...users, { id: actor.userId, email: actor.email }].map((u) => [u.id, u])).values()].sort((a, b) => a.id - b.id);
    await recordEvent(services.db, {
      realmId: actor.realmId,
      type: 'typing',
      users: await receivers(services, all.map((u) => u.id)),
      event: { type: 'typing', op, message_type: 'direct', sender, recipients: all.map((u) => ({ user_id: u.id, email: u.email })) },
    });
    return;
  }
  if (req.streamId === undefined) throw errors.missingArgument('stream_id');
  if (req.topic === undefined) throw errors.badRequest('Missing topic');
  if (actor.settings.send_stream_typing_notifications === false) {
    throw errors.badRequest('User has disabled typing notifications for channel messages');
  }
  const stream = await services.db.stream.findFirst({ where: { id: req.streamId, realmId: actor.realmId } });
  if (!stream) throw errors.invalidStreamId();
  const subscribers = await activeSubscriberIds(services.db, stream.id);
  const sub = await services.db.subscription.findUnique({ where: { userId_streamId: { userId: actor.userId, streamId: stream.id } } });
  if (!streamAccessOf(actor, stream, sub).canReadContent) throw errors.invalidStreamId();
  await recordEvent(services.db, {
    realmId: actor.realmId,
    type: 'typing',
    // Every subscriber, the typist included (as for direct messages): their other clients learn of it too.
    users: await receivers(services, subscribers),
    event: { type: 'typing', op, message_type: 'stream', sender, stream_id: stream.id, topic: normalizeTopic(req.topic) },
  });
}

/** Someone is editing a message: the people who see the message hear about it. */
export async function doTypingEditMessage(services: Services, actor: LoadedActor, messageId: number, rawOp: string): Promise<void> {
  const op = checkOp(rawOp);
  const { message } = await accessMessage(services.db, actor, messageId);
  if (message.senderId !== actor.userId) throw errors.badRequest("You don't have permission to edit this message");
  // Like composing: everyone in the conversation who wants typing notifications, the editor included.
  let recipient: Record<string, unknown>;
  let users: number[];
  if (message.streamId !== null) {
    users = await receivers(services, await activeSubscriberIds(services.db, message.streamId));
    recipient = { type: 'channel', channel_id: message.streamId, topic: message.topic };
  } else {
    const conv = await services.db.directConversation.findUniqueOrThrow({ where: { id: message.conversationId! } });
    users = (await receivers(services, conv.memberIds)).sort((a, b) => a - b);
    // The reference server names the notified users here, not every participant.
    recipient = { type: 'direct', user_ids: users };
  }
  await recordEvent(services.db, {
    realmId: actor.realmId,
    type: 'typing_edit_message',
    users,
    event: { type: 'typing_edit_message', op, sender_id: actor.userId, message_id: message.id, recipient },
    routing: { topic_fields: [] },
  });
}
