/**
 * What the typeaheads choose from, taken from the store: active people and the system bots
 * (muted people left out, as the family does), user groups, the subscribed channels, the
 * emoji list and the channels' topics; and how each suggestion is shown.
 */
import { useMemo } from 'react';
import { emojiChars, useEmojiList, type EmojiEntry } from '../emoji/data';
import { t } from '../i18n';
import { useAppState, useReg } from '../state/store';
import { avatarUrl } from '../ui/Avatar';
import { Icon } from '../ui/Icon';
import { topicsFor } from './topics';
import type { PersonLike, SlashCommand, Suggestion, TypeaheadContext } from './typeahead';
import type { ComposeTarget } from './types';

export function usePeople(): PersonLike[] {
  const reg = useReg();
  return useMemo(() => {
    const muted = new Set((reg.muted_users ?? []).map((m) => m.id));
    return [...reg.realm_users.filter((u) => u.is_active !== false), ...(reg.cross_realm_bots ?? [])].filter((u) => !muted.has(u.user_id));
  }, [reg.realm_users, reg.cross_realm_bots, reg.muted_users]);
}

export function useChannels() {
  const subs = useAppState((s) => s.reg!.subscriptions);
  return useMemo(() => subs.filter((s) => !s.is_archived).sort((a, b) => a.name.localeCompare(b.name)), [subs]);
}

function slashCommands(): SlashCommand[] {
  return [
    { name: 'me', info: t('compose.slash.me'), placeholder: t('compose.slash.me_placeholder') },
    { name: 'poll', info: t('compose.slash.poll'), placeholder: t('compose.slash.poll_placeholder') },
    { name: 'todo', info: t('compose.slash.todo'), placeholder: t('compose.slash.todo_placeholder') },
  ];
}

export function useTypeaheadContext(target: ComposeTarget | null): TypeaheadContext {
  const reg = useReg();
  const people = usePeople();
  const channels = useChannels();
  const emoji = useEmojiList();
  // A channel's topic list arriving shows in the open suggestions at once.
  useAppState((s) => s.topics);
  return {
    people,
    groups: reg.realm_user_groups ?? [],
    channels,
    emoji,
    topics: topicsFor,
    slash: slashCommands(),
    isDirect: target?.type === 'direct',
    currentStreamId: target?.type === 'stream' ? target.streamId : undefined,
  };
}

export function EmojiGlyph({ emoji }: { emoji: EmojiEntry }) {
  if (emoji.url) return <img className="typeahead-emoji" src={emoji.url} alt="" width={20} height={20} />;
  return <span className="typeahead-emoji" aria-hidden="true">{emojiChars(emoji.code)}</span>;
}

/** One suggestion as a row of the list. */
export function SuggestionRow({ item }: { item: Suggestion }) {
  switch (item.kind) {
    case 'user':
      return (
        <>
          <img className="typeahead-avatar" src={avatarUrl(item.person, item.person.user_id)} alt="" width={20} height={20} loading="lazy" />
          <span className="typeahead-primary">{item.person.full_name}</span>
          <span className="typeahead-secondary">{item.person.is_bot ? t('compose.bot') : item.person.delivery_email || item.person.email}</span>
        </>
      );
    case 'wildcard':
      return (
        <>
          <span className="typeahead-primary">{item.name}</span>
          <span className="typeahead-secondary">{item.name === 'topic' ? t('compose.wildcard_topic') : t('compose.wildcard_all')}</span>
        </>
      );
    case 'group':
      return (
        <>
          <span className="typeahead-icon" aria-hidden="true">
            <Icon name="people" size={14} />
          </span>
          <span className="typeahead-primary">{item.group.name}</span>
          <span className="typeahead-secondary">{item.group.description}</span>
        </>
      );
    case 'channel':
      return (
        <>
          <span className="typeahead-icon" aria-hidden="true">{item.channel.invite_only ? <Icon name="lock" size={14} /> : '#'}</span>
          <span className="typeahead-primary">{item.channel.name}</span>
          <span className="typeahead-secondary">{item.channel.description}</span>
        </>
      );
    case 'topic':
      return item.channelLink ? (
        <>
          <span className="typeahead-icon" aria-hidden="true">#</span>
          <span className="typeahead-primary">{item.channel.name}</span>
          <em className="typeahead-secondary">{t('compose.link_to_channel')}</em>
        </>
      ) : (
        <>
          <span className="typeahead-primary">{item.topic}</span>
          {item.isNew && <em className="typeahead-secondary">{t('compose.new_topic_label')}</em>}
        </>
      );
    case 'emoji':
      return (
        <>
          <EmojiGlyph emoji={item.emoji} />
          <span className="typeahead-primary">:{item.name}:</span>
        </>
      );
    case 'slash':
      return (
        <>
          <span className="typeahead-primary">/{item.command.name}</span>
          <span className="typeahead-secondary">{item.command.info}</span>
        </>
      );
  }
}
