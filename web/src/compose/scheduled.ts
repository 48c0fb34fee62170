/**
 * Scheduled messages (POST, PATCH, DELETE /json/scheduled_messages): the list itself is
 * reg.scheduled_messages, kept current by `scheduled_messages` events.
 */
import type { ScheduledMessage } from '@chat/client';
import { api } from '../api';
import { scheduledParams } from './schedule';
import type { ComposeTarget } from './types';

export function createScheduled(target: ComposeTarget, content: string, at: Date): Promise<{ scheduled_message_id: number }> {
  return api.call('POST', '/scheduled_messages', scheduledParams(target, content, at));
}

export function updateScheduled(id: number, target: ComposeTarget, content: string, at: Date): Promise<unknown> {
  return api.call('PATCH', `/scheduled_messages/${id}`, scheduledParams(target, content, at));
}

export function deleteScheduled(id: number): Promise<unknown> {
  return api.call('DELETE', `/scheduled_messages/${id}`);
}

/** The compose target a scheduled message goes to. */
export function scheduledTarget(m: ScheduledMessage): ComposeTarget {
  if (m.type === 'stream') return { type: 'stream', streamId: Array.isArray(m.to) ? m.to[0]! : m.to, topic: m.topic ?? '' };
  return { type: 'direct', to: Array.isArray(m.to) ? m.to : [m.to] };
}
