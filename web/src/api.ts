/**
 * The page's API client: the browser session and the CSRF token the shell was served with.
 * An answer saying the session is gone sends the person to the login page and back here.
 */
import { ApiError, sessionClient } from '@chat/client';

function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

export const api = sessionClient(csrfToken());

/** The login page, coming back to the view the person was on. */
export function toLogin(): void {
  const here = location.pathname + location.search + location.hash;
  location.replace(`/login/?next=${encodeURIComponent(here)}`);
}

/** Every tab of this browser hears a logout at once (the server has ended the session). */
export const sessionChannel: BroadcastChannel | null = typeof BroadcastChannel === 'function' ? new BroadcastChannel('chat-session') : null;

export function isLoggedOut(err: unknown): boolean {
  return err instanceof ApiError && err.status === 401;
}

/** Words for a refusal, for showing to a person. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
