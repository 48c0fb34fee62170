/**
 * "Ada is typing…" under the messages of a topic or a direct conversation, as the family's app
 * shows it: one or two names, then "Several people are typing…". Entries expire on their own
 * (15 s unless renewed), so the line checks again every few seconds while it shows someone.
 */
import { useEffect, useState } from 'react';
import { t } from '../i18n';
import type { NarrowTerm } from '../narrow/hash';
import { typingUserIdsFor } from '../state/selectors';
import { useAppState } from '../state/store';

export function TypingNotice({ terms }: { terms: NarrowTerm[] }) {
  // Re-rendering re-reads the selector, which drops expired entries by the clock.
  const [, setTick] = useState(0);
  // Joined into a string so the selector's answer compares equal while nothing changed.
  const ids = useAppState((s) => typingUserIdsFor(s, terms).filter((id) => id !== s.reg?.user_id).join(','));
  const users = useAppState((s) => s.users);
  useEffect(() => {
    if (!ids) return;
    const timer = setInterval(() => setTick((n) => n + 1), 3000);
    return () => clearInterval(timer);
  }, [ids]);
  const people = ids ? ids.split(',').map((id) => users.get(Number(id))?.full_name ?? t('feed.unknown_user')) : [];
  const text =
    people.length === 0 ? '' : people.length === 1 ? t('feed.typing_one', { name: people[0]! }) : people.length === 2 ? t('feed.typing_two', { a: people[0]!, b: people[1]! }) : t('feed.typing_many');
  return (
    <div className="typing-notice" role="status" aria-live="polite" data-testid="typing-notice">
      {text}
    </div>
  );
}
