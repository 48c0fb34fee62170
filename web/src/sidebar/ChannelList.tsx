/**
 * The channels: a filter, then sections (pinned, folders, the rest), muted channels dimmed at
 * the end of each, unread counts that leave muted topics out, and the open channel expanded
 * with its topics.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Subscription } from '@chat/client';
import { t } from '../i18n';
import { channelHash } from '../narrow/hash';
import { useReg } from '../state/store';
import { UnreadCount } from '../ui/UnreadCount';
import { ChannelMenu } from './ChannelMenu';
import { channelSections, unreadByChannel, type ChannelFolder, type ChannelSection, type ChannelUnread } from './model';
import { TopicList } from './TopicList';
import { ChannelIcon, Icon } from '../ui/Icon';

let opener: (() => void) | null = null;

/** Opens and focuses the channel filter (the `q` shortcut). */
export function openChannelFilter(): boolean {
  if (!opener) return false;
  opener();
  return true;
}

export function ChannelList({ current }: { current: { streamId?: number; topic?: string } }) {
  const reg = useReg();
  const [filter, setFilter] = useState('');
  const [filterOpen, setFilterOpen] = useState(false);
  const filterInput = useRef<HTMLInputElement>(null);
  const [collapsed, setCollapsed] = useState<Record<string, boolean>>({});
  useEffect(() => {
    opener = () => {
      setFilterOpen(true);
      // Already open: focus it again (a fresh one focuses itself).
      filterInput.current?.focus();
    };
    return () => {
      opener = null;
    };
  }, []);
  const unread = useMemo(() => unreadByChannel(reg), [reg.unread_msgs, reg.user_topics, reg.subscriptions]);
  const sections = useMemo(() => channelSections(reg.subscriptions, reg.channel_folders as ChannelFolder[] | undefined, filter), [reg.subscriptions, reg.channel_folders, filter]);
  return (
    <section className="sidebar-section" aria-labelledby="channels-heading">
      <div className="sidebar-section-header">
        <h2 id="channels-heading" className="sidebar-heading">{t('nav.channels')}</h2>
        <button type="button" className="icon-button small" aria-label={t('nav.channels.filter')} aria-expanded={filterOpen} onClick={() => { setFilterOpen(!filterOpen); setFilter(''); }}>
          <Icon name="search" size={14} />
        </button>
      </div>
      {filterOpen && (
        <input ref={filterInput} className="sidebar-filter" type="search" autoFocus value={filter} onChange={(e) => setFilter(e.target.value)} onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            e.preventDefault();
            setFilterOpen(false);
            setFilter('');
          }} placeholder={t('nav.channels.filter')} aria-label={t('nav.channels.filter')} />
      )}
      {sections.map((section) => (
        <Section key={section.key} section={section} onlyOne={sections.length === 1} collapsed={!filter && !!collapsed[section.key]} onToggle={() => setCollapsed((c) => ({ ...c, [section.key]: !c[section.key] }))} unread={unread} current={current} />
      ))}
      {!sections.length && <p className="topic-empty">{filter ? t('nav.channels.no_match') : t('nav.channels.none')}</p>}
    </section>
  );
}

function sectionTitle(s: ChannelSection): string {
  if (s.title === 'pinned') return t('nav.channels.pinned');
  if (s.title === 'folder') return s.folderName ?? '';
  if (s.title === 'other') return t('nav.channels.other');
  return t('nav.channels');
}

function Section({ section, onlyOne, collapsed, onToggle, unread, current }: { section: ChannelSection; onlyOne: boolean; collapsed: boolean; onToggle: () => void; unread: Map<number, ChannelUnread>; current: { streamId?: number; topic?: string } }) {
  const total = section.channels.reduce((n, s) => n + (unread.get(s.stream_id)?.count ?? 0), 0);
  const listId = `channels-${section.key}`;
  return (
    <div className="channel-section">
      {!onlyOne && (
        <button type="button" className="section-toggle" aria-expanded={!collapsed} aria-controls={listId} onClick={onToggle}>
          <span className="chevron" aria-hidden="true">{collapsed ? '▸' : '▾'}</span>
          <span className="section-title">{sectionTitle(section)}</span>
          {collapsed && <UnreadCount n={total} />}
        </button>
      )}
      {!collapsed && (
        <ul className="sidebar-list channel-list" id={listId} data-testid="channel-list">
          {section.channels.map((sub) => (
            <ChannelRow key={sub.stream_id} sub={sub} unread={unread.get(sub.stream_id)} current={current} />
          ))}
        </ul>
      )}
    </div>
  );
}

function ChannelRow({ sub, unread, current }: { sub: Subscription; unread: ChannelUnread | undefined; current: { streamId?: number; topic?: string } }) {
  const active = current.streamId === sub.stream_id;
  const count = unread?.count ?? 0;
  return (
    <li className={`channel-item${sub.is_muted ? ' muted' : ''}${active ? ' active' : ''}`}>
      <div className="channel-row">
        <a href={channelHash(sub.stream_id, sub.name)} aria-current={active && current.topic === undefined ? 'page' : undefined} data-channel-id={sub.stream_id} title={sub.invite_only ? t('nav.channel.private') : undefined}>
          <ChannelIcon sub={sub} />
          <span className="channel-name">{sub.name}</span>
        </a>
        <UnreadCount n={count || (unread?.mutedCount ?? 0)} muted={!count} />
        <ChannelMenu sub={sub} />
      </div>
      {active && <TopicList sub={sub} unread={unread} currentTopic={current.topic} />}
    </li>
  );
}
