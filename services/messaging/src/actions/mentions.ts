/** Mention rules of sending: who may notify a whole channel or topic, and the flags mentions set. */
import type { Stream } from '@chat/db';
import { errors, flagBit } from '@chat/contracts';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { hasRealmPermission } from '@chat/realm';
import type { RenderResult } from '../markdown';

function canMentionManyUsers(services: Services, actor: LoadedActor): Promise<boolean> {
  return hasRealmPermission(services.db, actor.realmId, 'can_mention_many_users_group', actor.userId);
}

/**
 * @all-style mentions notify everyone, so in a large channel (or a topic with many
 * participants) only members of can_mention_many_users_group may use them.
 */
export async function checkWildcardMentions(
  services: Services,
  actor: LoadedActor,
  stream: Stream,
  topic: string,
  subscriberCount: number,
  rendered: RenderResult,
): Promise<void> {
  if (rendered.streamWildcard && subscriberCount > services.config.WILDCARD_MENTION_LARGE_STREAM_THRESHOLD) {
    if (!(await canMentionManyUsers(services, actor))) throw errors.streamWildcardMentionNotAllowed();
  }
  if (rendered.topicWildcard) {
    const participants = await services.db.message.findMany({
      where: { streamId: stream.id, topic: { equals: topic, mode: 'insensitive' } },
      select: { senderId: true },
      distinct: ['senderId'],
    });
    if (participants.length > services.config.TOPIC_WILDCARD_MENTION_LARGE_THRESHOLD && !(await canMentionManyUsers(services, actor))) {
      throw errors.topicWildcardMentionNotAllowed();
    }
  }
}

/** Mention flags of one recipient's copy. */
export function mentionFlags(userId: number, r: RenderResult, isStream: boolean, topicParticipants: Set<number>): bigint {
  let flags = 0n;
  if (r.mentionedUserIds.has(userId)) flags |= flagBit('mentioned');
  if (isStream && r.streamWildcard) flags |= flagBit('stream_wildcard_mentioned');
  if (isStream && r.topicWildcard && topicParticipants.has(userId)) flags |= flagBit('topic_wildcard_mentioned');
  return flags;
}
