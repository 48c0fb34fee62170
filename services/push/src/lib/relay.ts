import type { Db } from '@chat/db';
import {
  MISSING_REMOTE_REALM,
  readRelayServer,
  realmUuid,
  RelayError,
  relayRequest,
  userUuid,
  type RelayBody,
  type RelayCredentials,
} from '@chat/push-relay';

export { RelayError, type RelayFailureKind } from '@chat/push-relay';

/**
 * HTTP client for the push relay ("bouncer": the service that holds the FCM/APNs credentials and
 * turns our encrypted payloads into provider pushes), in the request shapes of the family's relay
 * (its `zilencer` app). Callers name organizations and people by our ids; this client turns them
 * into the relay's `realm_uuid` / `user_uuid` and authenticates as this server (UUID and key from
 * `npm run manage -- register-push-server`). Failure classes: RelayError. Wire format: docs/push.md.
 */

/** Codes with which the relay refuses a device registration because of the client's own data. */
const REGISTRATION_REJECTIONS: ReadonlySet<string> = new Set(['INVALID_BOUNCER_PUBLIC_KEY', 'BAD_REQUEST', 'REQUEST_EXPIRED']);

/** What the relay answers when asked to forget a token it does not hold: already the wanted outcome. */
const TOKEN_DOES_NOT_EXIST = 'Token does not exist';

/** Credentials are read again after this long, so a key rotated by the command line is picked up. */
const CREDENTIALS_TTL_MS = 30_000;

export interface RelayOptions {
  url: string;
  timeoutMs: number;
  db: Db;
  /** Called when the relay does not know an organization: the realm upload has to run. */
  onMissingRealm?: () => void;
}

/** One of our people, as callers name them. */
export interface RelayTarget {
  realmId: number;
  userId: number;
}

export interface RelayRegistration {
  realmId: number;
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
  /** token_ids the relay no longer delivers to (unknown to it, or the provider reported them gone). */
  expired_token_ids: string[];
}

/** A plaintext notification to legacy tokens, in the relay's `remotes/push/notify` format. */
export interface RelayLegacyNotification extends RelayTarget {
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

/** A legacy token as the relay records it (`remotes/push/register`). token_kind: 1 APNs, 2 FCM. */
export interface RelayLegacyToken extends RelayTarget {
  token: string;
  token_kind: 1 | 2;
  /** APNs only: the app's bundle id, the topic APNs needs. */
  ios_app_id?: string;
}

export const LEGACY_TOKEN_KIND = { apns: 1, fcm: 2 } as const;

export class RelayClient {
  private credentials: { value: RelayCredentials; at: number } | undefined;
  private readonly realmUuids = new Map<number, string>();

  constructor(private readonly opts: RelayOptions) {}

  /** Records a legacy token for the user; the relay delivers `remotes/push/notify` only to tokens it holds. */
  async registerLegacy(token: RelayLegacyToken): Promise<void> {
    const form: Record<string, string> = { ...(await this.person(token)), token: token.token, token_kind: String(token.token_kind) };
    if (token.ios_app_id) form.ios_app_id = token.ios_app_id;
    await this.post('/api/v1/remotes/push/register', { form });
  }

  async unregisterLegacy(token: Omit<RelayLegacyToken, 'ios_app_id'>): Promise<void> {
    const form = { ...(await this.person(token)), token: token.token, token_kind: String(token.token_kind) };
    await this.post('/api/v1/remotes/push/unregister', { form }, { absentOkMessage: TOKEN_DOES_NOT_EXIST });
  }

  /** Forgets every legacy token of the user (deactivation). */
  async unregisterAllLegacy(target: RelayTarget): Promise<void> {
    await this.post('/api/v1/remotes/push/unregister/all', { form: await this.person(target) });
  }

  /**
   * Hands a device's sealed registration to the relay. The relay keys it by organization and
   * token_id; it needs no user or device of ours.
   */
  async register(registration: RelayRegistration): Promise<void> {
    const form = {
      realm_uuid: await this.realmUuid(registration.realmId),
      token_id: registration.token_id,
      encrypted_push_registration: registration.encrypted_push_registration,
      bouncer_public_key: registration.bouncer_public_key,
    };
    await this.post('/api/v1/remotes/push/e2ee/register', { form }, { rejections: REGISTRATION_REJECTIONS });
  }

  async notify(body: { realmId: number; push_requests: RelayPushRequest[] }): Promise<RelayNotifyResult> {
    const json = { realm_uuid: await this.realmUuid(body.realmId), push_requests: body.push_requests.map(wirePushRequest) };
    const res = await this.post('/api/v1/remotes/push/e2ee/notify', { json });
    return { expired_token_ids: strings(res.delete_token_ids) };
  }

  async notifyLegacy(body: RelayLegacyNotification): Promise<RelayLegacyResult> {
    const { realmId, userId, ...rest } = body;
    const person = await this.person({ realmId, userId });
    const json = { user_id: userId, user_uuid: person.user_uuid, realm_uuid: person.realm_uuid, ...rest };
    const res = await this.post('/api/v1/remotes/push/notify', { json });
    // Older relays answer without deleted_devices: nothing to forget then.
    const deleted = (res.deleted_devices ?? {}) as Record<string, unknown>;
    return { deleted: { android_devices: strings(deleted.android_devices), apple_devices: strings(deleted.apple_devices) } };
  }

  /** The relay's names for one of our people (form values: the relay reads user_id as JSON). */
  private async person(target: RelayTarget): Promise<{ user_id: string; user_uuid: string; realm_uuid: string }> {
    const realm = await this.realmUuid(target.realmId);
    return { user_id: String(target.userId), user_uuid: userUuid(realm, target.userId), realm_uuid: realm };
  }

  private async realmUuid(realmId: number): Promise<string> {
    let uuid = this.realmUuids.get(realmId);
    if (!uuid) {
      uuid = await realmUuid(this.opts.db, realmId);
      this.realmUuids.set(realmId, uuid);
    }
    return uuid;
  }

  private async serverCredentials(): Promise<RelayCredentials> {
    if (this.credentials && Date.now() - this.credentials.at < CREDENTIALS_TTL_MS) return this.credentials.value;
    const server = await readRelayServer(this.opts.db);
    if (!server?.registeredAt) {
      throw new RelayError('config', 'this server is not registered with the push relay: run `npm run manage -- register-push-server`');
    }
    this.credentials = { value: { uuid: server.uuid, apiKey: server.apiKey }, at: Date.now() };
    return this.credentials.value;
  }

  private async post(
    path: string,
    body: RelayBody,
    extra: { absentOkMessage?: string; rejections?: ReadonlySet<string> } = {},
  ): Promise<Record<string, unknown>> {
    const credentials = await this.serverCredentials();
    try {
      return await relayRequest({ url: this.opts.url, timeoutMs: this.opts.timeoutMs }, path, { credentials, body, ...extra });
    } catch (err) {
      if (err instanceof RelayError && err.code === MISSING_REMOTE_REALM) this.opts.onMissingRealm?.();
      // Refused credentials: read them again next time (an operator may just have registered).
      if (err instanceof RelayError && err.status === 401) this.credentials = undefined;
      throw err;
    }
  }
}

/**
 * One device's request in the relay's shape: APNs requests carry the HTTP headers the relay
 * passes to APNs and an `aps` dictionary (a visible placeholder the app's notification service
 * extension replaces after decrypting; for removals a silent background push); FCM ones only the
 * priority. The token kind itself is not sent: the relay knows it from the registration.
 */
function wirePushRequest(r: RelayPushRequest): Record<string, unknown> {
  if (r.token_kind === 'apns') {
    const alert = (r.apns_priority ?? 10) === 10;
    return {
      token_id: r.token_id,
      http_headers: { apns_priority: alert ? 10 : 5, apns_push_type: alert ? 'alert' : 'background' },
      payload: {
        ...r.payload,
        aps: alert ? { 'mutable-content': 1, alert: { title: 'New notification' } } : { 'content-available': 1 },
      },
    };
  }
  return { token_id: r.token_id, fcm_priority: r.fcm_priority ?? 'high', payload: r.payload };
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
}
