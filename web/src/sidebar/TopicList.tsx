/** The open channel's topics: recent ones with unread counts, muted ones dimmed, followed ones marked, and "more topics". */
import { useMemo, useState } from 'react';
import type { Subscription } from '@chat/client';
import { t } from '../i18n';
import { channelHash } from '../narrow/hash';
import { useReg } from '../state/store';
import { UnreadCount } from '../ui/UnreadCount';
import { TopicMenu } from './ChannelMenu';
import { isConversationMuted, POLICY, topicPolicy, type ChannelUnread } from './model';
import { useChannelTopics, visibleTopics } from './topics';
import { Icon } from '../ui/Icon';

export function TopicList({ sub, unread, currentTopic }: { sub: Subscription; unread: ChannelUnread | undefined; currentTopic: string | undefined }) {
  const reg = useReg();
  const entry = useChannelTopics(sub.stream_id);
  const [showAll, setShowAll] = useState(false);
  const [filter, setFilter] = useState('');
  const unreadByTopic = useMemo(() => new Map((unread?.topics ?? []).map((x) => [x.topic.toLowerCase(), x.count])), [unread]);
  const all = useMemo(() => {
    const names = (entry?.topics ?? []).map((x) => x.name);
    // Topics with unread messages the list has not caught up with yet still show.
    const known = new Set(names.map((n) => n.toLowerCase()));
    for (const x of unread?.topics ?? []) if (!known.has(x.topic.toLowerCase())) names.push(x.topic);
    return names;
  }, [entry, unread]);
  const filtered = showAll && filter ? all.filter((n) => n.toLowerCase().includes(filter.toLowerCase())) : all;
  const { shown, more } = visibleTopics(filtered, unreadByTopic, currentTopic, showAll);
  if (!all.length && entry?.complete) return <p className="topic-empty">{t('nav.topics.none')}</p>;
  return (
    <div className="topic-list-wrap">
      {showAll && (
        <input className="sidebar-filter topic-filter" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder={t('nav.topics.filter')} aria-label={t('nav.topics.filter')} />
      )}
      <ul className="topic-list" aria-label={t('nav.topics.of', { name: sub.name })}>
        {shown.map((name) => {
          const policy = topicPolicy(reg.user_topics, sub.stream_id, name);
          const muted = isConversationMuted(sub.is_muted, policy);
          const isCurrent = currentTopic !== undefined && currentTopic.toLowerCase() === name.toLowerCase();
          return (
            <li key={name} className={`topic-row${muted ? ' muted' : ''}${isCurrent ? ' active' : ''}`}>
              <a href={channelHash(sub.stream_id, sub.name, name)} aria-current={isCurrent ? 'page' : undefined}>
                {name || <em>{String(reg.realm_empty_topic_display_name ?? t('nav.topics.general_chat'))}</em>}
              </a>
              {policy === POLICY.followed && <span className="followed-mark" role="img" aria-label={t('nav.topic.followed')} title={t('nav.topic.followed')}><Icon name="followed" size={12} /></span>}
              <UnreadCount n={unreadByTopic.get(name.toLowerCase()) ?? 0} muted={muted} />
              <TopicMenu streamId={sub.stream_id} channelName={sub.name} topic={name} policy={policy} channelMuted={sub.is_muted} />
            </li>
          );
        })}
      </ul>
      {(more > 0 || showAll) && (
        <button type="button" className="link-button more-topics" aria-expanded={showAll} onClick={() => { setShowAll(!showAll); setFilter(''); }}>
          {showAll ? t('nav.topics.fewer') : t('nav.topics.more', { count: more })}
        </button>
      )}
      {!entry?.complete && entry?.loading && <p className="topic-empty" role="status">{t('nav.topics.loading')}</p>}
    </div>
  );
}
