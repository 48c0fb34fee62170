/**
 * The main column's header for a narrow: the channel (name and description), the topic, the
 * people of a direct message or the search, with a place for the channel's actions and "mark
 * all as read" when the view has unread messages.
 */
import type { UnreadMsgs } from '@chat/client';
import { t } from '../i18n';
import { channelHash, type NarrowTerm } from '../narrow/hash';
import { store, useAppState, useReg } from '../state/store';
import { channelUnread } from '../state/unread';
import { describeTerm } from '../search/describe';
import { directoryOf } from '../search/directory';
import { fromNarrowTerms } from '../search/query';
import type { NarrowInfo } from './narrowInfo';
import { markViewRead } from './read';
import { notify } from './view-state';

/** Unread messages in the view: from the unread counts where they say, else those loaded. */
export function viewUnread(u: UnreadMsgs, info: NarrowInfo, selfId: number, loadedUnread: number): number {
  if (info.kind === 'feed') return u.count;
  if ((info.kind === 'channel' || info.kind === 'topic') && info.streamId !== undefined) return channelUnread(u, info.streamId, info.topic);
  if (info.kind === 'mentioned') return u.mentions.length;
  if (info.kind === 'dm' && info.userIds) {
    const others = info.userIds.filter((id) => id !== selfId);
    if (others.length <= 1) return u.pms.find((p) => p.other_user_id === (others[0] ?? selfId))?.unread_message_ids.length ?? 0;
    const key = [...new Set([...others, selfId])].sort((a, b) => a - b).join(',');
    return u.huddles.find((h) => h.user_ids_string === key)?.unread_message_ids.length ?? 0;
  }
  if (info.kind === 'dm-all') return [...u.pms, ...u.huddles].reduce((n, e) => n + e.unread_message_ids.length, 0);
  return loadedUnread;
}

/** The terms a view's title does not already say (`has:reaction` in a channel, a sender in a search), in words. */
function refinements(info: NarrowInfo, terms: NarrowTerm[]): string[] {
  const shown = (t: NarrowTerm): boolean => {
    if (t.negated) return false;
    switch (info.kind) {
      case 'channel':
        return t.operator === 'channel';
      case 'topic':
        return t.operator === 'channel' || t.operator === 'topic';
      case 'dm':
        return t.operator === 'dm';
      case 'search':
        return t.operator === 'search';
      case 'sender':
        return t.operator === 'sender';
      case 'dm-all':
        return t.operator === 'is' && (t.operand === 'dm' || t.operand === 'private');
      case 'starred':
      case 'mentioned':
      case 'unread':
        return t.operator === 'is' && t.operand === info.kind;
      default:
        return false;
    }
  };
  const rest = terms.filter((t) => !['near', 'with', 'id'].includes(t.operator) && !shown(t));
  if (!rest.length) return [];
  return fromNarrowTerms(rest, directoryOf(store.get())).map(describeTerm);
}

function Refinements({ info, terms }: { info: NarrowInfo; terms: NarrowTerm[] }) {
  const parts = refinements(info, terms);
  if (!parts.length) return null;
  return <p className="narrow-description narrow-refinements">{parts.join(' · ')}</p>;
}

function Title({ info, terms }: { info: NarrowInfo; terms: NarrowTerm[] }) {
  const reg = useReg();
  const users = useAppState((s) => s.users);
  const name = (id: number) => users.get(id)?.full_name ?? t('feed.unknown_user');
  if (info.kind === 'channel' || info.kind === 'topic') {
    const sub = reg.subscriptions.find((s) => s.stream_id === info.streamId) ?? reg.never_subscribed?.find((s) => s.stream_id === info.streamId) ?? reg.unsubscribed?.find((s) => s.stream_id === info.streamId);
    const channel = sub?.name ?? info.streamName ?? String(info.streamId ?? '');
    const description = sub?.rendered_description ?? '';
    return (
      <div className="narrow-title-block">
        <h1 className="narrow-title">
          <span className="channel-swatch" style={{ background: (sub as { color?: string } | undefined)?.color ?? 'var(--border)' }} aria-hidden="true" />
          {sub?.invite_only && <span className="channel-lock" role="img" aria-label={t('feed.private_channel')}>🔒</span>}
          {info.kind === 'topic' && info.streamId !== undefined ? <a href={channelHash(info.streamId, channel)}>#{channel}</a> : <span>#{channel}</span>}
          {info.kind === 'topic' && (
            <>
              <span className="recipient-sep" aria-hidden="true">›</span>
              <span className="narrow-topic">{info.topic === '' ? <em>{t('feed.general_chat')}</em> : info.topic}</span>
            </>
          )}
        </h1>
        {info.kind === 'channel' && description && !refinements(info, terms).length && (
          // The server's rendering of the channel's description.
          <div className="narrow-description rendered_markdown" dangerouslySetInnerHTML={{ __html: description }} />
        )}
        <Refinements info={info} terms={terms} />
      </div>
    );
  }
  const text =
    info.kind === 'dm' && info.userIds
      ? info.userIds.filter((id) => id !== reg.user_id).length
        ? t('feed.dm_with', { names: info.userIds.filter((id) => id !== reg.user_id).map(name).join(', ') })
        : t('feed.dm_self')
      : info.kind === 'search'
        ? t('feed.search_title', { terms: info.search ?? '' })
        : info.kind === 'sender' && info.senderId !== undefined
          ? t('feed.sender_title', { name: name(info.senderId) })
          : { feed: t('nav.feed'), 'dm-all': t('nav.dms'), starred: t('nav.starred'), mentioned: t('nav.mentions'), unread: t('feed.unread_title'), other: t('feed.messages'), dm: t('nav.dms'), channel: '', topic: '', search: '', sender: '' }[info.kind];
  return (
    <div className="narrow-title-block">
      <h1 className="narrow-title">{text}</h1>
      <Refinements info={info} terms={terms} />
    </div>
  );
}

export function NarrowHeader({ info, terms, narrowKey, loadedUnread }: { info: NarrowInfo; terms: NarrowTerm[]; narrowKey: string; loadedUnread: number }) {
  const reg = useReg();
  const unread = viewUnread(reg.unread_msgs, info, reg.user_id, loadedUnread);
  const markAll = async () => {
    try {
      await markViewRead(terms, narrowKey);
    } catch (err) {
      notify(t('feed.action_failed', { error: (err as Error).message }));
    }
  };
  return (
    <header className="narrow-header" data-testid="narrow-header">
      <Title info={info} terms={terms} />
      <div className="narrow-header-actions">
        {unread > 0 && (
          <button type="button" className="button" onClick={() => void markAll()} data-testid="mark-all-read">
            {t('feed.mark_all_read', { count: unread })}
          </button>
        )}
        {(info.kind === 'channel' || info.kind === 'topic') && <div className="channel-actions" data-slot="channel-actions" />}
      </div>
    </header>
  );
}
