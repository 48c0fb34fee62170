import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  checkHostname,
  checkRealmInfo,
  checkUuid4,
  jsonField,
  jsonInt,
  optStr,
  Refusal,
  ShapeError,
  str,
  allowedOnly,
  type Fields,
} from './relay-shapes';
import { e2eeNotify, e2eeRegister, legacyNotify, legacyRegister, legacyUnregister, legacyUnregisterAll } from './relay-push';

/**
 * A push relay for tests: a real HTTP server on a free port that answers as the family's relay
 * (its `zilencer` app) does, or fails the way a relay can. It is strict: every request is checked
 * against the family's relay shapes (path, method, content type, HTTP Basic credentials of a
 * registered server, field names and types, sealed device registrations it opens with its own
 * key); a request that fails a check is answered 400 and recorded in `violations`, which
 * `close()` turns into a failed test. State is the relay's: registered servers, the organizations
 * their realm uploads named, E2EE devices by organization and token_id, and legacy tokens by user;
 * notifications reach only what it holds, and the rest is reported deleted, as the relay does.
 */
export type RelayMode =
  | { kind: 'ok'; expiredTokenIds?: string[]; deletedDevices?: { android_devices: string[]; apple_devices: string[] } }
  | { kind: 'status'; status: number; code?: string; msg?: string }
  /** Accepts the connection and never answers: the client's timeout must fire. */
  | { kind: 'hang' }
  /** Answers 200 with something that is not the relay's JSON envelope. */
  | { kind: 'garbage' };

export interface RelayRequest {
  path: string;
  authorization: string | undefined;
  contentType: string;
  /** Form fields as sent (strings), or the JSON document. */
  body: Record<string, any>;
  /** UUID of the server whose credentials the request carried, when they were valid. */
  server?: string;
  /** When it arrived (ms since the epoch). */
  at: number;
}

/** A legacy token the relay holds. */
export interface RelayLegacyRecord {
  user_id: number;
  user_uuid: string;
  token_kind: number;
  token: string;
  ios_app_id?: string;
}

/** One notification handed to a provider: legacy (plaintext payload) or E2EE (the push request). */
export interface LegacyDelivery {
  user_id: number;
  kind: 'apns' | 'fcm';
  token: string;
  payload: Record<string, unknown>;
}

export interface E2eeDevice {
  realmUuid: string;
  tokenId: string;
  kind: 'apns' | 'fcm';
  token: string;
  iosAppId: string | null;
  expired: boolean;
}

/** One E2EE push the relay handed to a provider. */
export interface E2eeDelivery {
  realmUuid: string;
  tokenId: string;
  kind: 'apns' | 'fcm';
  request: Record<string, any>;
}

const APNS = 1;
const FCM = 2;
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const live = new Map<string, TestRelay>();

export class TestRelay {
  readonly requests: RelayRequest[] = [];
  /** Shape errors: each is a request the family's relay would have refused. */
  readonly violations: string[] = [];
  /** Registered servers by UUID. */
  readonly servers = new Map<string, { apiKey: string; hostname: string; contactEmail: string }>();
  /** Organizations named by realm uploads: UUID -> server UUID. */
  readonly realms = new Map<string, string>();
  readonly e2eeDevices = new Map<string, E2eeDevice>();
  /** Legacy tokens on record, by `<user_id>:<token_kind>:<token>`. */
  readonly legacyRegistry = new Map<string, RelayLegacyRecord>();
  /** What reached a provider for E2EE devices. */
  readonly e2eeDeliveries: E2eeDelivery[] = [];
  /** What reached a provider for legacy tokens. */
  readonly legacyDeliveries: LegacyDelivery[] = [];
  /** Applied to the next push requests in turn; when empty, `mode` applies. */
  readonly script: RelayMode[] = [];
  /**
   * Applied in turn to the next E2EE notify requests only, before `script`: background requests
   * (registrations, retries) cannot take a mode meant for the request a test makes.
   */
  readonly notifyScript: RelayMode[] = [];
  /** Applied before everything else to the requests whose body `matches`, each entry once, in order. */
  readonly matchedScript: Array<{ matches: (body: Record<string, any>) => boolean; mode: RelayMode }> = [];
  /** Set: the relay operator's plan refuses pushes for this reason (PUSH_NOTIFICATIONS_DISALLOWED). */
  pushDisallowed: string | undefined;
  /** For the push endpoints; server registration and realm uploads always answer as the relay. */
  mode: RelayMode = { kind: 'ok' };
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  static async start(): Promise<TestRelay> {
    // eslint-disable-next-line prefer-const -- assigned after the server that refers to it exists
    let relay: TestRelay;
    const server = http.createServer((req, res) => relay.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    relay = new TestRelay(server, `http://127.0.0.1:${port}`);
    live.set(relay.url, relay);
    return relay;
  }

  /** The running test relay at `url`, if any. */
  static at(url: string | undefined): TestRelay | undefined {
    return url ? live.get(url) : undefined;
  }

  /** A URL where nothing listens: connecting to it is refused. */
  static async refusingUrl(): Promise<string> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return `http://127.0.0.1:${port}`;
  }

  hasLegacy(userId: number, kind: 'apns' | 'fcm', token: string): boolean {
    return this.legacyRegistry.has(registryKey(userId, kind === 'apns' ? APNS : FCM, token));
  }

  requestsTo(suffix: string): RelayRequest[] {
    return this.requests.filter((r) => r.path.endsWith(suffix));
  }

  /** Fails the test file when any request broke the relay's shapes. */
  async close(): Promise<void> {
    live.delete(this.url);
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
    if (this.violations.length) throw new Error(`requests the family's relay would refuse:\n${this.violations.join('\n')}`);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const path = req.url ?? '';
      const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
      const body = parseBody(contentType, raw);
      const record: RelayRequest = { path, authorization: req.headers.authorization, contentType, body, at: Date.now() };
      this.requests.push(record);
      const send = (status: number, json: Record<string, unknown>) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      const fail = (err: ShapeError, violation: boolean) => {
        if (violation) this.violations.push(`${req.method} ${path}: ${err.message}`);
        send(err.status, { result: 'error', msg: err.message, code: err.code });
      };
      const route = ROUTES[path];
      if (!route || req.method !== 'POST') return fail(new ShapeError(`no such relay endpoint: ${req.method} ${path}`, 404, 'NOT_FOUND'), true);
      if (contentType !== route.type) return fail(new ShapeError(`sent as ${contentType || 'no content type'}, the relay reads ${route.type}`), true);
      if (route.auth) {
        const who = this.authenticate(req.headers.authorization);
        if (typeof who !== 'string') return fail(who, false);
        record.server = who;
      }
      // Shapes first: a request a test scripts to fail must still have been well formed.
      let answer: () => Record<string, unknown>;
      try {
        answer = route.handle(this, body, record.server!);
      } catch (err) {
        if (err instanceof ShapeError) return fail(err, !(err instanceof Refusal));
        throw err;
      }
      const mode = route.scripted ? this.nextMode(path, body) : { kind: 'ok' as const };
      switch (mode.kind) {
        case 'ok':
          try {
            return send(200, { result: 'success', msg: '', ...answer() });
          } catch (err) {
            if (err instanceof ShapeError) return fail(err, !(err instanceof Refusal));
            throw err;
          }
        case 'status':
          return send(mode.status, { result: 'error', msg: mode.msg ?? 'error', code: mode.code ?? 'BAD_REQUEST' });
        case 'garbage':
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<html>maintenance</html>');
          return;
        case 'hang':
          return;
      }
    });
  }

  /** The mode for this request, and the `ok` mode's extras for the answer. */
  private currentOk: Extract<RelayMode, { kind: 'ok' }> = { kind: 'ok' };
  private nextMode(path: string, body: Record<string, any>): RelayMode {
    const matched = this.matchedScript.findIndex((m) => m.matches(body));
    const scripted = matched >= 0 ? this.matchedScript.splice(matched, 1)[0]!.mode : path.endsWith('/e2ee/notify') ? this.notifyScript.shift() : undefined;
    const mode = scripted ?? this.script.shift() ?? this.mode;
    this.currentOk = mode.kind === 'ok' ? mode : { kind: 'ok' };
    return mode;
  }

  /** The relay's `authenticated_remote_server_view`: HTTP Basic with a registered server's UUID and key. */
  private authenticate(header: string | undefined): string | ShapeError {
    const m = /^Basic (.+)$/.exec(header ?? '');
    if (!m) return new Refusal('Missing authorization header for basic auth', 401, 'UNAUTHORIZED');
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const role = decoded.slice(0, colon);
    const server = this.servers.get(role);
    if (colon < 0 || !server) {
      return new Refusal(`Zulip server auth failure: ${role} is not registered -- did you run \`manage.py register_server\`?`, 401, 'UNAUTHORIZED');
    }
    if (server.apiKey !== decoded.slice(colon + 1)) return new Refusal(`Zulip server auth failure: key does not match role ${role}`, 401, 'UNAUTHORIZED');
    return role;
  }

  /** The relay's `get_remote_realm_helper`: null for an organization no realm upload named. */
  knownRealm(server: string, uuid: string): boolean {
    const owner = this.realms.get(uuid);
    if (owner === undefined) return false;
    if (owner !== server) throw new Refusal('Organization belongs to another server', 403, 'REMOTE_REALM_SERVER_MISMATCH_ERROR');
    return true;
  }

  okExtras(): Extract<RelayMode, { kind: 'ok' }> {
    return this.currentOk;
  }
}

function parseBody(contentType: string, raw: string): Record<string, any> {
  if (contentType === FORM) return Object.fromEntries(new URLSearchParams(raw));
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, any>) : { raw };
  } catch {
    return { raw };
  }
}

export function registryKey(userId: number, kind: number, token: string): string {
  return `${userId}:${kind}:${token}`;
}

interface Route {
  type: string;
  auth: boolean;
  /** Test scripts (failures, hangs) apply. */
  scripted: boolean;
  /** Checks the request; returns what a success answers (run only when the mode is ok). */
  handle(relay: TestRelay, body: Record<string, any>, server: string): () => Record<string, unknown>;
}

const ROUTES: Record<string, Route> = {
  '/api/v1/remotes/server/register': { type: FORM, auth: false, scripted: false, handle: registerServer },
  '/api/v1/remotes/server/analytics': { type: FORM, auth: true, scripted: false, handle: uploadRealms },
  '/api/v1/remotes/push/register': { type: FORM, auth: true, scripted: true, handle: legacyRegister },
  '/api/v1/remotes/push/unregister': { type: FORM, auth: true, scripted: true, handle: legacyUnregister },
  '/api/v1/remotes/push/unregister/all': { type: FORM, auth: true, scripted: true, handle: legacyUnregisterAll },
  '/api/v1/remotes/push/notify': { type: JSON_TYPE, auth: true, scripted: true, handle: legacyNotify },
  '/api/v1/remotes/push/e2ee/register': { type: FORM, auth: true, scripted: true, handle: e2eeRegister },
  '/api/v1/remotes/push/e2ee/notify': { type: JSON_TYPE, auth: true, scripted: true, handle: e2eeNotify },
};

/** `register_remote_server` (no credentials: it creates them). */
function registerServer(relay: TestRelay, f: Fields): () => Record<string, unknown> {
  allowedOnly('server/register', f, ['zulip_org_id', 'zulip_org_key', 'hostname', 'contact_email', 'new_org_key']);
  const uuid = str(f, 'zulip_org_id');
  const key = str(f, 'zulip_org_key');
  const hostname = str(f, 'hostname');
  const contactEmail = str(f, 'contact_email');
  const newKey = optStr(f, 'new_org_key');
  if (uuid.length !== 36) throw new ShapeError('zulip_org_id: must be 36 characters');
  if (key.length !== 64 || (newKey !== undefined && newKey.length !== 64)) throw new ShapeError('zulip_org_key: must be 64 characters');
  checkHostname(hostname);
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(contactEmail)) throw new ShapeError('Enter a valid email address.');
  checkUuid4(uuid, 'zulip_org_id');
  const existing = relay.servers.get(uuid);
  if (existing && existing.apiKey !== key) throw new Refusal(`Zulip server auth failure: key does not match role ${uuid}`, 400, 'INVALID_ZULIP_SERVER');
  if (!existing && [...relay.servers.values()].some((s) => s.hostname === hostname)) throw new Refusal(`A server with hostname ${hostname} already exists`);
  return () => {
    relay.servers.set(uuid, { apiKey: newKey ?? key, hostname, contactEmail });
    return { created: !existing };
  };
}

/** `remote_server_post_analytics`: only the organizations matter here; the counts must be well formed. */
function uploadRealms(relay: TestRelay, f: Fields, server: string): () => Record<string, unknown> {
  allowedOnly('server/analytics', f, ['realm_counts', 'installation_counts', 'realmauditlog_rows', 'realms', 'version', 'merge_base', 'api_feature_level']);
  for (const name of ['realm_counts', 'installation_counts']) if (!Array.isArray(jsonField(f, name))) throw new ShapeError(`${name} is not a list`);
  if (f.realmauditlog_rows !== undefined && !Array.isArray(jsonField(f, 'realmauditlog_rows'))) throw new ShapeError('realmauditlog_rows is not a list');
  const realms = jsonField(f, 'realms');
  if (!Array.isArray(realms)) throw new ShapeError('realms is not a list');
  const infos = realms.map(checkRealmInfo);
  for (const name of ['version', 'merge_base']) {
    const v = jsonField(f, name);
    if (v !== null && typeof v !== 'string') throw new ShapeError(`${name} is not a string`);
  }
  if (jsonInt(f, 'api_feature_level') === undefined) throw new ShapeError('api_feature_level missing');
  return () => {
    for (const r of infos) {
      const owner = relay.realms.get(r.uuid);
      if (owner !== undefined && owner !== server) throw new Refusal('Duplicate registration detected.');
      relay.realms.set(r.uuid, server);
    }
    return { realms: Object.fromEntries(infos.map((r) => [r.uuid, { can_push: relay.pushDisallowed === undefined, expected_end_timestamp: null }])) };
  };
}
