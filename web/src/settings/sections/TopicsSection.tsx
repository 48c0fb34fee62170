/**
 * Topics the person has muted, followed or unmuted (register's user_topics), each with its
 * setting as a choice; a change is POST /user_topics and shows once the user_topic event arrives.
 */
import { useMemo, useState } from 'react';
import type { UserTopic } from '@chat/client';
import { t, type StringKey } from '../../i18n';
import { useAppState, useReg } from '../../state/store';
import { SaveState, SettingsSection, useSave } from '../controls';
import { setTopicPolicy } from '../lib/calls';

const NONE: UserTopic[] = [];
const POLICIES = [0, 1, 2, 3] as const;

function useChannelNames(): Map<number, string> {
  const reg = useReg();
  return useMemo(() => {
    const names = new Map<number, string>();
    for (const list of [reg.never_subscribed ?? [], reg.streams ?? [], reg.unsubscribed ?? [], reg.subscriptions]) for (const s of list) names.set(s.stream_id, s.name);
    return names;
  }, [reg.never_subscribed, reg.streams, reg.unsubscribed, reg.subscriptions]);
}

export function TopicsSection() {
  const topics = useAppState((s) => s.reg?.user_topics ?? NONE);
  const names = useChannelNames();
  const [filter, setFilter] = useState('');
  const shown = topics
    .filter((x) => x.visibility_policy !== 0)
    .filter((x) => {
      const q = filter.trim().toLowerCase();
      return !q || x.topic_name.toLowerCase().includes(q) || (names.get(x.stream_id) ?? '').toLowerCase().includes(q);
    })
    .sort((a, b) => b.last_updated - a.last_updated);
  return (
    <SettingsSection title={t('settings.nav.topics')} description={t('settings.topics.about')} testId="settings-topics">
      <div className="settings-actions">
        <input type="search" aria-label={t('settings.topics.filter')} placeholder={t('settings.topics.filter')} value={filter} onChange={(e) => setFilter(e.target.value)} />
      </div>
      {shown.length === 0 ? (
        <p className="settings-note">{t('settings.topics.none')}</p>
      ) : (
        <div className="settings-table-wrap">
          <table className="settings-table">
            <thead>
              <tr>
                <th scope="col">{t('settings.topics.col.channel')}</th>
                <th scope="col">{t('settings.topics.col.topic')}</th>
                <th scope="col">{t('settings.topics.col.policy')}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((x) => <TopicRow key={`${x.stream_id}:${x.topic_name}`} topic={x} channel={names.get(x.stream_id) ?? t('settings.topics.unknown_channel')} />)}
            </tbody>
          </table>
        </div>
      )}
    </SettingsSection>
  );
}

function TopicRow({ topic, channel }: { topic: UserTopic; channel: string }) {
  const current = useAppState((s) => (s.reg?.user_topics ?? NONE).find((x) => x.stream_id === topic.stream_id && x.topic_name === topic.topic_name)?.visibility_policy ?? 0);
  const save = useSave<number>(current);
  const id = `topic-${topic.stream_id}-${encodeURIComponent(topic.topic_name)}`;
  const name = topic.topic_name === '' ? t('settings.topics.general_chat') : topic.topic_name;
  return (
    <tr>
      <td>#{channel}</td>
      <td>{name}</td>
      <td>
        <select
          value={save.value}
          aria-label={t('settings.topics.policy_label', { topic: name, channel })}
          aria-describedby={`${id}-state`}
          onChange={(e) => {
            const policy = Number(e.target.value);
            save.save(() => setTopicPolicy(topic.stream_id, topic.topic_name, policy), policy);
          }}
        >
          {POLICIES.map((p) => <option key={p} value={p}>{t(`settings.topics.policy.${p}` as StringKey)}</option>)}
        </select>{' '}
        <SaveState id={`${id}-state`} status={save.status} />
      </td>
    </tr>
  );
}
