/** What people-related controls ask of the server; the events that follow update the store. */
import { api } from '../api';

export function muteUser(userId: number, mute: boolean): Promise<unknown> {
  return api.call(mute ? 'POST' : 'DELETE', `/users/me/muted_users/${userId}`);
}

export interface StatusUpdate {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
  away?: boolean;
}

export function setStatus(update: StatusUpdate): Promise<unknown> {
  return api.call('POST', '/users/me/status', update as Record<string, unknown>);
}
