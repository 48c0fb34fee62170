/**
 * The right sidebar: people with their presence (active, idle, offline, in that order) and
 * status, filterable by name; when a channel is open, its subscribers come first, as in the
 * family's buddy list. Each name opens the person's card.
 */
import { useDeferredValue, useMemo, useState } from 'react';
import { t } from '../i18n';
import { leadingId, type View } from '../narrow/hash';
import { useAppState, useReg, type AppState } from '../state/store';
import { Avatar } from '../ui/Avatar';
import { UserName } from '../ui/UserName';
import { useNow } from '../ui/time';
import { buddyOrder, type PresenceStatus } from './presence';
import { statusFor } from './hooks';
import '../styles/people.css';

const PAGE = 200;
const NO_USERS: AppState['users'] = new Map();

interface Row {
  id: number;
  name: string;
  status: PresenceStatus;
}

export function BuddyList({ view, id }: { view: View; id?: string }) {
  const reg = useReg();
  // The list (up to PAGE rows with avatars) is drawn in a render of its own after the first
  // one, so the first frame after login shows the messages without waiting for it.
  const users = useDeferredValue(useAppState((s) => s.users), NO_USERS);
  const now = useNow();
  const [filter, setFilter] = useState('');
  const [limit, setLimit] = useState(PAGE);
  const channelId = view.kind === 'narrow' ? leadingId(view.terms.find((x) => x.operator === 'channel')?.operand ?? '') : NaN;
  const subscribers = reg.subscriptions.find((s) => s.stream_id === channelId)?.subscribers;
  const rows = useMemo(() => {
    const q = filter.trim().toLowerCase();
    const out: Row[] = [];
    for (const u of users.values()) {
      if (u.is_bot || !u.is_active) continue;
      if (q && !u.full_name.toLowerCase().includes(q) && !u.email.toLowerCase().includes(q)) continue;
      out.push({ id: u.user_id, name: u.full_name, status: statusFor(reg, u, now) ?? 'offline' });
    }
    return out.sort(buddyOrder);
  }, [users, reg.presences, reg.user_status, reg.user_settings, filter, now]);
  const inChannel = subscribers ? new Set(subscribers) : null;
  const first = inChannel ? rows.filter((r) => inChannel.has(r.id)) : rows;
  const rest = inChannel ? rows.filter((r) => !inChannel.has(r.id)) : [];
  const shownFirst = first.slice(0, limit);
  const shownRest = rest.slice(0, Math.max(0, limit - shownFirst.length));
  const hidden = first.length + rest.length - shownFirst.length - shownRest.length;
  return (
    <aside className="right-sidebar" id={id} aria-label={t('people.sidebar')}>
      <div className="buddy-header">
        <h2 className="sidebar-heading">{t('people.heading')}</h2>
      </div>
      <input className="sidebar-filter" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder={t('people.filter')} aria-label={t('people.filter')} data-testid="buddy-filter" />
      {inChannel && <h3 className="buddy-section">{t('people.in_channel')}</h3>}
      <BuddyRows rows={shownFirst} />
      {inChannel && shownRest.length > 0 && <h3 className="buddy-section">{t('people.others')}</h3>}
      {shownRest.length > 0 && <BuddyRows rows={shownRest} />}
      {hidden > 0 && (
        <button type="button" className="link-button more-topics" onClick={() => setLimit(limit + PAGE)}>{t('people.more', { count: hidden })}</button>
      )}
      {!rows.length && <p className="topic-empty">{t('people.none')}</p>}
    </aside>
  );
}

function BuddyRows({ rows }: { rows: Row[] }) {
  return (
    <ul className="buddy-list" data-testid="buddy-list">
      {rows.map((r) => (
        <li key={r.id} className={`buddy-row presence-row-${r.status}`}>
          <UserName userId={r.id} className="buddy-name" showStatus>
            <Avatar userId={r.id} size={24} presence />
            <span className="buddy-name-text">{r.name}</span>
          </UserName>
        </li>
      ))}
    </ul>
  );
}
