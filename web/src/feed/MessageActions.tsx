/**
 * A message's actions: a toolbar shown on hover, on focus and on the selected message (a quick
 * 👍, the emoji picker, edit, star) and a "⋮" menu with the rest, each offered only when the
 * server would allow it.
 */
import type { Message } from '@chat/client';
import { t } from '../i18n';
import { MenuButton, type MenuItem } from '../ui/Menu';
import { copyLink, isResolvedTopic, quoteAndReply, reply, THUMBS_UP, toggleReaction, toggleResolve, toggleStar } from './actions';
import { useFeed } from './context';
import { messagePermissions } from './permissions';
import { markUnreadFrom } from './read';
import { openDialog, setFeedView } from './view-state';

export function messageMenuItems(message: Message, ctx: ReturnType<typeof useFeed>): MenuItem[] {
  const { terms, narrowKey } = ctx;
  const may = messagePermissions(ctx.reg, message);
  const starred = message.flags.includes('starred');
  const items: MenuItem[] = [
    { label: t('feed.quote_reply'), onSelect: () => void quoteAndReply(message), testId: 'action-quote' },
    { label: t('feed.reply'), onSelect: () => reply(message) },
    { kind: 'separator' },
  ];
  if (may.edit) items.push({ label: t('feed.edit'), onSelect: () => setFeedView({ editingId: message.id }), testId: 'action-edit' });
  if (may.move) items.push({ label: t('feed.move'), onSelect: () => openDialog({ kind: 'move', messageId: message.id }), testId: 'action-move' });
  if (may.resolve) {
    items.push({ label: isResolvedTopic(message) ? t('feed.unresolve') : t('feed.resolve'), onSelect: () => void toggleResolve(message), testId: 'action-resolve' });
  }
  items.push(
    { label: starred ? t('feed.unstar') : t('feed.star'), onSelect: () => void toggleStar(message) },
    { label: t('feed.mark_unread'), onSelect: () => void markUnreadFrom(terms, narrowKey, message.id, ctx.loadedIds()), testId: 'action-unread' },
    { label: t('feed.copy_link'), onSelect: () => void copyLink(message), testId: 'action-copy-link' },
  );
  if (may.history) items.push({ label: t('feed.history'), onSelect: () => openDialog({ kind: 'history', messageId: message.id }), testId: 'action-history' });
  if (may.receipts) items.push({ label: t('feed.receipts'), onSelect: () => openDialog({ kind: 'receipts', messageId: message.id }), testId: 'action-receipts' });
  if (may.delete) {
    items.push({ kind: 'separator' }, { label: t('feed.delete'), danger: true, onSelect: () => openDialog({ kind: 'delete', messageId: message.id }), testId: 'action-delete' });
  }
  return items;
}

export function MessageActions({ message }: { message: Message }) {
  const feed = useFeed();
  const starred = message.flags.includes('starred');
  const editable = messagePermissions(feed.reg, message).edit;
  return (
    <div className="message-actions" role="toolbar" aria-label={t('feed.actions')}>
      <button type="button" className="icon-button" aria-label={t('feed.react_thumbs')} title={t('feed.react_thumbs')} onClick={() => void toggleReaction(message, THUMBS_UP)}>
        <span aria-hidden="true">👍</span>
      </button>
      <button type="button" className="icon-button" aria-label={t('feed.add_reaction')} title={t('feed.add_reaction')} data-testid="action-react"
        onClick={(e) => openDialog({ kind: 'emoji', messageId: message.id, anchor: e.currentTarget })}>
        <span aria-hidden="true">☺</span>
      </button>
      {editable && (
        <button type="button" className="icon-button" aria-label={t('feed.edit')} title={t('feed.edit')} onClick={() => setFeedView({ editingId: message.id })}>
          <span aria-hidden="true">✎</span>
        </button>
      )}
      <button type="button" className={`icon-button star${starred ? ' starred' : ''}`} aria-pressed={starred} aria-label={t('feed.star')} title={starred ? t('feed.unstar') : t('feed.star')}
        onClick={() => void toggleStar(message)}>
        <span aria-hidden="true">{starred ? '★' : '☆'}</span>
      </button>
      <MenuButton label={t('feed.more_actions')} items={() => messageMenuItems(message, feed)} align="end" className="message-menu" testId="message-menu">
        <span aria-hidden="true">⋮</span>
      </MenuButton>
    </div>
  );
}
