/**
 * The compose box's recipient row: a channel picker and a topic field (with the channel's
 * topics as suggestions), or the people of a direct message as pills with a typeahead over
 * the organisation's people, bots included, by name and email.
 */
import { useMemo, useState, type KeyboardEvent } from 'react';
import { t } from '../i18n';
import { useAppState, useReg } from '../state/store';
import { SuggestionRow, useChannels, usePeople } from './context';
import { Listbox, useListbox } from './Listbox';
import { useTopics } from './topics';
import { channelSuggestions, matchRank, peopleSuggestions, type Suggestion } from './typeahead';

export function ChannelPicker({ streamId, onChange, inputRef }: { streamId: number; onChange: (id: number) => void; inputRef?: React.Ref<HTMLInputElement> }) {
  const channels = useChannels();
  const current = channels.find((c) => c.stream_id === streamId);
  const [query, setQuery] = useState<string | null>(null);
  const [focused, setFocused] = useState(false);
  const shown = query ?? current?.name ?? '';
  // An untouched field lists every channel; typing filters.
  const items = useMemo(() => (focused ? channelSuggestions(query ?? '', channels, 50) : []), [focused, query, channels]);
  const choose = (item: Suggestion) => {
    if (item.kind !== 'channel') return;
    setQuery(null);
    onChange(item.channel.stream_id);
  };
  const listbox = useListbox(items, `${query}`, choose);
  return (
    <span className="compose-channel-picker">
      <span className="channel-swatch" style={{ background: current ? String(current.color) : 'transparent' }} aria-hidden="true" />
      <input
        ref={inputRef}
        className="compose-channel-input"
        value={shown}
        placeholder={t('compose.choose_channel')}
        aria-label={t('compose.channel')}
        {...listbox.fieldProps(true)}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => listbox.onKeyDown(e)}
        onFocus={(e) => {
          setFocused(true);
          e.currentTarget.select();
        }}
        onBlur={() => {
          setFocused(false);
          setQuery(null);
        }}
        data-testid="compose-channel"
      />
      <Listbox state={listbox} label={t('compose.channel')} render={(item) => <SuggestionRow item={item} />} onPick={choose} className="typeahead-down" />
    </span>
  );
}

export function TopicInput({ streamId, topic, onChange, onDone, inputRef }: { streamId: number; topic: string; onChange: (topic: string) => void; onDone: () => void; inputRef?: React.Ref<HTMLInputElement> }) {
  const reg = useReg();
  const topics = useTopics(streamId);
  const [focused, setFocused] = useState(false);
  const [typed, setTyped] = useState(false);
  const items = useMemo(() => {
    if (!focused || !streamId) return [];
    const q = typed ? topic : '';
    return topics.filter((x) => matchRank(q, x) >= 0 && x !== topic).slice(0, 8);
  }, [focused, typed, topic, topics, streamId]);
  const listbox = useListbox(items, `${typed}:${topic}`, (item, e) => {
    onChange(item);
    setTyped(false);
    if (!e || e.key !== 'Tab') onDone();
    else listbox.close();
  });
  const emptyName = (reg.realm_empty_topic_display_name as string | undefined) ?? t('compose.no_topic');
  const required = reg.realm_mandatory_topics === true || reg.realm_topics_policy === 'disable_empty_topic';
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (listbox.onKeyDown(e)) return;
    if (e.key === 'Enter') {
      e.preventDefault();
      onDone();
    }
  };
  return (
    <span className="compose-topic">
      <input
        ref={inputRef}
        value={topic}
        maxLength={Number(reg.max_topic_length) || 60}
        placeholder={required ? t('compose.topic') : emptyName}
        aria-label={t('compose.topic')}
        {...listbox.fieldProps(true)}
        onChange={(e) => {
          setTyped(true);
          onChange(e.target.value);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => setFocused(true)}
        onBlur={() => {
          setFocused(false);
          setTyped(false);
        }}
        data-testid="compose-topic"
      />
      <Listbox state={listbox} label={t('compose.topic_suggestions')} render={(item) => <span className="typeahead-primary">{item}</span>} onPick={(item) => (onChange(item), onDone())} className="typeahead-down" />
    </span>
  );
}

export function PeoplePicker({ to, onChange, onDone, inputRef }: { to: number[]; onChange: (ids: number[]) => void; onDone: () => void; inputRef?: React.Ref<HTMLInputElement> }) {
  const reg = useReg();
  const users = useAppState((s) => s.users);
  const people = usePeople();
  const [query, setQuery] = useState('');
  const [focused, setFocused] = useState(false);
  const items = useMemo(() => (focused && query.trim() ? peopleSuggestions(query.trim(), { people, groups: reg.realm_user_groups ?? [] }, { silent: false, wildcards: [], exclude: new Set(to) }) : []), [focused, query, people, reg.realm_user_groups, to]);
  const add = (ids: number[]) => {
    const next = [...to];
    for (const id of ids) if (!next.includes(id)) next.push(id);
    onChange(next);
    setQuery('');
  };
  const choose = (item: Suggestion) => {
    if (item.kind === 'user') add([item.person.user_id]);
    // A group adds its active members, leaving out the sender.
    else if (item.kind === 'group') add(item.group.members.filter((id) => id !== reg.user_id && users.get(id)?.is_active !== false));
  };
  const listbox = useListbox(items, query, choose);
  /** Typed or pasted addresses, comma-separated, become pills where they name someone. */
  const addTyped = (): boolean => {
    const parts = query.split(/[,;\s]+/).filter(Boolean);
    const found = parts.map((p) => people.find((u) => u.email.toLowerCase() === p.toLowerCase() || u.delivery_email?.toLowerCase() === p.toLowerCase()));
    if (!parts.length || found.some((u) => !u)) return false;
    add(found.map((u) => u!.user_id));
    return true;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (listbox.onKeyDown(e)) return;
    if (e.key === 'Backspace' && !query && to.length) {
      e.preventDefault();
      onChange(to.slice(0, -1));
    } else if (e.key === 'Enter' || e.key === ',') {
      if (query.trim()) {
        e.preventDefault();
        addTyped();
      } else if (e.key === 'Enter') {
        e.preventDefault();
        onDone();
      }
    }
  };
  return (
    <div className="compose-people" onClick={(e) => e.target === e.currentTarget && (e.currentTarget.querySelector('input') as HTMLInputElement | null)?.focus()}>
      <ul className="pills" aria-label={t('compose.recipients')}>
        {to.map((id) => {
          const name = users.get(id)?.full_name ?? t('compose.unknown_user', { id });
          return (
            <li key={id} className="pill">
              {name}
              <button type="button" className="pill-remove" onClick={() => onChange(to.filter((x) => x !== id))} aria-label={t('compose.remove_recipient', { name })} title={t('compose.remove_recipient', { name })}>
                ×
              </button>
            </li>
          );
        })}
      </ul>
      <input
        ref={inputRef}
        value={query}
        placeholder={to.length ? t('compose.add_more') : t('compose.to_placeholder')}
        aria-label={t('compose.to')}
        {...listbox.fieldProps(true)}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onKeyDown}
        onFocus={() => setFocused(true)}
        onBlur={() => {
          setFocused(false);
          if (query.trim()) addTyped();
        }}
        data-testid="compose-people"
      />
      <Listbox state={listbox} label={t('compose.people_suggestions')} render={(item) => <SuggestionRow item={item} />} onPick={choose} className="typeahead-down" />
    </div>
  );
}
