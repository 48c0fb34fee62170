/** The bar above each conversation's messages: channel › topic, or the people of a direct message, each a link to narrow there. */
import { t } from '../i18n';
import { channelHash, dmHash } from '../narrow/hash';
import { useAppState } from '../state/store';
import { dmUserIds } from './quote';
import type { RecipientOf } from './rows';

export function RecipientBar({ message, selfId, highlight = false }: { message: RecipientOf; selfId: number; highlight?: boolean }) {
  const sub = useAppState((s) => (message.type === 'stream' ? s.reg?.subscriptions.find((x) => x.stream_id === message.stream_id) : undefined));
  const users = useAppState((s) => s.users);
  if (message.type === 'stream') {
    const name = sub?.name ?? String(message.display_recipient);
    const topic = message.subject;
    return (
      <div className="recipient-bar stream-bar" style={{ ['--channel-color' as string]: sub?.color ?? 'var(--border)' }}>
        <a className="recipient-channel" href={channelHash(message.stream_id!, name)}>
          <span className="channel-swatch" aria-hidden="true" />#{name}
        </a>
        <span className="recipient-sep" aria-hidden="true">›</span>
        <a className="recipient-topic" href={channelHash(message.stream_id!, name, topic)}>
          {highlight && typeof message.match_subject === 'string' && message.match_subject ? (
            // The server's escaped topic with the search's matches marked.
            <span dangerouslySetInnerHTML={{ __html: message.match_subject }} />
          ) : topic === '' ? (
            <em>{t('feed.general_chat')}</em>
          ) : (
            topic
          )}
        </a>
      </div>
    );
  }
  const ids = dmUserIds(message);
  const others = ids.filter((id) => id !== selfId);
  const nameOf = (id: number) => users.get(id)?.full_name ?? (Array.isArray(message.display_recipient) ? message.display_recipient.find((u) => u.id === id)?.full_name : undefined) ?? t('feed.unknown_user');
  const label = others.length ? t('feed.dm_with', { names: others.map(nameOf).join(', ') }) : t('feed.dm_self');
  return (
    <div className="recipient-bar dm-bar">
      <a className="recipient-dm" href={dmHash(others.length ? others : [selfId], others.length === 1 ? nameOf(others[0]!) : 'dm')}>{label}</a>
    </div>
  );
}
