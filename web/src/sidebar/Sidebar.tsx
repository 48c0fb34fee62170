/**
 * The left sidebar: the views (with their counts), the desktop-notifications offer, the
 * channels (the open one expanded with its topics) and the direct-message conversations.
 * On a phone it is a drawer the header's menu button opens.
 */
import { useMemo } from 'react';
import { t } from '../i18n';
import { leadingId, leadingIds, type View } from '../narrow/hash';
import { NotificationsBanner } from '../notifications/Banner';
import { useReg } from '../state/store';
import { UnreadCount } from '../ui/UnreadCount';
import { ChannelList } from './ChannelList';
import { DmList } from './DmList';
import { viewCounts } from './model';
import '../styles/nav.css';
import { Icon, type IconName } from '../ui/Icon';

export interface Location {
  streamId?: number;
  topic?: string;
  dmKey?: string;
}

/** Where the view is, for highlighting the sidebar: a channel (and topic) or a DM conversation. */
export function locationOf(view: View, selfId: number): Location {
  if (view.kind !== 'narrow') return {};
  const channel = view.terms.find((x) => x.operator === 'channel' && !x.negated);
  const topic = view.terms.find((x) => x.operator === 'topic' && !x.negated);
  const dm = view.terms.find((x) => x.operator === 'dm' && !x.negated);
  const id = channel ? leadingId(channel.operand) : NaN;
  return {
    ...(Number.isNaN(id) ? {} : { streamId: id, ...(topic ? { topic: topic.operand } : {}) }),
    ...(dm ? { dmKey: leadingIds(dm.operand).filter((x) => x !== selfId).sort((a, b) => a - b).join(',') } : {}),
  };
}

/** Counts of things kept, not of unread messages: shown plainly. */
const PLAIN_COUNTS = new Set(['#narrow/is/starred', '#drafts', '#scheduled']);

function isViewCurrent(view: View, href: string): boolean {
  if (view.kind === 'narrow') return href === `#narrow/is/${view.terms.length === 1 && view.terms[0]!.operator === 'is' ? view.terms[0]!.operand : ''}`;
  return href === `#${view.kind}`;
}

export function Sidebar({ view, id }: { view: View; id?: string }) {
  const reg = useReg();
  const counts = useMemo(() => viewCounts(reg), [reg.unread_msgs, reg.user_topics, reg.subscriptions, reg.starred_messages, reg.drafts, reg.scheduled_messages]);
  const where = locationOf(view, reg.user_id);
  const views: Array<{ href: string; label: string; icon: IconName; count?: number; mention?: boolean }> = [
    { href: '#inbox', label: t('nav.inbox'), icon: 'inbox', count: counts.unread },
    { href: '#recent', label: t('nav.recent'), icon: 'recent' },
    { href: '#feed', label: t('nav.feed'), icon: 'feed', count: counts.unread },
    { href: '#narrow/is/mentioned', label: t('nav.mentions'), icon: 'at', count: counts.mentions, mention: true },
    { href: '#narrow/is/starred', label: t('nav.starred'), icon: 'star', count: reg.user_settings?.starred_message_counts === false ? 0 : counts.starred },
    { href: '#drafts', label: t('nav.drafts'), icon: 'draft', count: counts.drafts },
    { href: '#scheduled', label: t('nav.scheduled'), icon: 'scheduled', count: counts.scheduled },
  ];
  return (
    <nav className="sidebar left-sidebar" id={id} aria-label={t('nav.main')}>
      <h2 className="visually-hidden">{t('nav.views')}</h2>
      <ul className="sidebar-list views-list">
        {views.map((v) => (
          <li key={v.href} className={isViewCurrent(view, v.href) ? 'active' : undefined}>
            <a href={v.href} aria-current={isViewCurrent(view, v.href) ? 'page' : undefined}>
              <span className="view-icon"><Icon name={v.icon} /></span>
              {v.label}
            </a>
            {PLAIN_COUNTS.has(v.href) ? !!v.count && <span className="plain-count" aria-label={t('nav.count', { count: v.count })}>{v.count}</span> : <UnreadCount n={v.count ?? 0} mention={v.mention} />}
          </li>
        ))}
      </ul>
      <NotificationsBanner />
      <ChannelList current={where} />
      <DmList currentKey={where.dmKey} />
    </nav>
  );
}
