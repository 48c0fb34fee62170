/** DELETE /messages/{id} and GET /messages/{id}/history. */
import { errors, type DeleteMessageEvent } from '@chat/contracts';
import type { Message, Tx } from '@chat/db';
import { hasRealmPermission, realmPolicies } from '@chat/realm';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { htmlDiff } from '../lib/html-diff';
import { recordEvent } from '@chat/bus';
import { displayTopic } from '../lib/wire';
import { accessMessage, messageAudience } from './message-access';
import { hasChannelPermission } from './channel-permissions';

export async function doDeleteMessage(services: Services, actor: LoadedActor, messageId: number): Promise<void> {
  await services.db.$transaction(async (tx) => {
    const { message } = await accessMessage(tx, actor, messageId);
    const realm = await tx.realm.findUniqueOrThrow({ where: { id: actor.realmId } });
    // The realm's permission, or the channel's (the family's validate_can_delete_message).
    const stream = message.streamId !== null ? await tx.stream.findUniqueOrThrow({ where: { id: message.streamId } }) : null;
    const may = async (setting: 'can_delete_any_message_group' | 'can_delete_own_message_group') =>
      (await hasRealmPermission(tx, actor.realmId, setting, actor.userId)) || (stream !== null && (await hasChannelPermission(tx, stream, setting, actor.userId)));
    if (!(await may('can_delete_any_message_group'))) {
      const own = message.senderId === actor.userId && (await may('can_delete_own_message_group'));
      if (!own) throw errors.badRequest("You don't have permission to delete this message");
      const limit = realmPolicies(realm.settings).message_content_delete_limit_seconds;
      if (limit !== null && Date.now() - message.dateSent.getTime() > limit * 1000) {
        throw errors.badRequest('The time limit for deleting this message has passed');
      }
    }
    await deleteMessageInTx(tx, actor.realmId, message);
  });
}

/** Deletes one message and tells everyone who had it, in the caller's transaction. */
export async function deleteMessageInTx(tx: Tx, realmId: number, message: Pick<Message, 'id' | 'streamId' | 'topic'>): Promise<void> {
  const audience = await messageAudience(tx, [message.id], [message.streamId]);
  await tx.message.delete({ where: { id: message.id } });
  const event: DeleteMessageEvent =
    message.streamId !== null
      ? { type: 'delete_message', message_ids: [message.id], message_type: 'stream', stream_id: message.streamId, topic: message.topic }
      : { type: 'delete_message', message_ids: [message.id], message_type: 'private' };
  await recordEvent(tx, { realmId, type: 'delete_message', users: audience, event });
}

/** Snapshots oldest first, each holding the message as it was after that edit. */
export async function messageHistory(services: Services, actor: LoadedActor, messageId: number, allowEmptyTopicName: boolean) {
  const { message } = await accessMessage(services.db, actor, messageId);
  const realm = await services.db.realm.findUniqueOrThrow({ where: { id: actor.realmId } });
  if (!realm.allowEditHistory) throw errors.badRequest('Message edit history is disabled in this organization');
  const entries = Array.isArray(message.editHistory) ? (message.editHistory as Record<string, unknown>[]) : [];
  const topic = (t: string) => displayTopic(t, allowEmptyTopicName || message.streamId === null);
  let content = message.content;
  let rendered = message.renderedContent;
  let currentTopic = message.topic;
  const snapshots: Record<string, unknown>[] = [];
  for (const e of entries) {
    const snap: Record<string, unknown> = { user_id: e.user_id ?? null, timestamp: e.timestamp, topic: topic(currentTopic), content, rendered_content: rendered };
    if (typeof e.prev_topic === 'string') {
      snap.prev_topic = topic(e.prev_topic);
      currentTopic = e.prev_topic;
    }
    if (e.prev_stream !== undefined) Object.assign(snap, { prev_stream: e.prev_stream, stream: e.stream });
    if (typeof e.prev_content === 'string') {
      snap.prev_content = e.prev_content;
      snap.prev_rendered_content = e.prev_rendered_content;
      snap.content_html_diff = htmlDiff(String(e.prev_rendered_content ?? ''), rendered);
      content = e.prev_content;
      rendered = String(e.prev_rendered_content ?? '');
    }
    snapshots.push(snap);
  }
  snapshots.push({
    topic: topic(currentTopic),
    content,
    rendered_content: rendered,
    timestamp: Math.floor(message.dateSent.getTime() / 1000),
    user_id: message.senderId,
  });
  return snapshots.reverse();
}
