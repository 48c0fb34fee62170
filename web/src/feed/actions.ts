/**
 * What the message actions ask of the server. None of them changes the store: the events that
 * follow (reaction, update_message_flags, update_message, delete_message) do.
 */
import type { Message } from '@chat/client';
import { api, errorText } from '../api';
import { openCompose } from '../compose/state';
import { t } from '../i18n';
import { store } from '../state/store';
import type { EmojiEntry } from '../emoji/data';
import { messageLink, quoteText, replyTarget } from './quote';
import { RESOLVED_PREFIX, toggledResolved } from './permissions';
import { notify } from './view-state';

export function channelName(streamId: number | undefined): string {
  const reg = store.get().reg;
  if (!reg || streamId === undefined) return '';
  const sub = reg.subscriptions.find((s) => s.stream_id === streamId) ?? reg.unsubscribed?.find((s) => s.stream_id === streamId) ?? reg.never_subscribed?.find((s) => s.stream_id === streamId) ?? reg.streams?.find((s) => s.stream_id === streamId);
  return sub?.name ?? (typeof streamId === 'number' ? String(streamId) : '');
}

function realmUrl(): string {
  const reg = store.get().reg;
  return (reg?.realm_url ?? reg?.realm_uri ?? location.origin) as string;
}

export function linkTo(message: Message): string {
  return messageLink(message, channelName(message.stream_id), realmUrl());
}

/** Reports a refused action where the reader sees it. */
async function attempt(work: () => Promise<unknown>): Promise<boolean> {
  try {
    await work();
    return true;
  } catch (err) {
    notify(t('feed.action_failed', { error: errorText(err) }));
    return false;
  }
}

export function toggleReaction(message: Message, emoji: Pick<EmojiEntry, 'name' | 'code' | 'type'>): Promise<boolean> {
  const selfId = store.get().reg?.user_id;
  const mine = message.reactions.some((r) => r.user_id === selfId && r.reaction_type === emoji.type && r.emoji_code === emoji.code);
  const body = { emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type };
  return attempt(() => (mine ? api.removeReaction(message.id, body) : api.addReaction(message.id, body)));
}

export const THUMBS_UP: Pick<EmojiEntry, 'name' | 'code' | 'type'> = { name: '+1', code: '1f44d', type: 'unicode_emoji' };

export function toggleStar(message: Message): Promise<boolean> {
  return attempt(() => api.updateFlags([message.id], message.flags.includes('starred') ? 'remove' : 'add', 'starred'));
}

export function reply(message: Message): void {
  const selfId = store.get().reg!.user_id;
  openCompose(replyTarget(message, selfId));
}

/** Quote and reply: the raw Markdown from the server, quoted after whatever is already typed. */
export async function quoteAndReply(message: Message): Promise<void> {
  const selfId = store.get().reg!.user_id;
  await attempt(async () => {
    const { raw_content } = await api.getRawContent(message.id);
    openCompose(replyTarget(message, selfId), { append: `${quoteText(message, raw_content, linkTo(message))}\n` });
  });
}

export async function copyLink(message: Message): Promise<void> {
  const link = linkTo(message);
  try {
    await navigator.clipboard.writeText(link);
    notify(t('feed.link_copied'));
  } catch {
    // Without clipboard access (an insecure origin), show the link to copy by hand.
    window.prompt(t('feed.copy_link'), link);
  }
}

export function saveContent(message: Message, content: string): Promise<boolean> {
  return attempt(() => api.updateMessage(message.id, { content }));
}

export interface MoveRequest {
  topic?: string;
  streamId?: number;
  propagate: 'change_one' | 'change_later' | 'change_all';
  notifyOld: boolean;
  notifyNew: boolean;
}

export function moveMessages(message: Message, req: MoveRequest): Promise<boolean> {
  return attempt(() =>
    api.updateMessage(message.id, {
      ...(req.topic !== undefined && req.topic !== message.subject ? { topic: req.topic } : {}),
      ...(req.streamId !== undefined && req.streamId !== message.stream_id ? { stream_id: req.streamId } : {}),
      propagate_mode: req.propagate,
      send_notification_to_old_thread: req.notifyOld,
      send_notification_to_new_thread: req.notifyNew,
    }),
  );
}

/** Resolving moves the whole topic to its name with (or without) the ✔ mark, as the family does. */
export function toggleResolve(message: Message): Promise<boolean> {
  return attempt(() =>
    api.updateMessage(message.id, { topic: toggledResolved(message.subject), propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: true }),
  );
}

export function isResolvedTopic(message: Message): boolean {
  return message.type === 'stream' && message.subject.startsWith(RESOLVED_PREFIX);
}

export function deleteMessage(message: Message): Promise<boolean> {
  return attempt(() => api.deleteMessage(message.id));
}

export function sendWidgetEvent(messageId: number, data: unknown): Promise<boolean> {
  return attempt(() => api.submessage(messageId, data));
}
