/**
 * Recent conversations: a table of the latest topics and direct-message conversations with
 * their participants, unread counts and last activity, filters (unread, participated, include
 * muted, channels or DMs, text), and per topic a control to mute or follow it.
 */
import { useMemo } from 'react';
import { t } from '../i18n';
import { channelHash, dmHash } from '../narrow/hash';
import { useAppState, useReg } from '../state/store';
import { Avatar } from '../ui/Avatar';
import { MenuButton, type MenuItem } from '../ui/Menu';
import { UnreadCount } from '../ui/UnreadCount';
import { UserName } from '../ui/UserName';
import { relativeTime, useNow, useTimeFormat } from '../ui/time';
import { attempt, markMessagesRead, setTopicPolicy } from '../sidebar/actions';
import { showSidebarError } from '../sidebar/errors';
import { POLICY } from '../sidebar/model';
import { buildRecent, DEFAULT_FILTERS, filterRecent, type RecentConversation, type RecentFilters } from './model';
import { usePersistent } from './prefs';
import { fetchRecent, useRecentFetch } from './recentData';
import '../styles/views.css';
import { ChannelIcon, Icon, type IconName } from '../ui/Icon';
import { nameSlug } from '../ui/slug';

const SHOWN_PARTICIPANTS = 4;

export function RecentView() {
  const reg = useReg();
  const messages = useAppState((s) => s.messages);
  const users = useAppState((s) => s.users);
  const fetch = useRecentFetch();
  const now = useNow();
  const fmt = useTimeFormat();
  const [filters, setFilters] = usePersistent<RecentFilters>('chat.recent.filters', DEFAULT_FILTERS);
  const muted = useMemo(() => new Set((reg.muted_users ?? []).map((m) => m.id)), [reg.muted_users]);
  const all = useMemo(() => buildRecent(reg, messages.values(), muted), [reg.unread_msgs, reg.subscriptions, reg.user_topics, messages, muted]);
  const subs = useMemo(() => new Map(reg.subscriptions.map((s) => [s.stream_id, s])), [reg.subscriptions]);
  const nameOf = (id: number) => users.get(id)?.full_name ?? t('ui.unknown_user');
  const describe = (c: RecentConversation) => (c.type === 'stream' ? `${subs.get(c.streamId!)?.name ?? ''} ${c.topic}` : (c.userIds!.length ? c.userIds! : [reg.user_id]).map(nameOf).join(' '));
  const rows = filterRecent(all, { ...filters, text: filters.text }, describe);
  const setFilter = (patch: Partial<RecentFilters>) => setFilters({ ...filters, ...patch });
  return (
    <section className="view recent-view" aria-labelledby="recent-title" data-testid="recent">
      <header className="view-header">
        <h1 id="recent-title" className="view-title">{t('nav.recent')}</h1>
        <input className="view-filter" type="search" value={filters.text} onChange={(e) => setFilter({ text: e.target.value })} placeholder={t('views.filter')} aria-label={t('views.filter_recent')} />
      </header>
      <div className="recent-filters" role="group" aria-label={t('views.filters')}>
        <FilterToggle label={t('views.recent.unread')} on={filters.unread} set={(v) => setFilter({ unread: v })} />
        <FilterToggle label={t('views.recent.participated')} on={filters.participated} set={(v) => setFilter({ participated: v })} />
        <FilterToggle label={t('views.recent.include_muted')} on={filters.includeMuted} set={(v) => setFilter({ includeMuted: v })} />
        <label className="recent-kind">
          <span className="visually-hidden">{t('views.recent.kind')}</span>
          <select value={filters.kind} onChange={(e) => setFilter({ kind: e.target.value as RecentFilters['kind'] })}>
            <option value="all">{t('views.recent.kind_all')}</option>
            <option value="channels">{t('views.recent.kind_channels')}</option>
            <option value="dms">{t('views.recent.kind_dms')}</option>
          </select>
        </label>
      </div>
      {fetch.error && <p role="alert" className="view-empty">{t('misc.error', { error: fetch.error })}</p>}
      <div className="recent-table-wrap">
        <table className="recent-table">
          <thead>
            <tr>
              <th scope="col">{t('views.recent.col_channel')}</th>
              <th scope="col">{t('views.recent.col_topic')}</th>
              <th scope="col" className="col-unread">{t('views.recent.col_unread')}</th>
              <th scope="col" className="col-participants">{t('views.recent.col_participants')}</th>
              <th scope="col" className="col-time">{t('views.recent.col_time')}</th>
              <th scope="col" className="col-actions"><span className="visually-hidden">{t('views.recent.col_actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => {
              const sub = c.streamId !== undefined ? subs.get(c.streamId) : undefined;
              const dmIds = c.userIds && (c.userIds.length ? c.userIds : [reg.user_id]);
              const href = c.type === 'stream' ? channelHash(c.streamId!, sub?.name ?? '', c.topic) : dmHash(dmIds!, nameSlug(nameOf(dmIds![0]!)));
              const extra = c.participants.length - SHOWN_PARTICIPANTS;
              return (
                <tr key={c.key} className={`${c.muted ? 'muted' : ''}${c.unread ? ' has-unread' : ''}`}>
                  <td className="col-channel">
                    {sub ? (
                      <a href={channelHash(sub.stream_id, sub.name)} className="recent-channel">
                        <ChannelIcon sub={sub} />
                        {sub.name}
                      </a>
                    ) : (
                      <span className="recent-channel">{t('nav.dms')}</span>
                    )}
                  </td>
                  <td className="col-topic">
                    <a href={href}>{c.type === 'stream' ? c.topic || t('nav.topics.general_chat') : dmIds!.map(nameOf).join(', ')}</a>
                  </td>
                  <td className="col-unread">
                    {c.unread > 0 && (
                      <button type="button" className="unread-button" onClick={() => void attempt(() => markMessagesRead(c.unreadIds), showSidebarError)} aria-label={t('views.recent.mark_read', { count: c.unread })} title={t('views.recent.mark_read', { count: c.unread })}>
                        <UnreadCount n={c.unread} muted={c.muted} />
                      </button>
                    )}
                  </td>
                  <td className="col-participants">
                    <span className="participants">
                      {c.participants.slice(0, SHOWN_PARTICIPANTS).map((id) => (
                        <UserName key={id} userId={id} label>
                          <Avatar userId={id} size={22} />
                        </UserName>
                      ))}
                      {extra > 0 && <span className="participants-more" aria-label={t('views.recent.more_participants', { count: extra })}>+{extra}</span>}
                    </span>
                  </td>
                  <td className="col-time">{c.timestamp ? <time dateTime={new Date(c.timestamp * 1000).toISOString()} title={fmt.full(c.timestamp)}>{relativeTime(c.timestamp, now)}</time> : ''}</td>
                  <td className="col-actions">{c.type === 'stream' && sub && <TopicVisibility streamId={sub.stream_id} topic={c.topic!} policy={c.policy} channelMuted={sub.is_muted} />}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {!rows.length && !fetch.loading && <p className="view-empty">{t('views.recent.empty')}</p>}
        {fetch.loading && <p className="view-empty" role="status">{t('views.loading')}</p>}
        {!fetch.loading && !fetch.foundOldest && fetch.oldestId !== null && (
          <button type="button" className="button load-more" onClick={() => void fetchRecent(true)}>{t('views.recent.load_more')}</button>
        )}
      </div>
    </section>
  );
}

function FilterToggle({ label, on, set }: { label: string; on: boolean; set: (v: boolean) => void }) {
  return (
    <button type="button" className={`filter-toggle${on ? ' on' : ''}`} aria-pressed={on} onClick={() => set(!on)}>
      {on && <Icon name="check" size={12} />}
      {label}
    </button>
  );
}

const POLICY_ICONS: Record<number, IconName> = { [POLICY.inherit]: 'bell', [POLICY.muted]: 'muted', [POLICY.unmuted]: 'bell', [POLICY.followed]: 'followed' };

function TopicVisibility({ streamId, topic, policy, channelMuted }: { streamId: number; topic: string; policy: number; channelMuted: boolean }) {
  const set = (p: number) => void attempt(() => setTopicPolicy(streamId, topic, p), showSidebarError);
  const items: MenuItem[] = [
    { label: t('nav.topic.policy.follow'), checked: policy === POLICY.followed, onSelect: () => set(POLICY.followed) },
    channelMuted
      ? { label: t('nav.topic.policy.unmute'), checked: policy === POLICY.unmuted, onSelect: () => set(POLICY.unmuted) }
      : { label: t('nav.topic.policy.inherit'), checked: policy === POLICY.inherit, onSelect: () => set(POLICY.inherit) },
    { label: t('nav.topic.policy.mute'), checked: policy === POLICY.muted || (channelMuted && policy === POLICY.inherit), onSelect: () => set(POLICY.muted) },
  ];
  return (
    <MenuButton label={t('views.recent.visibility', { topic })} items={items} align="end" className="visibility-menu">
      <Icon name={POLICY_ICONS[policy] ?? 'bell'} />
    </MenuButton>
  );
}
