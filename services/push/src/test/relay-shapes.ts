import { createHash } from 'node:crypto';
import { blake2b } from '@noble/hashes/blake2b';
import nacl from 'tweetnacl';

/**
 * The request shapes of the family's push relay (its `zilencer` views), checked the way those
 * views check them, for the test relay. A check returns the relay's error message, or null.
 * Form endpoints read each field as the views' typed parameters do: strings as they are,
 * `Json[int]` fields JSON-parsed; the notify endpoints read one JSON document.
 */

export class ShapeError extends Error {
  constructor(
    message: string,
    readonly status = 400,
    readonly code = 'BAD_REQUEST',
  ) {
    super(message);
  }
}

/** A refusal that follows from the relay's state or the client's data, not from a malformed request. */
export class Refusal extends ShapeError {}

export type Fields = Record<string, string>;

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const APP_ID = /^[.a-zA-Z0-9-]+$/;

export function allowedOnly(where: string, got: Record<string, unknown>, allowed: string[]): void {
  const extra = Object.keys(got).filter((k) => !allowed.includes(k));
  if (extra.length) throw new ShapeError(`${where}: unexpected field(s) ${extra.join(', ')}`);
}

export function str(f: Fields, name: string): string {
  const v = f[name];
  if (v === undefined) throw new ShapeError(`Missing '${name}' argument`);
  return v;
}

export function optStr(f: Fields, name: string): string | undefined {
  return f[name];
}

/** A `Json[int]` form field. */
export function jsonInt(f: Fields, name: string, optional = false): number | undefined {
  const v = f[name];
  if (v === undefined) {
    if (optional) return undefined;
    throw new ShapeError(`Missing '${name}' argument`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'number' || !Number.isInteger(parsed)) throw new ShapeError(`${name} is not an integer`);
  return parsed;
}

/** Any `Json[...]` form field. */
export function jsonField(f: Fields, name: string): unknown {
  const v = str(f, name);
  try {
    return JSON.parse(v);
  } catch {
    throw new ShapeError(`${name} is not valid JSON`);
  }
}

export function checkUuid4(value: string, name: string): void {
  if (!UUID4.test(value)) throw new ShapeError(`${name}: Invalid UUID`);
}

/** Base64 of the first 8 bytes of SHA-256 of a provider token: the relay's token_id. */
export function tokenIdFor(token: string): string {
  return createHash('sha256').update(token).digest().subarray(0, 8).toString('base64');
}

export function checkTokenId(value: unknown, name = 'token_id'): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]{11}=$/.test(value)) throw new ShapeError(`\`${name}\` is not Base64 encoded`);
  return value;
}

/** The legacy token checks of the relay's `validate_bouncer_token_request`. */
export function checkLegacyToken(token: string, kind: number): void {
  if (kind !== 1 && kind !== 2) throw new ShapeError('Invalid token type');
  if (!token || token.length > 4096) throw new ShapeError('Empty or invalid length token');
  if (kind === 1 && !/^[0-9a-fA-F]+$/.test(token)) throw new ShapeError('Invalid APNS token');
}

export function checkAppId(appId: string | undefined): void {
  if (appId !== undefined && !APP_ID.test(appId)) throw new ShapeError('Invalid app ID');
}

// Sealed boxes (libsodium's crypto_box_seal), which the apps use for the registration only the
// relay can open: an ephemeral key pair, the nonce BLAKE2b-192(ephemeral pk || recipient pk).
function sealNonce(epk: Uint8Array, pk: Uint8Array): Uint8Array {
  const joined = new Uint8Array(64);
  joined.set(epk, 0);
  joined.set(pk, 32);
  return blake2b(joined, { dkLen: 24 });
}

export function seal(message: Uint8Array, pk: Uint8Array): Uint8Array {
  const eph = nacl.box.keyPair();
  const box = nacl.box(message, sealNonce(eph.publicKey, pk), pk, eph.secretKey);
  const out = new Uint8Array(32 + box.length);
  out.set(eph.publicKey, 0);
  out.set(box, 32);
  return out;
}

export function sealOpen(sealed: Uint8Array, pk: Uint8Array, sk: Uint8Array): Uint8Array | null {
  if (sealed.length < 32 + nacl.box.overheadLength) return null;
  const epk = sealed.subarray(0, 32);
  return nacl.box.open(sealed.subarray(32), sealNonce(epk, pk), epk, sk);
}

/** The relay's fixed key pair in tests: clients seal registrations to its public key. */
export const RELAY_KEYS = nacl.box.keyPair.fromSecretKey(createHash('sha256').update('test push relay').digest());
export const RELAY_PUBLIC_KEY = Buffer.from(RELAY_KEYS.publicKey).toString('base64');

/** How long a sealed registration stays valid at the relay (its liveness timeout). */
export const REGISTRATION_LIVENESS_S = 24 * 3600;

export interface OpenedRegistration {
  token: string;
  token_kind: 'apns' | 'fcm';
  ios_app_id: string | null;
}

/**
 * Opens and checks a device registration as the relay does: its key must be the relay's, the
 * box must open, the plaintext must be `{token, token_kind, ios_app_id, timestamp}` with an APNs
 * app id exactly for APNs, a token of the kind's form, a recent timestamp, and the token must be
 * the one `token_id` names.
 */
export function openRegistration(f: Fields): { registration: OpenedRegistration; tokenId: string } {
  const bouncerKey = str(f, 'bouncer_public_key');
  if (bouncerKey !== RELAY_PUBLIC_KEY) throw new Refusal('Invalid bouncer_public_key', 400, 'INVALID_BOUNCER_PUBLIC_KEY');
  const invalid = () => new Refusal('Invalid encrypted_push_registration');
  const opened = sealOpen(Buffer.from(str(f, 'encrypted_push_registration'), 'base64'), RELAY_KEYS.publicKey, RELAY_KEYS.secretKey);
  if (!opened) throw invalid();
  let plain: Record<string, unknown>;
  try {
    plain = JSON.parse(Buffer.from(opened).toString('utf8'));
  } catch {
    throw invalid();
  }
  const { token, token_kind: kind, ios_app_id: appId, timestamp } = plain;
  if (typeof token !== 'string' || (kind !== 'apns' && kind !== 'fcm') || typeof timestamp !== 'number') throw invalid();
  if (kind === 'apns' ? typeof appId !== 'string' || !APP_ID.test(appId) : appId !== null && appId !== undefined) throw invalid();
  if (!token || token.length > 4096 || (kind === 'apns' && !/^[0-9a-fA-F]+$/.test(token))) throw invalid();
  if (Date.now() / 1000 - timestamp > REGISTRATION_LIVENESS_S) throw new Refusal('Request expired', 400, 'REQUEST_EXPIRED');
  const tokenId = checkTokenId(str(f, 'token_id'));
  if (tokenId !== tokenIdFor(token)) throw invalid();
  return { registration: { token, token_kind: kind, ios_app_id: kind === 'apns' ? (appId as string) : null }, tokenId };
}

/** One entry of `push_requests`, for a device of the given kind (the relay's APNs/FCM request models). */
export function checkPushRequest(r: unknown, kind: 'apns' | 'fcm'): void {
  if (!r || typeof r !== 'object') throw new ShapeError('push_requests: not an object');
  const req = r as Record<string, unknown>;
  const payload = req.payload as Record<string, unknown> | undefined;
  if (!payload || typeof payload !== 'object') throw new ShapeError('push_requests: missing payload');
  if (typeof payload.push_key_id !== 'number' || !Number.isInteger(payload.push_key_id)) throw new ShapeError('payload.push_key_id: not an integer');
  if (typeof payload.encrypted_data !== 'string') throw new ShapeError('payload.encrypted_data: not a string');
  if (kind === 'apns') {
    allowedOnly('APNs push request', req, ['token_id', 'http_headers', 'payload']);
    allowedOnly('APNs payload', payload, ['push_key_id', 'encrypted_data', 'aps']);
    const headers = req.http_headers as Record<string, unknown> | undefined;
    if (!headers || ![5, 10].includes(headers.apns_priority as number) || !['alert', 'background'].includes(headers.apns_push_type as string)) {
      throw new ShapeError('http_headers: apns_priority 10 or 5 and apns_push_type alert or background required');
    }
    allowedOnly('http_headers', headers, ['apns_priority', 'apns_push_type']);
    if (!payload.aps || typeof payload.aps !== 'object') throw new ShapeError('payload.aps: required for APNs');
  } else {
    allowedOnly('FCM push request', req, ['token_id', 'fcm_priority', 'payload']);
    allowedOnly('FCM payload', payload, ['push_key_id', 'encrypted_data']);
    if (req.fcm_priority !== 'high' && req.fcm_priority !== 'normal') throw new ShapeError('fcm_priority: high or normal required');
  }
}

const REALM_FIELDS = ['id', 'host', 'url', 'name', 'org_type', 'date_created', 'deactivated', 'is_system_bot_realm', 'authentication_methods', 'uuid', 'uuid_owner_secret'];
const ORG_TYPES = [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000];

/** One entry of the realm upload's `realms` (the relay's RealmDataForAnalytics, extra fields forbidden). */
export function checkRealmInfo(r: unknown): { uuid: string; id: number } {
  if (!r || typeof r !== 'object') throw new ShapeError('realms: not an object');
  const realm = r as Record<string, unknown>;
  allowedOnly('realms', realm, REALM_FIELDS);
  const types: Record<string, string> = { id: 'number', host: 'string', url: 'string', date_created: 'number', deactivated: 'boolean', uuid: 'string', uuid_owner_secret: 'string' };
  for (const [k, t] of Object.entries(types)) if (typeof realm[k] !== t) throw new ShapeError(`realms: ${k} must be a ${t}`);
  if (realm.name !== undefined && typeof realm.name !== 'string') throw new ShapeError('realms: name must be a string');
  if (realm.org_type !== undefined && !ORG_TYPES.includes(realm.org_type as number)) throw new ShapeError('Not a valid org_type value');
  if (realm.is_system_bot_realm !== undefined && typeof realm.is_system_bot_realm !== 'boolean') throw new ShapeError('realms: is_system_bot_realm must be a boolean');
  checkUuid4(realm.uuid as string, 'realms.uuid');
  return { uuid: realm.uuid as string, id: realm.id as number };
}

export function checkHostname(hostname: string): void {
  let ok = hostname.length > 0 && hostname.length <= 128;
  try {
    ok &&= new URL(`http://${hostname}`).host === hostname.toLowerCase();
  } catch {
    ok = false;
  }
  if (!ok) throw new ShapeError(`${hostname} is not a valid hostname`);
}
