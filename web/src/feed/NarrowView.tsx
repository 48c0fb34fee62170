/** A narrow: its header, the message list (fetched on entry, kept live by events) and the compose box. */
import { useEffect } from 'react';
import { t } from '../i18n';
import { leadingId, leadingIds, narrowKey, type NarrowTerm } from '../narrow/hash';
import { loadNarrow } from '../state/actions';
import { useAppState } from '../state/store';
import { Compose, type ComposeTarget } from '../compose/Compose';
import { MessageList } from './MessageList';

function composeTarget(terms: NarrowTerm[], selfId: number): ComposeTarget | null {
  const channel = terms.find((x) => x.operator === 'channel');
  if (channel) return { type: 'stream', streamId: leadingId(channel.operand), topic: terms.find((x) => x.operator === 'topic')?.operand ?? '' };
  const dm = terms.find((x) => x.operator === 'dm');
  if (dm) return { type: 'direct', to: leadingIds(dm.operand).filter((id) => id !== selfId) };
  return null;
}

export function NarrowView({ terms }: { terms: NarrowTerm[] }) {
  const key = narrowKey(terms);
  const generation = useAppState((s) => s.generation);
  const narrow = useAppState((s) => s.narrows[key]);
  const selfId = useAppState((s) => s.reg!.user_id);
  const needsFetch = !narrow || (!narrow.foundNewest && !narrow.loading && !narrow.error);
  useEffect(() => {
    if (needsFetch) void loadNarrow(terms);
  }, [key, generation, needsFetch]);
  return (
    <section className="narrow" aria-label={t('feed.messages')}>
      <MessageList narrowKey={key} terms={terms} />
      <Compose key={key} target={composeTarget(terms, selfId)} />
    </section>
  );
}
