/**
 * The calls the settings pages make. Each returns the server's answer; what changed arrives
 * afterwards as an event, which is what the pages show.
 */
import { readEnvelope, ApiError, type Params } from '@chat/client';
import { api } from '../../api';
import type { ProfileChange } from './profileFields';

export interface SettingsAnswer {
  ignored_parameters_unsupported?: string[];
  account_email?: string;
  msg?: string;
}

export const patchSettings = (params: Params) => api.call<SettingsAnswer>('PATCH', '/settings', params);

/** A multipart request with the session's CSRF token (the client's upload is POST only). */
export async function sendForm<T>(method: 'POST' | 'PATCH', path: string, form: FormData): Promise<T> {
  let res: Response;
  try {
    res = await fetch(api.http.url(path), { method, headers: api.http.headers(method), body: form, credentials: 'same-origin' });
  } catch (err) {
    throw new ApiError('NETWORK', (err as Error).message || 'The server could not be reached.', 0);
  }
  return readEnvelope<T>(res);
}

export function uploadAvatar(file: File): Promise<{ avatar_url?: string }> {
  const form = new FormData();
  form.append('file', file, file.name);
  return sendForm('POST', '/users/me/avatar', form);
}

export const deleteAvatar = () => api.call('DELETE', '/users/me/avatar');

export function saveProfileField(change: ProfileChange): Promise<unknown> {
  return change.op === 'remove'
    ? api.call('DELETE', '/users/me/profile_data', { data: [change.id] })
    : api.call('PATCH', '/users/me/profile_data', { data: [{ id: change.id, value: change.value }] });
}

export const fetchApiKey = (username: string, password: string) => api.call<{ api_key: string; email: string }>('POST', '/fetch_api_key', { username, password });
export const regenerateApiKey = () => api.call<{ api_key: string }>('POST', '/users/me/api_key/regenerate');
export const deactivateSelf = () => api.call('DELETE', '/users/me');

export const setChannelProperties = (data: Array<{ stream_id: number; property: string; value: unknown }>) =>
  api.call('POST', '/users/me/subscriptions/properties', { subscription_data: data });
export const setChannelProperty = (streamId: number, property: string, value: unknown) => setChannelProperties([{ stream_id: streamId, property, value }]);

export const unmuteUser = (id: number) => api.call('DELETE', `/users/me/muted_users/${id}`);
export const setTopicPolicy = (streamId: number, topic: string, policy: number) => api.call('POST', '/user_topics', { stream_id: streamId, topic, visibility_policy: policy });
export const addAlertWords = (words: string[]) => api.call('POST', '/users/me/alert_words', { alert_words: words });
export const removeAlertWords = (words: string[]) => api.call('DELETE', '/users/me/alert_words', { alert_words: words });

export const createBot = (params: Params) => api.call<{ user_id: number; api_key: string; email?: string }>('POST', '/bots', params);
export const updateBot = (id: number, params: Params) => api.call('PATCH', `/bots/${id}`, params);
export function updateBotAvatar(id: number, file: File): Promise<unknown> {
  const form = new FormData();
  form.append('file', file, file.name);
  return sendForm('PATCH', `/bots/${id}`, form);
}
export const deactivateBot = (id: number) => api.call('DELETE', `/bots/${id}`);
export const reactivateUser = (id: number) => api.call('POST', `/users/${id}/reactivate`);
export const botApiKey = (id: number) => api.call<{ api_key: string }>('GET', `/bots/${id}/api_key`);
export const regenerateBotKey = (id: number) => api.call<{ api_key: string }>('POST', `/bots/${id}/api_key/regenerate`);
