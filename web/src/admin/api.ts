/**
 * The organization screens' requests. Each answers with the server's result; what the screens
 * show afterwards comes from the event the change causes, not from these answers (except the
 * lists that /register does not carry: invitations and exports).
 */
import { ApiError, readEnvelope } from '@chat/client';
import { api } from '../api';
import { t } from '../i18n';

/**
 * One request. A parameter the server answers it ignored (`ignored_parameters_unsupported`)
 * is a change that will never come back as an event: it is reported as a refusal, in words.
 */
export async function call<T = Record<string, unknown>>(method: string, path: string, params?: Record<string, unknown>): Promise<T> {
  const res = await api.call<T & { ignored_parameters_unsupported?: string[] }>(method, path, params);
  const ignored = res.ignored_parameters_unsupported;
  if (ignored?.length) throw new Error(t('admin.ignored', { names: ignored.join(', ') }));
  return res;
}

/** A multipart POST (icons, emoji images). */
export function upload<T = Record<string, unknown>>(path: string, file: File, field = 'file'): Promise<T> {
  const form = new FormData();
  form.append(field, file, file.name);
  return api.http.upload<T>(path, form);
}

/**
 * A multipart request of another method (a bot's new picture is a PATCH, as the family sends
 * it); the client's own upload is POST only.
 */
export async function sendForm<T = Record<string, unknown>>(method: 'PATCH' | 'PUT', path: string, form: FormData): Promise<T> {
  let res: Response;
  try {
    res = await fetch(api.http.url(path), { method, headers: api.http.headers(method), body: form, credentials: 'same-origin' });
  } catch {
    throw new ApiError('NETWORK', t('admin.unreachable'), 0);
  }
  return readEnvelope<T>(res);
}

export const patchRealm = (params: Record<string, unknown>) => call('PATCH', '/realm', params);
export const patchUserDefaults = (params: Record<string, unknown>) => call('PATCH', '/realm/user_settings_defaults', params);
