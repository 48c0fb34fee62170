import { randomBytes, randomUUID } from 'node:crypto';
import { FEATURE_LEVEL, SERVER_VERSION } from '@chat/contracts';
import type { Db } from '@chat/db';
import { RelayError } from './errors';
import { ensureRealmIdentities } from './identity';
import { relayRequest, type RelayCredentials, type RelayEndpoint } from './transport';

/** This server as registered with a relay (`npm run manage -- register-push-server`). */
export interface RegisteredServer extends RelayCredentials {
  relayUrl: string;
  hostname: string;
  contactEmail: string;
  /** Null while the relay has not accepted the registration yet. */
  registeredAt: Date | null;
}

export async function readRelayServer(db: Db): Promise<RegisteredServer | null> {
  return db.pushRelayServer.findUnique({
    where: { id: 1 },
    select: { relayUrl: true, uuid: true, apiKey: true, hostname: true, contactEmail: true, registeredAt: true },
  });
}

/** The relay's limit on a host name (its RemoteZulipServer model). */
const HOSTNAME_MAX = 128;

export class RegistrationInputError extends Error {}

export interface RegisterOptions {
  relayUrl: string;
  /** How the relay shows this server: a host name, optionally with a port. */
  hostname: string;
  contactEmail: string;
  /** Replace the API key with a new one (the relay learns it as `new_org_key`). */
  rotateKey?: boolean;
  timeoutMs: number;
}

export interface RegisterResult {
  uuid: string;
  /** The relay created the server now (false: it knew it, and updated it). */
  created: boolean;
  rotated: boolean;
  realms: number;
}

function newApiKey(): string {
  // 48 random bytes are 64 characters of Base64url: the length the relay requires, no ':' in it.
  return randomBytes(48).toString('base64url');
}

export function checkRegistrationInput(hostname: string, contactEmail: string): void {
  let parsed: URL | null = null;
  try {
    parsed = new URL(`http://${hostname}`);
  } catch {
    parsed = null;
  }
  if (!hostname || hostname.length > HOSTNAME_MAX || !parsed || parsed.host !== hostname.toLowerCase() || parsed.pathname !== '/') {
    throw new RegistrationInputError(`${hostname} is not a valid hostname`);
  }
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(contactEmail)) throw new RegistrationInputError(`${contactEmail} is not a valid email address`);
}

/**
 * Registers this server with the relay, or updates its registration (host name, contact, key).
 * The UUID and key are made and stored before the relay is asked, so a registration that failed
 * half way is retried with the same identity (the relay refuses a second server for a host name).
 * The organizations are uploaded right after, which the relay needs before it accepts their
 * devices and notifications.
 */
export async function doRegisterPushServer(db: Db, opts: RegisterOptions, realmUrl: (stringId: string) => string): Promise<RegisterResult> {
  checkRegistrationInput(opts.hostname, opts.contactEmail);
  const existing = await readRelayServer(db);
  const server = existing ?? { uuid: randomUUID(), apiKey: newApiKey() };
  if (!existing) {
    await db.pushRelayServer.create({
      data: { id: 1, relayUrl: opts.relayUrl, uuid: server.uuid, apiKey: server.apiKey, hostname: opts.hostname, contactEmail: opts.contactEmail },
    });
  }
  const rotated = Boolean(existing && opts.rotateKey);
  const newKey = rotated ? newApiKey() : undefined;
  const endpoint = { url: opts.relayUrl, timeoutMs: opts.timeoutMs };
  const answer = await relayRequest(endpoint, '/api/v1/remotes/server/register', {
    body: {
      form: {
        zulip_org_id: server.uuid,
        zulip_org_key: server.apiKey,
        hostname: opts.hostname,
        contact_email: opts.contactEmail,
        ...(newKey ? { new_org_key: newKey } : {}),
      },
    },
  });
  await db.pushRelayServer.update({
    where: { id: 1 },
    data: { relayUrl: opts.relayUrl, hostname: opts.hostname, contactEmail: opts.contactEmail, registeredAt: new Date(), ...(newKey ? { apiKey: newKey } : {}) },
  });
  const realms = await doUploadRealms(db, endpoint, realmUrl);
  return { uuid: server.uuid, created: answer.created === true, rotated, realms };
}

/** The relay's organization types (OrgTypeEnum); anything else is sent as unspecified. */
const ORG_TYPES = new Set([0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000]);

function orgType(settings: unknown): number {
  const v = settings && typeof settings === 'object' ? (settings as Record<string, unknown>).org_type : undefined;
  return typeof v === 'number' && ORG_TYPES.has(v) ? v : 0;
}

/**
 * Tells the relay which organizations this server hosts (`remotes/server/analytics` with the
 * `realms` list and no usage statistics), as the family's server does on registration and from
 * its periodic job. The relay answers, per organization UUID, whether it may push; that is kept.
 * Returns how many organizations were sent.
 */
export async function doUploadRealms(db: Db, endpoint: RelayEndpoint, realmUrl: (stringId: string) => string): Promise<number> {
  const server = await readRelayServer(db);
  if (!server?.registeredAt) {
    throw new RelayError('config', 'this server is not registered with the push relay: run `npm run manage -- register-push-server`');
  }
  await ensureRealmIdentities(db);
  const [realms, identities] = await Promise.all([
    db.realm.findMany({ orderBy: { id: 'asc' }, select: { id: true, stringId: true, name: true, dateCreated: true, deactivated: true, settings: true } }),
    db.pushRelayRealm.findMany({ select: { realmId: true, uuid: true, uuidOwnerSecret: true } }),
  ]);
  const byRealm = new Map(identities.map((i) => [i.realmId, i]));
  const list = realms.flatMap((r) => {
    const identity = byRealm.get(r.id);
    if (!identity) return [];
    const url = realmUrl(r.stringId);
    return [{
      id: r.id,
      // Not parsed as a URL: a development host such as `sub.127.0.0.1:9991` is no valid one.
      host: url.replace(/^[a-z]+:\/\//, '').replace(/\/.*$/, ''),
      url,
      name: r.name,
      org_type: orgType(r.settings),
      date_created: r.dateCreated.getTime() / 1000,
      deactivated: r.deactivated,
      is_system_bot_realm: false,
      uuid: identity.uuid,
      uuid_owner_secret: identity.uuidOwnerSecret,
    }];
  });
  const answer = await relayRequest(endpoint, '/api/v1/remotes/server/analytics', {
    credentials: server,
    body: {
      form: {
        realm_counts: '[]',
        installation_counts: '[]',
        realmauditlog_rows: '[]',
        realms: JSON.stringify(list),
        version: JSON.stringify(SERVER_VERSION),
        merge_base: JSON.stringify(''),
        api_feature_level: JSON.stringify(FEATURE_LEVEL),
      },
    },
  });
  const now = new Date();
  const statuses = answer.realms && typeof answer.realms === 'object' ? (answer.realms as Record<string, unknown>) : {};
  for (const [uuid, status] of Object.entries(statuses)) {
    const s = (status ?? {}) as { can_push?: unknown; expected_end_timestamp?: unknown };
    await db.pushRelayRealm.updateMany({
      where: { uuid },
      data: {
        canPush: typeof s.can_push === 'boolean' ? s.can_push : null,
        expectedEndTimestamp: typeof s.expected_end_timestamp === 'number' ? BigInt(Math.floor(s.expected_end_timestamp)) : null,
        syncedAt: now,
      },
    });
  }
  await db.pushRelayServer.update({ where: { id: 1 }, data: { realmsSyncedAt: now } });
  return list.length;
}
