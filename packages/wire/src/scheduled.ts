import type { ScheduledMessage } from '@chat/db';
import { unixSeconds } from './time';

/** `delivery_type` of a scheduled_messages row. */
export const DELIVERY_TYPE = { SEND_LATER: 1, REMIND: 2 } as const;

/**
 * A scheduled message as GET /scheduled_messages, the `scheduled_messages` events and register
 * give it: `to` is the channel id, or the direct-message recipients' ids; `topic` only for
 * channel messages.
 */
export function scheduledMessageObject(s: ScheduledMessage): Record<string, unknown> {
  const common = {
    scheduled_message_id: s.id,
    type: s.recipientType,
    content: s.content,
    rendered_content: s.renderedContent,
    scheduled_delivery_timestamp: unixSeconds(s.scheduledTimestamp),
    failed: s.failed,
  };
  if (s.recipientType === 'stream') return { ...common, to: s.streamId, topic: s.topic };
  return { ...common, to: s.toUserIds };
}

/** A reminder as GET /reminders, the `reminders` events and register give it. */
export function reminderObject(s: ScheduledMessage): Record<string, unknown> {
  return {
    reminder_id: s.id,
    type: 'private',
    to: s.toUserIds,
    content: s.content,
    rendered_content: s.renderedContent,
    scheduled_delivery_timestamp: unixSeconds(s.scheduledTimestamp),
    failed: s.failed,
    reminder_target_message_id: s.reminderTargetMessageId,
  };
}
