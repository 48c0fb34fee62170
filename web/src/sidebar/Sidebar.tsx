/** The left sidebar: views, channels with unread counts and their topics, direct-message conversations. */
import { t } from '../i18n';
import { channelHash, dmHash, leadingId, type View } from '../narrow/hash';
import { useAppState, useReg } from '../state/store';
import { channelUnread } from '../state/unread';

function currentChannel(view: View): number | undefined {
  if (view.kind !== 'narrow') return undefined;
  const term = view.terms.find((x) => x.operator === 'channel');
  return term ? leadingId(term.operand) : undefined;
}

export function Sidebar({ view }: { view: View }) {
  const reg = useReg();
  const users = useAppState((s) => s.users);
  const unread = reg.unread_msgs;
  const active = currentChannel(view);
  const subs = [...reg.subscriptions].filter((s) => !s.is_archived).sort((a, b) => Number(b.pin_to_top) - Number(a.pin_to_top) || a.name.localeCompare(b.name));
  const dms = (reg.recent_private_conversations ?? []).slice(0, 20);
  const mentionCount = unread.mentions.length;
  return (
    <nav className="sidebar" aria-label={t('nav.main')}>
      <h2 className="sidebar-heading">{t('nav.views')}</h2>
      <ul className="sidebar-list">
        <li><a href="#inbox">{t('nav.inbox')}</a></li>
        <li><a href="#recent">{t('nav.recent')}</a></li>
        <li><a href="#feed">{t('nav.feed')}</a></li>
        <li><a href="#narrow/is/mentioned">{t('nav.mentions')}</a>{mentionCount > 0 && <Count n={mentionCount} />}</li>
        <li><a href="#narrow/is/starred">{t('nav.starred')}</a></li>
        <li><a href="#drafts">{t('nav.drafts')}</a></li>
        <li><a href="#scheduled">{t('nav.scheduled')}</a></li>
      </ul>
      <h2 className="sidebar-heading">{t('nav.channels')}</h2>
      <ul className="sidebar-list" data-testid="channel-list">
        {subs.map((sub) => {
          const n = channelUnread(unread, sub.stream_id);
          return (
            <li key={sub.stream_id} className={sub.is_muted ? 'muted' : undefined}>
              <a href={channelHash(sub.stream_id, sub.name)} aria-current={active === sub.stream_id ? 'page' : undefined}>
                <span className="channel-swatch" style={{ background: sub.color }} aria-hidden="true" />
                {sub.invite_only ? '🔒 ' : '# '}
                {sub.name}
              </a>
              {n > 0 && <Count n={n} />}
            </li>
          );
        })}
      </ul>
      <h2 className="sidebar-heading">{t('nav.dms')}</h2>
      <ul className="sidebar-list">
        {dms.map((c) => {
          const others = c.user_ids.length ? c.user_ids : [reg.user_id];
          const label = others.map((id) => users.get(id)?.full_name ?? `#${id}`).join(', ');
          return (
            <li key={others.join(',')}>
              <a href={dmHash(others, label.split(',')[0]!.replace(/\s+/g, '-'))}>{label}</a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function Count({ n }: { n: number }) {
  return (
    <span className="unread-count" aria-label={t('nav.unread', { count: n })}>
      {n}
    </span>
  );
}
