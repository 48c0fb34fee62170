/**
 * The inbox: every conversation with unread messages, direct messages first, then each channel
 * (collapsible) with its topics, newest first; counts, mentions marked, a filter, and a button
 * per row and per channel that marks it as read.
 */
import { useMemo, useState } from 'react';
import { t } from '../i18n';
import { channelHash, channelSlug, dmHash } from '../narrow/hash';
import { useAppState, useReg } from '../state/store';
import { Avatar } from '../ui/Avatar';
import { UnreadCount } from '../ui/UnreadCount';
import { attempt, markMessagesRead, markNarrowRead } from '../sidebar/actions';
import { showSidebarError } from '../sidebar/errors';
import { channelSections, type ChannelFolder } from '../sidebar/model';
import { buildInbox, type InboxChannel } from './model';
import { usePersistent } from './prefs';
import '../styles/views.css';
import { ChannelIcon, Icon } from '../ui/Icon';
import { nameSlug } from '../ui/slug';

export function InboxView() {
  const reg = useReg();
  const users = useAppState((s) => s.users);
  const [filter, setFilter] = useState('');
  const [collapsed, setCollapsed] = usePersistent<Record<string, boolean>>('chat.inbox.collapsed', {});
  const nameOf = (id: number) => users.get(id)?.full_name ?? t('ui.unknown_user');
  const order = useMemo(() => channelSections(reg.subscriptions, reg.channel_folders as ChannelFolder[] | undefined).flatMap((s) => s.channels.map((c) => c.stream_id)), [reg.subscriptions, reg.channel_folders]);
  const muted = useMemo(() => new Set((reg.muted_users ?? []).map((m) => m.id)), [reg.muted_users]);
  const inbox = useMemo(() => buildInbox(reg, nameOf, order, filter, muted), [reg.unread_msgs, reg.user_topics, reg.subscriptions, users, order, filter, muted]);
  const toggle = (key: string) => setCollapsed({ ...collapsed, [key]: !collapsed[key] });
  const empty = !inbox.dms.length && !inbox.channels.length;
  const dmTotal = inbox.dms.reduce((n, d) => n + d.count, 0);
  return (
    <section className="view inbox-view" aria-labelledby="inbox-title" data-testid="inbox">
      <header className="view-header">
        <h1 id="inbox-title" className="view-title">{t('nav.inbox')}</h1>
        <input className="view-filter" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder={t('views.filter')} aria-label={t('views.filter_inbox')} />
      </header>
      {empty && <p className="view-empty">{filter ? t('views.inbox.no_match') : t('views.inbox.empty')}</p>}
      {inbox.dms.length > 0 && (
        <div className="inbox-folder">
          <FolderHeader label={t('nav.dms')} count={dmTotal} open={!collapsed.dms} onToggle={() => toggle('dms')} controls="inbox-dms" />
          {!collapsed.dms && (
            <ul className="inbox-rows" id="inbox-dms">
              {inbox.dms.map((d) => (
                <li key={d.key} className="inbox-row">
                  <a href={dmHash(d.userIds, nameSlug(nameOf(d.userIds[0]!)))} className="inbox-link">
                    {d.userIds.length === 1 ? <Avatar userId={d.userIds[0]!} size={20} presence /> : <span className="group-icon" aria-hidden="true">{d.userIds.length}</span>}
                    <span className="inbox-label">{d.label}</span>
                  </a>
                  <UnreadCount n={d.count} />
                  <MarkRead label={t('views.mark_read_conversation', { name: d.label })} run={() => markMessagesRead(d.ids)} />
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {inbox.channels.map((ch) => (
        <ChannelFolder key={ch.sub.stream_id} ch={ch} open={!collapsed[`c${ch.sub.stream_id}`]} onToggle={() => toggle(`c${ch.sub.stream_id}`)} />
      ))}
    </section>
  );
}

function FolderHeader({ label, icon, count, open, onToggle, controls, color, extra }: { label: string; icon?: React.ReactNode; count: number; open: boolean; onToggle: () => void; controls: string; color?: string; extra?: React.ReactNode }) {
  return (
    <div className="inbox-folder-header" style={color ? { borderLeftColor: color } : undefined}>
      <button type="button" className="section-toggle" aria-expanded={open} aria-controls={controls} onClick={onToggle}>
        <span className="chevron" aria-hidden="true">{open ? '▾' : '▸'}</span>
        {icon}
        <span className="section-title">{label}</span>
      </button>
      <UnreadCount n={count} />
      {extra}
    </div>
  );
}

function ChannelFolder({ ch, open, onToggle }: { ch: InboxChannel; open: boolean; onToggle: () => void }) {
  const id = `inbox-c${ch.sub.stream_id}`;
  const slug = channelSlug(ch.sub.stream_id, ch.sub.name);
  return (
    <div className="inbox-folder">
      <FolderHeader
        label={ch.sub.name}
        icon={<ChannelIcon sub={ch.sub} />}
        count={ch.count}
        open={open}
        onToggle={onToggle}
        controls={id}
        color={ch.sub.color}
        extra={
          <>
            {ch.mentions > 0 && <span className="mention-mark" role="img" aria-label={t('views.has_mentions')}>@</span>}
            <a className="link-button" href={channelHash(ch.sub.stream_id, ch.sub.name)}>{t('views.open_channel')}</a>
            <MarkRead label={t('views.mark_read_channel', { name: ch.sub.name })} run={() => markNarrowRead([{ operator: 'channel', operand: slug }])} />
          </>
        }
      />
      {open && (
        <ul className="inbox-rows" id={id}>
          {ch.topics.map((tp) => (
            <li key={tp.topic} className="inbox-row">
              <a href={channelHash(ch.sub.stream_id, ch.sub.name, tp.topic)} className="inbox-link">
                <span className="inbox-label">{tp.topic || t('nav.topics.general_chat')}</span>
              </a>
              {tp.followed && <span className="followed-mark" role="img" aria-label={t('nav.topic.followed')}><Icon name="followed" size={12} /></span>}
              {tp.mentions > 0 && <span className="mention-mark" role="img" aria-label={t('views.has_mentions')}>@</span>}
              <UnreadCount n={tp.count} />
              <MarkRead label={t('views.mark_read_conversation', { name: tp.topic })} run={() => markMessagesRead(tp.ids)} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function MarkRead({ label, run }: { label: string; run: () => Promise<unknown> }) {
  const [busy, setBusy] = useState(false);
  return (
    <button type="button" className="icon-button small mark-read" aria-label={label} title={label} disabled={busy} onClick={async () => { setBusy(true); await attempt(run, showSidebarError); setBusy(false); }}>
      <Icon name="check" />
    </button>
  );
}
