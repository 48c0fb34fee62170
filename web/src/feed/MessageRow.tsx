/**
 * One message in the list: its date separator and recipient bar when they change, the sender
 * line unless grouped with the message before, the server's HTML (or a poll or to-do widget,
 * or the inline editor), reactions and the actions. Selected, unread, mentioned and starred
 * messages are marked; a muted sender's message stays hidden until the reader shows it.
 */
import { memo, type FocusEvent, type MouseEvent } from 'react';
import type { Message } from '@chat/client';
import { t } from '../i18n';
import { discardSend, retrySend } from '../state/actions';
import { canSeeEditHistory } from '../state/permissions';
import { Avatar } from '../ui/Avatar';
import { UserName } from '../ui/UserName';
import { useTimeFormat } from '../ui/time';
import { openUserCard } from '../people/card';
import { useFeed } from './context';
import { EditForm } from './EditForm';
import { MessageActions } from './MessageActions';
import { messageHash } from './quote';
import { Reactions } from './Reactions';
import { RecipientBar } from './RecipientBar';
import { Rendered } from './Rendered';
import type { MessageRowData, PendingRowData } from './rows';
import { selectMessage } from './selection';
import { openDialog, reveal, useFeedView } from './view-state';
import { channelName } from './actions';
import { hasWidget, Widget } from './widgets/Widget';

const MENTION_FLAGS = new Set(['mentioned', 'wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned']);

export function dateLabel(ts: number, now = Date.now()): string {
  const d = new Date(ts * 1000);
  const today = new Date(now);
  const yesterday = new Date(now - 86_400_000);
  if (d.toDateString() === today.toDateString()) return t('feed.today');
  if (d.toDateString() === yesterday.toDateString()) return t('feed.yesterday');
  return d.toLocaleDateString(undefined, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', ...(d.getFullYear() === today.getFullYear() ? { year: undefined } : {}) });
}

function Star() {
  return <span className="star-marker" role="img" aria-label={t('feed.starred')} title={t('feed.starred')}>★</span>;
}

function Markers({ message }: { message: Message }) {
  const { reg } = useFeed();
  const moved = message.last_moved_timestamp !== undefined && message.last_edit_timestamp === undefined;
  if (message.last_edit_timestamp === undefined && message.last_moved_timestamp === undefined) return null;
  const text = moved ? t('feed.moved') : t('feed.edited');
  if (!canSeeEditHistory(reg)) return <span className="edit-marker">{text}</span>;
  return (
    <button type="button" className="edit-marker" title={t('feed.history')} onClick={() => openDialog({ kind: 'history', messageId: message.id })}>
      {text}
    </button>
  );
}

function MessageBody({ message }: { message: Message }) {
  const { selfId, reg, render, search } = useFeed();
  const editing = useFeedView((s) => s.editingId === message.id);
  if (editing) return <EditForm message={message} reg={reg} />;
  if (hasWidget(message)) return <Widget message={message} selfId={selfId} />;
  const html = search && typeof message.match_content === 'string' ? message.match_content : message.content;
  return <Rendered html={html} ctx={render} hasAlertWord={message.flags.includes('has_alert_word')} className={message.is_me_message ? 'me-message' : undefined} />;
}

interface Props {
  row: MessageRowData;
  selected: boolean;
}

function MessageRowImpl({ row, selected }: Props) {
  const m = row.message;
  const { selfId, mutedUsers, search } = useFeed();
  const time = useTimeFormat();
  const revealed = useFeedView((s) => s.revealed.has(m.id));
  const unread = !m.flags.includes('read');
  const mentioned = m.flags.some((f) => MENTION_FLAGS.has(f));
  const starred = m.flags.includes('starred');
  const hidden = mutedUsers.has(m.sender_id) && m.sender_id !== selfId && !revealed;
  const classes = ['message', row.grouped && 'grouped', unread && 'unread', mentioned && 'mentioned', starred && 'starred', selected && 'selected', m.is_me_message && 'me'].filter(Boolean).join(' ');
  const select = (e: MouseEvent | FocusEvent) => {
    // Clicks on links, buttons and fields do their own thing; the message is selected all the same.
    if (e.type === 'focus' && e.target !== e.currentTarget) return;
    selectMessage(m.id);
  };
  const label = `${m.sender_full_name}, ${time.full(m.timestamp)}${unread ? `, ${t('feed.unread')}` : ''}${mentioned ? `, ${t('feed.mentions_you')}` : ''}`;
  const hash = messageHash(m, channelName(m.stream_id));
  return (
    <>
      {row.newDay && (
        <div className="date-separator" role="separator">
          <span>{dateLabel(m.timestamp)}</span>
        </div>
      )}
      {row.recipientBar && <RecipientBar message={m} selfId={selfId} highlight={search} />}
      <article className={classes} data-message-id={m.id} aria-label={label} tabIndex={selected ? 0 : -1} onClick={select} onFocus={select}>
        {!row.grouped && hidden && (
          <header className="message-header">
            <span className="avatar-button muted-avatar" aria-hidden="true" />
            <span className="sender muted-sender">{t('feed.muted_user')}</span>
            <span className="message-time">{time.time(m.timestamp)}</span>
          </header>
        )}
        {!row.grouped && !hidden && (
          <header className="message-header">
            <button type="button" className="avatar-button" onClick={(e) => openUserCard(m.sender_id, e.currentTarget)} aria-label={t('feed.open_card', { name: m.sender_full_name })} tabIndex={-1}>
              <Avatar userId={m.sender_id} size={32} />
            </button>
            <UserName userId={m.sender_id} fallback={m.sender_full_name} className="sender" showStatus />
            <Markers message={m} />
            {starred && <Star />}
            <a className="message-time" href={hash} title={time.full(m.timestamp)}>
              <time dateTime={new Date(m.timestamp * 1000).toISOString()}>{time.time(m.timestamp)}</time>
            </a>
          </header>
        )}
        {row.grouped && !hidden && (
          <div className="grouped-meta">
            {starred && <Star />}
            <Markers message={m} />
            <a className="message-time grouped-time" href={hash} title={time.full(m.timestamp)} tabIndex={-1}>
              <time dateTime={new Date(m.timestamp * 1000).toISOString()}>{time.time(m.timestamp)}</time>
            </a>
          </div>
        )}
        {hidden ? (
          <div className="muted-message">
            {t('feed.muted_hidden')}{' '}
            <button type="button" className="link-button" onClick={() => reveal(m.id)}>{t('feed.show')}</button>
          </div>
        ) : (
          <>
            <MessageBody message={m} />
            {m.reactions.length > 0 && <Reactions message={m} selfId={selfId} />}
            <MessageActions message={m} />
          </>
        )}
      </article>
    </>
  );
}

/** Rows are rebuilt on every store change; a row re-renders only when its own message or place changed. */
export const MessageRow = memo(MessageRowImpl, (a, b) =>
  a.selected === b.selected && a.row.message === b.row.message && a.row.grouped === b.row.grouped && a.row.recipientBar === b.row.recipientBar && a.row.newDay === b.row.newDay,
);

export function PendingRow({ row }: { row: PendingRowData }) {
  const { item } = row;
  const { selfId } = useFeed();
  return (
    <>
      {row.recipientBar && <RecipientBar message={row.recipientBar} selfId={selfId} />}
      <article className={`message pending${row.grouped ? ' grouped' : ''}`} data-local-id={item.localId} aria-busy={!item.failed}>
        {!row.grouped && (
          <header className="message-header">
            <span className="avatar-button" aria-hidden="true">
              <Avatar userId={selfId} size={32} />
            </span>
            <UserName userId={selfId} className="sender" />
          </header>
        )}
        <div className="message-content">{item.params.content}</div>
        {item.failed ? (
          <div className="send-failed" role="alert">
            {t('feed.failed', { error: item.failed })} <button type="button" className="button" onClick={() => retrySend(item.localId)}>{t('feed.retry')}</button>{' '}
            <button type="button" className="button" onClick={() => discardSend(item.localId)}>{t('feed.discard')}</button>
          </div>
        ) : (
          <div className="sending">{t('feed.sending')}</div>
        )}
      </article>
    </>
  );
}
