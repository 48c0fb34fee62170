/**
 * `announce` of channel creation: the notification bot tells the realm's new-channel
 * announcements channel, in the topic "new channels", as the family's server words it.
 */
import type { Stream, Tx } from '@chat/db';
import { realmPolicies } from '@chat/realm';
import type { LoadedActor } from '../lib/caller';
import { normalizeContent } from '../lib/text';
import { channelUrl } from '../markdown/urls';
import { notificationBot, postNotice, silentMention } from './move-notices';

export const NEW_CHANNELS_TOPIC = 'new channels';

/** `#**name**`, or a plain link when the name would break that syntax. */
export function channelLinkSyntax(stream: Pick<Stream, 'id' | 'name'>): string {
  return /[>*`$]/.test(stream.name) ? `[#${stream.name}](${channelUrl(stream.id, stream.name)})` : `#**${stream.name}**`;
}

export async function announceNewChannels(tx: Tx, actor: LoadedActor, created: Stream[]): Promise<void> {
  if (!created.length) return;
  const realm = await tx.realm.findUniqueOrThrow({ where: { id: actor.realmId } });
  const targetId = realmPolicies(realm.settings).new_stream_announcements_stream_id;
  const target = targetId > 0 ? await tx.stream.findFirst({ where: { id: targetId, realmId: actor.realmId, isArchived: false } }) : null;
  if (!target) return;
  const links = created.map(channelLinkSyntax).join(', ');
  const raw =
    created.length > 1
      ? `${silentMention(actor)} created the following channels: ${links}.`
      : `${silentMention(actor)} created a new channel ${links}.`;
  const topic = target.topicsPolicy === 'empty_topic_only' ? '' : NEW_CHANNELS_TOPIC;
  // Rendered as the creator sees channels, so links to the new channels resolve.
  await postNotice(tx, await notificationBot(tx, actor), actor, target, topic, normalizeContent(raw), new Set([actor.userId]));
}
