/** One message: sender and time unless grouped with the one before, the server's HTML, reactions. */
import type { Message } from '@chat/client';
import { t } from '../i18n';
import { discardSend, retrySend } from '../state/actions';
import { useAppState, type OutboxItem } from '../state/store';

function time(ts: number): string {
  return new Date(ts * 1000).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

export function MessageRow({ row }: { row: { message: Message; grouped: boolean; dateLabel?: string } }) {
  const m = row.message;
  const unread = !m.flags.includes('read');
  return (
    <>
      {row.dateLabel && <div className="date-separator" role="separator">{row.dateLabel}</div>}
      {!row.grouped && m.type === 'stream' && <div className="recipient-bar">#{String(m.display_recipient)} › {m.subject}</div>}
      <article className={`message${row.grouped ? ' grouped' : ''}${unread ? ' unread' : ''}`} data-message-id={m.id} aria-label={`${m.sender_full_name}, ${time(m.timestamp)}`}>
        {!row.grouped && (
          <header className="message-header">
            {m.avatar_url && <img className="avatar" src={m.avatar_url} alt="" width={32} height={32} loading="lazy" />}
            <span className="sender">{m.sender_full_name}</span>
            <time dateTime={new Date(m.timestamp * 1000).toISOString()}>{time(m.timestamp)}</time>
          </header>
        )}
        <div className="message-content rendered_markdown" dangerouslySetInnerHTML={{ __html: m.content }} />
        {m.reactions.length > 0 && <Reactions message={m} />}
      </article>
    </>
  );
}

function Reactions({ message }: { message: Message }) {
  const selfId = useAppState((s) => s.reg!.user_id);
  const groups = new Map<string, { name: string; code: string; type: string; users: number[] }>();
  for (const r of message.reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    const g = groups.get(key) ?? { name: r.emoji_name, code: r.emoji_code, type: r.reaction_type, users: [] };
    g.users.push(r.user_id);
    groups.set(key, g);
  }
  return (
    <div className="reactions">
      {[...groups.values()].map((g) => (
        <span key={`${g.type}:${g.code}`} className={`reaction${g.users.includes(selfId) ? ' mine' : ''}`} title={`:${g.name}:`}>
          {g.type === 'unicode_emoji' ? String.fromCodePoint(...g.code.split('-').map((c) => parseInt(c, 16))) : `:${g.name}:`} {g.users.length}
        </span>
      ))}
    </div>
  );
}

export function PendingRow({ item }: { item: OutboxItem }) {
  return (
    <article className="message pending" data-local-id={item.localId} aria-busy={!item.failed}>
      <div className="message-content">{item.params.content}</div>
      {item.failed ? (
        <div className="send-failed" role="alert">
          {t('feed.failed', { error: item.failed })} <button onClick={() => retrySend(item.localId)}>{t('feed.retry')}</button>{' '}
          <button onClick={() => discardSend(item.localId)}>{t('feed.discard')}</button>
        </div>
      ) : (
        <div className="sending">{t('feed.sending')}</div>
      )}
    </article>
  );
}
