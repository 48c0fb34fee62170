/**
 * The compose box's outgoing typing notices (POST /json/typing), sent only where the person's
 * settings allow (send_stream_typing_notifications, send_private_typing_notifications) and
 * timed by the server's wait periods when the snapshot gives them.
 */
import { api } from '../api';
import { store } from '../state/store';
import { TypingNotifier, type TypingRecipient } from './typingNotifier';
import { isComplete, type ComposeTarget } from './types';

export const typingNotifier = new TypingNotifier((op, to) => {
  api.typing(op, to).catch(() => undefined);
});

function allowed(target: ComposeTarget): boolean {
  const settings = store.get().reg?.user_settings ?? {};
  const key = target.type === 'stream' ? 'send_stream_typing_notifications' : 'send_private_typing_notifications';
  return settings[key] !== false;
}

/** Who would be told, or null (no full recipient, a setting says no, or no text). */
export function typingRecipient(target: ComposeTarget | null, content: string): TypingRecipient | null {
  if (!isComplete(target) || !content.trim() || !allowed(target)) return null;
  return target.type === 'stream' ? { type: 'stream', stream_id: target.streamId, topic: target.topic } : { type: 'direct', to: [...target.to].sort((a, b) => a - b) };
}

export function noteTyping(target: ComposeTarget | null, content: string): void {
  const reg = store.get().reg;
  const started = Number(reg?.server_typing_started_wait_period_milliseconds);
  const stopped = Number(reg?.server_typing_stopped_wait_period_milliseconds);
  if (started > 0) typingNotifier.startedWaitMs = started;
  if (stopped > 0) typingNotifier.stoppedWaitMs = stopped;
  typingNotifier.typed(typingRecipient(target, content));
}
