/**
 * What the sidebars ask of the server. Nothing here changes the store: the events that follow
 * (subscription, user_topic, update_message_flags) do.
 */
import { api, errorText } from '../api';
import { apiNarrow, type NarrowTerm } from '../narrow/hash';
import { POLICY } from './model';

export function setSubscriptionProperty(streamId: number, property: 'is_muted' | 'pin_to_top' | 'color' | 'desktop_notifications', value: unknown): Promise<unknown> {
  return api.call('POST', '/users/me/subscriptions/properties', { subscription_data: [{ stream_id: streamId, property, value }] });
}

export function setTopicPolicy(streamId: number, topic: string, policy: number): Promise<unknown> {
  return api.call('POST', '/user_topics', { stream_id: streamId, topic, visibility_policy: policy });
}

export const muteTopic = (streamId: number, topic: string) => setTopicPolicy(streamId, topic, POLICY.muted);

export function unsubscribe(name: string): Promise<unknown> {
  return api.call('DELETE', '/users/me/subscriptions', { subscriptions: [name] });
}

/**
 * Marks everything in a narrow as read, a batch at a time as the family does (the server
 * answers how far it got; a large channel takes several calls).
 */
export async function markNarrowRead(terms: NarrowTerm[]): Promise<void> {
  let anchor: number | 'oldest' = 'oldest';
  for (let i = 0; i < 50; i++) {
    const r = await api.updateFlagsForNarrow({ anchor, num_before: 0, num_after: 1000, narrow: apiNarrow([...terms, { operator: 'is', operand: 'unread' }]), op: 'add', flag: 'read', include_anchor: anchor === 'oldest' });
    if (r.found_newest || r.last_processed_id === null) return;
    anchor = r.last_processed_id;
  }
}

export function markMessagesRead(ids: number[]): Promise<unknown> {
  return ids.length ? api.updateFlags(ids, 'add', 'read') : Promise.resolve();
}

/** Runs an action and reports a refusal in words (the caller shows it). */
export async function attempt(action: () => Promise<unknown>, onError: (text: string) => void): Promise<boolean> {
  try {
    await action();
    return true;
  } catch (err) {
    onError(errorText(err));
    return false;
  }
}
