/**
 * A narrow in the main column: its header, the message list (fetched on entry around the first
 * unread message or the `near` one, then kept live by events; refetched when the store marks it
 * stale) and the compose box, with the feed's dialogs and notices.
 */
import { useEffect, useMemo } from 'react';
import { t } from '../i18n';
import { leadingId, leadingIds, narrowKey, type NarrowTerm } from '../narrow/hash';
import { loadNarrow } from '../state/actions';
import { useAppState } from '../state/store';
import { Compose, type ComposeTarget } from '../compose/Compose';
import { FeedDialogs } from './FeedDialogs';
import { MessageList } from './MessageList';
import { NarrowHeader } from './NarrowHeader';
import { canMarkRead, narrowInfo } from './narrowInfo';
import { resumeReading } from './read';
import { useFeedView } from './view-state';
import '../styles/feed.css';
import '../styles/rendered.css';

function composeTarget(terms: NarrowTerm[], selfId: number): ComposeTarget | null {
  const channel = terms.find((x) => x.operator === 'channel' && !x.negated);
  if (channel) return { type: 'stream', streamId: leadingId(channel.operand), topic: terms.find((x) => x.operator === 'topic')?.operand ?? '' };
  const dm = terms.find((x) => x.operator === 'dm' && !x.negated);
  if (dm) {
    const others = leadingIds(dm.operand).filter((id) => id !== selfId);
    return { type: 'direct', to: others.length ? others : [selfId] };
  }
  return null;
}

export function NarrowView({ terms }: { terms: NarrowTerm[] }) {
  const key = narrowKey(terms);
  const stableTerms = useMemo(() => terms, [key, terms.map((x) => `${x.operator}:${x.operand}`).join('/')]);
  const info = useMemo(() => narrowInfo(stableTerms), [stableTerms]);
  const generation = useAppState((s) => s.generation);
  const narrow = useAppState((s) => s.narrows[key]);
  const selfId = useAppState((s) => s.reg!.user_id);
  const loadedUnread = useAppState((s) => {
    let n = 0;
    for (const id of s.narrows[key]?.ids ?? []) if (!s.messages.get(id)?.flags.includes('read')) n++;
    return n;
  });
  const notice = useFeedView((s) => s.notice);
  const stale = !!(narrow as { stale?: boolean } | undefined)?.stale;
  const missingNear = info.near !== undefined && !!narrow && !narrow.loading && !narrow.ids.includes(info.near);
  const needsFetch = !narrow || (!narrow.loading && (stale || missingNear));

  useEffect(() => {
    if (!needsFetch) return;
    void loadNarrow(stableTerms, 'initial', info.near ?? (canMarkRead(stableTerms) ? 'first_unread' : undefined));
  }, [key, generation, needsFetch, info.near]);

  // Reading pauses after "mark as unread from here" only until the view is left.
  useEffect(() => () => resumeReading(key), [key]);

  return (
    <section className="narrow" aria-label={t('feed.messages')}>
      <NarrowHeader info={info} terms={stableTerms} narrowKey={key} loadedUnread={loadedUnread} />
      <MessageList key={`${key}|${info.near ?? ''}|${generation}`} narrowKey={key} terms={stableTerms} />
      <Compose key={key} target={composeTarget(stableTerms, selfId)} />
      <FeedDialogs />
      <div className="feed-notice" role="status" aria-live="polite">
        {notice}
      </div>
    </section>
  );
}
