/**
 * Which actions a message offers the reader: the state engine's rules (state/permissions.ts),
 * plus what the family's message_edit.ts adds for the feed (nothing changes in an archived
 * channel, a message still being sent has no actions), gathered once per message, and the
 * family's edit countdown and resolved-topic names.
 */
import type { Message, RegisterState } from '@chat/client';
import { canDelete, canEditContent, canEditTopic, canMoveToChannel, canResolveTopic, canSeeEditHistory, editSecondsLeft } from '../state/permissions';

export interface MessagePermissions {
  /** Seconds left to edit the content: Infinity without a limit, 0 when it may not be edited. */
  editSeconds: number;
  edit: boolean;
  editTopic: boolean;
  moveChannel: boolean;
  move: boolean;
  resolve: boolean;
  delete: boolean;
  history: boolean;
  receipts: boolean;
}

function archived(reg: RegisterState, m: Pick<Message, 'type' | 'stream_id'>): boolean {
  if (m.type !== 'stream') return false;
  const id = m.stream_id;
  return [...reg.subscriptions, ...(reg.unsubscribed ?? []), ...(reg.never_subscribed ?? [])].some((s) => s.stream_id === id && s.is_archived === true);
}

export function messagePermissions(reg: RegisterState, m: Message, now = Date.now() / 1000): MessagePermissions {
  const frozen = archived(reg, m);
  const editSeconds = frozen ? 0 : editSecondsLeft(reg, m, now);
  const editTopic = !frozen && canEditTopic(reg, m, now);
  const moveChannel = !frozen && canMoveToChannel(reg, m, now);
  return {
    editSeconds,
    edit: !frozen && editSeconds > 0 && canEditContent(reg, m, now),
    editTopic,
    moveChannel,
    move: editTopic || moveChannel,
    resolve: !frozen && m.type === 'stream' && canResolveTopic(reg, m.stream_id!, now),
    delete: !frozen && canDelete(reg, m, now),
    history: canSeeEditHistory(reg) && (m.last_edit_timestamp !== undefined || m.last_moved_timestamp !== undefined),
    receipts: reg.realm_enable_read_receipts !== false,
  };
}

/** "3 min to edit", the family's countdown: whole minutes, then seconds in steps of five. */
export function editTimerParts(seconds: number): { minutes: number } | { seconds: number } {
  if (seconds >= 60) return { minutes: Math.floor(seconds / 60) };
  if (seconds >= 10) return { seconds: Math.floor(seconds - (seconds % 5)) };
  return { seconds: Math.max(0, Math.floor(seconds)) };
}

export const RESOLVED_PREFIX = '✔ ';

/** The topic after resolving or unresolving (unresolving strips a repeated mark too). */
export function toggledResolved(topic: string): string {
  if (topic.startsWith(RESOLVED_PREFIX)) return topic.replace(/^(✔ )+/, '');
  return RESOLVED_PREFIX + topic;
}
