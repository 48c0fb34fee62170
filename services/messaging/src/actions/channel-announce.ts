/**
 * `announce` of channel creation: the notification bot tells the realm's new-channel
 * announcements channel, in the topic "new channels", as the family's server words it.
 */
import type { Stream, Tx } from '@chat/db';
import { realmPolicies } from '@chat/realm';
import type { Actor } from '../lib/context';
import { normalizeContent } from '../lib/text';
import { loadRenderContext, renderMarkdown } from '../markdown';
import { channelUrl } from '../markdown/urls';
import { notificationBot, silentMention } from './move-notices';
import { sendMessageInTx } from './send';

export const NEW_CHANNELS_TOPIC = 'new channels';

/** `#**name**`, or a plain link when the name would break that syntax. */
export function channelLinkSyntax(stream: Pick<Stream, 'id' | 'name'>): string {
  return /[>*`$]/.test(stream.name) ? `[#${stream.name}](${channelUrl(stream.id, stream.name)})` : `#**${stream.name}**`;
}

export async function announceNewChannels(tx: Tx, actor: Actor, created: Stream[]): Promise<void> {
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
  const content = normalizeContent(raw);
  const topic = target.topicsPolicy === 'empty_topic_only' ? '' : NEW_CHANNELS_TOPIC;
  const subs = await tx.subscription.findMany({ where: { streamId: target.id, active: true, user: { isActive: true } }, select: { userId: true } });
  const bot = await notificationBot(tx, actor);
  // Rendered as the creator sees channels, so links to the new channels resolve.
  const rendered = renderMarkdown(content, await loadRenderContext(tx, actor.realmId, actor.realmUrl, content, actor.userId));
  await sendMessageInTx(tx, bot, {
    target: { kind: 'stream', stream: target, topic, subscriberIds: subs.map((s) => s.userId) },
    content,
    rendered,
    input: { type: 'stream', to: target.id, content, topic, client: 'Internal', readBySender: true },
    // The creator's own copy starts read, as the family marks its notices for the acting user.
    readFor: new Set([actor.userId]),
  });
}
