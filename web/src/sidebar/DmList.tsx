/** Direct-message conversations: the most recent few with unread counts and presence dots, and "more conversations". */
import { useMemo, useState } from 'react';
import { t } from '../i18n';
import { dmHash } from '../narrow/hash';
import { openCompose } from '../compose/state';
import { useAppState, useReg } from '../state/store';
import { Avatar } from '../ui/Avatar';
import { Icon } from '../ui/Icon';
import { UnreadCount } from '../ui/UnreadCount';
import { dmConversations } from './model';
import { nameSlug } from '../ui/slug';

const SHOWN = 8;

export function DmList({ currentKey }: { currentKey: string | undefined }) {
  const reg = useReg();
  const users = useAppState((s) => s.users);
  const [showAll, setShowAll] = useState(false);
  const muted = useMemo(() => new Set((reg.muted_users ?? []).map((m) => m.id)), [reg.muted_users]);
  const conversations = useMemo(() => dmConversations(reg, muted), [reg.recent_private_conversations, reg.unread_msgs, reg.user_id, muted]);
  const shown = showAll ? conversations : conversations.filter((c, i) => i < SHOWN || c.unread > 0 || c.key === currentKey);
  const nameOf = (id: number) => users.get(id)?.full_name ?? t('ui.unknown_user');
  return (
    <section className="sidebar-section" aria-labelledby="dms-heading">
      <div className="sidebar-section-header">
        <h2 id="dms-heading" className="sidebar-heading">
          <a href="#narrow/is/dm" className="heading-link">{t('nav.dms')}</a>
        </h2>
        <button type="button" className="icon-button small" aria-label={t('compose.new_dm')} onClick={() => openCompose({ type: 'direct', to: [] })}>
          <Icon name="plus" size={14} />
        </button>
      </div>
      <ul className="sidebar-list dm-list" data-testid="dm-list">
        {shown.map((c) => {
          const self = c.userIds.length === 0;
          const ids = self ? [reg.user_id] : c.userIds;
          const label = self ? `${nameOf(reg.user_id)} (${t('misc.you')})` : ids.map(nameOf).join(', ');
          const active = c.key === currentKey;
          return (
            <li key={c.key} className={`dm-row${active ? ' active' : ''}`}>
              <a href={dmHash(ids, nameSlug(nameOf(ids[0]!)))} aria-current={active ? 'page' : undefined}>
                {ids.length === 1 ? <Avatar userId={ids[0]!} size={20} presence /> : <span className="group-icon" aria-hidden="true">{ids.length}</span>}
                <span className="dm-name">{label}</span>
              </a>
              <UnreadCount n={c.unread} />
            </li>
          );
        })}
      </ul>
      {conversations.length > SHOWN && (
        <button type="button" className="link-button more-topics" aria-expanded={showAll} onClick={() => setShowAll(!showAll)}>
          {showAll ? t('nav.dms.fewer') : t('nav.dms.more')}
        </button>
      )}
      {!conversations.length && <p className="topic-empty">{t('nav.dms.none')}</p>}
    </section>
  );
}
