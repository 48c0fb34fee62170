import { errors, type ApiError } from '@chat/contracts';

/**
 * HTTP client for the push relay ("bouncer"): the service that holds the FCM/APNs credentials
 * and turns our encrypted payloads into provider pushes. Wire format: docs/push.md.
 *
 * Failures are classified the way this API family reports them to clients:
 * - network: refused, reset, DNS, or no answer within the timeout -> FAILED_TO_CONNECT_BOUNCER;
 *   worth retrying.
 * - server: 5xx (and 408/429) -> INTERNAL_SERVER_ERROR_ON_BOUNCER; worth retrying.
 * - config: any other 4xx (bad credentials, unregistered server or organization, plan does not
 *   allow push) -> ADMIN_ACTION_REQUIRED; retrying will not help until an admin acts.
 * - rejected: a 4xx on a registration naming what is wrong with the client's data
 *   (INVALID_BOUNCER_PUBLIC_KEY, BAD_REQUEST, REQUEST_EXPIRED); recorded on the device.
 */
export type RelayFailureKind = 'network' | 'server' | 'config' | 'rejected';

export class RelayError extends Error {
  constructor(
    readonly kind: RelayFailureKind,
    message: string,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'RelayError';
  }

  get retryable(): boolean {
    return this.kind === 'network' || this.kind === 'server';
  }

  toApiError(): ApiError {
    switch (this.kind) {
      case 'network':
        return errors.failedToConnectBouncer();
      case 'server':
        return errors.internalServerErrorOnBouncer();
      default:
        return errors.adminActionRequired();
    }
  }
}

/** Codes with which the relay refuses a registration because of the client's own data. */
const REGISTRATION_REJECTIONS = new Set(['INVALID_BOUNCER_PUBLIC_KEY', 'BAD_REQUEST', 'REQUEST_EXPIRED']);

export interface RelayOptions {
  url: string;
  id: string;
  key: string;
  timeoutMs: number;
}

export interface RelayRegistration {
  realm_id: number;
  user_id: number;
  device_id: number;
  token_id: string;
  token_kind: string;
  bouncer_public_key: string;
  encrypted_push_registration: string;
}

export interface RelayPushRequest {
  token_id: string;
  token_kind: string;
  payload: { push_key_id: number; encrypted_data: string };
  /** APNs: 10 shows the notification now; 5 for background updates (removals). */
  apns_priority?: number;
  fcm_priority?: 'high' | 'normal';
}

export interface RelayNotifyResult {
  /** token_ids the provider reported as gone (app uninstalled, token expired). */
  expired_token_ids: string[];
}

/** A plaintext notification to legacy tokens, in the relay's `remotes/push/notify` format. */
export interface RelayLegacyNotification {
  realm_id: number;
  user_id: number;
  apns_payload: Record<string, unknown>;
  gcm_payload: Record<string, unknown>;
  gcm_options: { priority: 'high' | 'normal' };
  android_devices: string[];
  apple_devices: string[];
}

export interface RelayLegacyResult {
  /** Tokens the provider reported as invalid (uninstalled app, expired token). */
  deleted: { android_devices: string[]; apple_devices: string[] };
}

/**
 * A legacy token as the relay records it (`remotes/push/register`). token_kind is the relay's
 * number for the provider: 1 APNs, 2 FCM.
 */
export interface RelayLegacyToken {
  realm_id: number;
  user_id: number;
  token: string;
  token_kind: 1 | 2;
  /** APNs only: the app's bundle id, the topic APNs needs. */
  ios_app_id?: string;
}

export const LEGACY_TOKEN_KIND = { apns: 1, fcm: 2 } as const;

/** What the relay answers when asked to forget a token it does not hold: already the wanted outcome. */
const TOKEN_DOES_NOT_EXIST = 'Token does not exist';

export class RelayClient {
  constructor(private readonly opts: RelayOptions) {}

  /** Records a legacy token for the user; the relay delivers `remotes/push/notify` only to tokens it holds. */
  async registerLegacy(token: RelayLegacyToken): Promise<void> {
    await this.post('/api/v1/remotes/push/register', token, { registration: false });
  }

  async unregisterLegacy(token: Omit<RelayLegacyToken, 'ios_app_id'>): Promise<void> {
    await this.post('/api/v1/remotes/push/unregister', token, { registration: false, absentOk: true });
  }

  /** Forgets every legacy token of the user (deactivation). */
  async unregisterAllLegacy(body: { realm_id: number; user_id: number }): Promise<void> {
    await this.post('/api/v1/remotes/push/unregister/all', body, { registration: false });
  }

  async register(registration: RelayRegistration): Promise<void> {
    await this.post('/api/v1/remotes/push/e2ee/register', registration, { registration: true });
  }

  async notify(body: { realm_id: number; user_id: number; push_requests: RelayPushRequest[] }): Promise<RelayNotifyResult> {
    const res = await this.post('/api/v1/remotes/push/e2ee/notify', body, { registration: false });
    return { expired_token_ids: strings(res.expired_token_ids) };
  }

  async notifyLegacy(body: RelayLegacyNotification): Promise<RelayLegacyResult> {
    const res = await this.post('/api/v1/remotes/push/notify', body, { registration: false });
    // Older relays answer without deleted_devices: nothing to forget then.
    const deleted = (res.deleted_devices ?? {}) as Record<string, unknown>;
    return { deleted: { android_devices: strings(deleted.android_devices), apple_devices: strings(deleted.apple_devices) } };
  }

  private async post(
    path: string,
    body: unknown,
    how: { registration: boolean; absentOk?: boolean },
  ): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.opts.id || this.opts.key) {
      headers.authorization = `Basic ${Buffer.from(`${this.opts.id}:${this.opts.key}`).toString('base64')}`;
    }
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.opts.url}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      throw new RelayError('network', `push relay unreachable: ${describe(err)}`);
    }
    const json = parseObject(text);
    if (res.status >= 500 || res.status === 408 || res.status === 429) {
      throw new RelayError('server', `push relay answered ${res.status}`, res.status);
    }
    if (how.absentOk && res.status === 400 && json?.msg === TOKEN_DOES_NOT_EXIST) return json;
    if (res.status >= 400) {
      const code = typeof json?.code === 'string' ? json.code : undefined;
      const kind = how.registration && code && REGISTRATION_REJECTIONS.has(code) && res.status === 400 ? 'rejected' : 'config';
      throw new RelayError(kind, `push relay refused the request (${res.status} ${code ?? ''})`.trim(), res.status, code);
    }
    if (!json || json.result !== 'success') {
      throw new RelayError('server', `push relay answered ${res.status} without a success envelope`, res.status);
    }
    return json;
  }
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function describe(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return 'timed out';
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
}
