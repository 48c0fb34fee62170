/**
 * A narrow in the main column: its header, the message list (fetched on entry around the first
 * unread message or the `near` one, then kept live by events; refetched when the store marks it
 * stale) and the compose box, with the feed's dialogs and notices.
 */
import { useEffect, useMemo, useRef } from 'react';
import { navigate } from '../app/route';
import { channelHash, leadingId, leadingIds, narrowKey, type NarrowTerm } from '../narrow/hash';
import { loadNarrow } from '../state/actions';
import { store, useAppState } from '../state/store';
import { Compose, type ComposeTarget } from '../compose/Compose';
import { channelName } from './actions';
import { FeedDialogs } from './FeedDialogs';
import { MessageList } from './MessageList';
import { NarrowHeader } from './NarrowHeader';
import { canMarkRead, narrowInfo } from './narrowInfo';
import { resumeReading } from './read';
import { selectedMessageId } from './selection';
import { TypingNotice } from './TypingNotice';
import { useFeedView } from './view-state';
import '../styles/feed.css';
import '../styles/rendered.css';

/** A move of messages as the store records it (state/store.ts `lastMove`). */
interface TopicMove {
  streamId: number;
  topic: string;
  newStreamId: number;
  newTopic: string;
  propagateMode: string;
  messageIds: number[];
}

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
  // The hash is parsed afresh on every render: the terms are kept while they say the same.
  const termsText = terms.map((x) => `${x.negated ? '-' : ''}${x.operator}:${x.operand}`).join('/');
  const stableTerms = useMemo(() => terms, [termsText]);
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
  const exists = !!narrow;

  // Fetched when first shown (around the linked message if it is not loaded yet), after a
  // re-register, and whenever the store marks the list stale; never twice for one entry.
  const entry = `${key}|${info.near ?? ''}|${generation}`;
  const fetchedFor = useRef<string | null>(null);
  useEffect(() => {
    const n = store.get().narrows[key];
    if (n?.loading) return;
    const first = fetchedFor.current !== entry;
    fetchedFor.current = entry;
    const nearMissing = first && info.near !== undefined && !!n && !n.ids.includes(info.near);
    if (!n || (n as { stale?: boolean }).stale || nearMissing) void loadNarrow(stableTerms, 'initial', info.near ?? (canMarkRead(stableTerms) ? 'first_unread' : undefined));
  }, [entry, stale, exists]);

  // A topic moved as a whole (or from the selected message on) takes its open view along, as in the family's app.
  const lastMove = useAppState((s) => (s as { lastMove?: TopicMove }).lastMove);
  const followed = useRef(lastMove);
  useEffect(() => {
    if (!lastMove || lastMove === followed.current) return;
    followed.current = lastMove;
    if (info.kind !== 'topic' || info.streamId !== lastMove.streamId || info.topic?.toLowerCase() !== lastMove.topic.toLowerCase()) return;
    const selected = selectedMessageId();
    const follows = lastMove.propagateMode === 'change_all' || (lastMove.propagateMode === 'change_later' && selected !== null && lastMove.messageIds.includes(selected));
    if (follows) navigate(channelHash(lastMove.newStreamId, channelName(lastMove.newStreamId), lastMove.newTopic));
  }, [lastMove, info]);

  // Reading pauses after "mark as unread from here" only until the view is left.
  useEffect(() => () => resumeReading(key), [key]);

  return (
    <section className="narrow">
      <NarrowHeader info={info} terms={stableTerms} narrowKey={key} loadedUnread={loadedUnread} />
      <MessageList key={`${key}|${info.near ?? ''}|${generation}`} narrowKey={key} terms={stableTerms} />
      <TypingNotice terms={stableTerms} />
      <Compose key={key} target={composeTarget(stableTerms, selfId)} />
      <FeedDialogs />
      <div className="feed-notice" role="status" aria-live="polite">
        {notice}
      </div>
    </section>
  );
}
