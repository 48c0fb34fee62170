/** Personal message flags: read, starred, collapsed and the rest a user may set. */
import type { Tx } from '@chat/db';
import { errors, flagBit, MESSAGE_FLAGS, type MessageFlag, type UpdateMessageFlagsEvent } from '@chat/contracts';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { recordEvent } from '@chat/bus';
import { accessMessage } from './message-access';

/** Flags the server sets and clients may not. */
const NOT_EDITABLE = new Set(['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'wildcard_mentioned', 'historical', 'is_private', 'has_alert_word', 'active_mobile_push_notification']);

export function checkEditableFlag(flag: string): MessageFlag {
  if (!(MESSAGE_FLAGS as readonly string[]).includes(flag) && flag !== 'wildcard_mentioned') throw errors.badRequest(`Invalid flag: '${flag}'`);
  if (NOT_EDITABLE.has(flag)) throw errors.badRequest(`Flag not editable: '${flag}'`);
  return flag as MessageFlag;
}

/** Details clients need to put a message back among their unreads. */
async function messageDetails(tx: Tx, actor: LoadedActor, ids: number[]) {
  const messages = await tx.message.findMany({ where: { id: { in: ids } }, include: { conversation: true } });
  const out: Record<string, Record<string, unknown>> = {};
  for (const m of messages) {
    const um = await tx.userMessage.findUnique({ where: { userId_messageId: { userId: actor.userId, messageId: m.id } } });
    const mentioned = um ? (um.flags & (flagBit('mentioned') | flagBit('stream_wildcard_mentioned') | flagBit('topic_wildcard_mentioned'))) !== 0n : false;
    out[m.id] =
      m.streamId !== null
        ? { type: 'stream', stream_id: m.streamId, topic: m.topic, ...(mentioned ? { mentioned: true } : {}) }
        : { type: 'private', user_ids: (m.conversation?.memberIds ?? []).filter((id) => id !== actor.userId), ...(mentioned ? { mentioned: true } : {}) };
  }
  return out;
}

/**
 * Sets or clears one flag on the actor's copies of `ids`, returning the ids that changed. Flags
 * other than read on messages read through channel history create the missing copy (marked
 * historical) so the flag has somewhere to live.
 */
export async function doUpdateFlags(services: Services, actor: LoadedActor, ids: number[], op: 'add' | 'remove', flag: MessageFlag): Promise<number[]> {
  return services.db.$transaction(async (tx) => {
    const bit = flagBit(flag);
    const unique = [...new Set(ids)];
    const own = await tx.userMessage.findMany({ where: { userId: actor.userId, messageId: { in: unique } } });
    const ownIds = new Set(own.map((r) => r.messageId));
    const missing = unique.filter((id) => !ownIds.has(id));
    for (const id of missing) await accessMessage(tx, actor, id); // "Invalid message(s)" for what they may not read
    if (op === 'add' && flag !== 'read' && missing.length) {
      await tx.userMessage.createMany({
        data: missing.map((messageId) => ({ userId: actor.userId, messageId, flags: flagBit('read') | flagBit('historical') })),
      });
    }
    const rows = await tx.$queryRawUnsafe<Array<{ message_id: number }>>(
      op === 'add'
        ? `UPDATE user_messages SET flags = flags | $3 WHERE user_id = $1 AND message_id = ANY($2::int[]) AND (flags & $3) = 0 RETURNING message_id`
        : `UPDATE user_messages SET flags = flags & ~$3::bigint WHERE user_id = $1 AND message_id = ANY($2::int[]) AND (flags & $3) <> 0 RETURNING message_id`,
      actor.userId,
      unique,
      bit,
    );
    const changed = rows.map((r) => r.message_id).sort((a, b) => a - b);
    await recordFlagEvent(tx, actor, op, flag, changed);
    return changed;
  });
}

export async function recordFlagEvent(tx: Tx, actor: LoadedActor, op: 'add' | 'remove', flag: string, messages: number[]): Promise<void> {
  const event: UpdateMessageFlagsEvent = { type: 'update_message_flags', op, operation: op, flag, messages, all: false };
  if (op === 'remove' && flag === 'read') event.message_details = await messageDetails(tx, actor, messages);
  await recordEvent(tx, { realmId: actor.realmId, type: 'update_message_flags', users: [actor.userId], event });
}

/** mark_all_as_read, mark_stream_as_read, mark_topic_as_read. */
export async function doMarkAsRead(services: Services, actor: LoadedActor, scope: { streamId?: number; topic?: string }): Promise<number> {
  return services.db.$transaction(async (tx) => {
    const params: unknown[] = [actor.userId];
    let filter = '';
    if (scope.streamId !== undefined) {
      params.push(scope.streamId);
      filter += ` AND m.stream_id = $${params.length}`;
    }
    if (scope.topic !== undefined) {
      params.push(scope.topic);
      filter += ` AND lower(m.topic) = lower($${params.length})`;
    }
    const rows = await tx.$queryRawUnsafe<Array<{ message_id: number }>>(
      `UPDATE user_messages um SET flags = um.flags | 1 FROM messages m
        WHERE um.user_id = $1 AND m.id = um.message_id AND (um.flags & 1) = 0${filter}
        RETURNING um.message_id`,
      ...params,
    );
    const ids = rows.map((r) => r.message_id).sort((a, b) => a - b);
    if (ids.length) await recordFlagEvent(tx, actor, 'add', 'read', ids);
    return ids.length;
  });
}
