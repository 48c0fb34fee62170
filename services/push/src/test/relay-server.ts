import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A push relay for tests: a real HTTP server on a free port that answers the way the relay
 * would, or fails the way a relay can. Every request it receives is recorded.
 *
 * Like a real relay it keeps a registry of legacy tokens (`remotes/push/register`,
 * `unregister`, `unregister/all`) and delivers a legacy notification only to the listed tokens
 * it holds for that user; the others it reports in `deleted_devices`, as a real relay does.
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
  body: Record<string, unknown>;
  /** When it arrived (ms since the epoch). */
  at: number;
}

/** A legacy token the relay holds. */
export interface RelayLegacyRecord {
  user_id: number;
  token_kind: number;
  token: string;
  ios_app_id?: string;
}

/** One legacy notification handed to the provider for one token. */
export interface LegacyDelivery {
  user_id: number;
  kind: 'apns' | 'fcm';
  token: string;
  payload: Record<string, unknown>;
}

const APNS = 1;
const FCM = 2;

export class TestRelay {
  readonly requests: RelayRequest[] = [];
  /** Legacy tokens on record, by `<user_id>:<token_kind>:<token>`. */
  readonly legacyRegistry = new Map<string, RelayLegacyRecord>();
  /** What reached a provider for legacy tokens. */
  readonly legacyDeliveries: LegacyDelivery[] = [];
  /** Applied to the next requests in turn; when empty, `mode` applies. */
  readonly script: RelayMode[] = [];
  /**
   * Applied in turn to the next E2EE notify requests only, before `script`: background requests
   * (registrations, retries) cannot take a mode meant for the request a test makes.
   */
  readonly notifyScript: RelayMode[] = [];
  /**
   * Applied before everything else to the requests whose body `matches`, each entry once, in
   * order: a test scripts one device's requests without racing other devices' retries.
   */
  readonly matchedScript: Array<{ matches: (body: Record<string, unknown>) => boolean; mode: RelayMode }> = [];
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
    return relay;
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

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw);
      } catch {
        body = { raw };
      }
      this.requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body, at: Date.now() });
      const matched = this.matchedScript.findIndex((m) => m.matches(body));
      const scripted = matched >= 0
        ? this.matchedScript.splice(matched, 1)[0]!.mode
        : req.url?.endsWith('/e2ee/notify') ? this.notifyScript.shift() : undefined;
      const mode = scripted ?? this.script.shift() ?? this.mode;
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      switch (mode.kind) {
        case 'ok': {
          const url = req.url ?? '';
          if (url.endsWith('/remotes/push/notify')) send(200, this.legacyNotify(body, mode.deletedDevices));
          else if (url.endsWith('/remotes/push/register')) send(200, this.legacyRegister(body));
          else if (url.endsWith('/remotes/push/unregister')) {
            const answer = this.legacyUnregister(body);
            send(answer ? 200 : 400, answer ?? { result: 'error', msg: 'Token does not exist', code: 'BAD_REQUEST' });
          } else if (url.endsWith('/remotes/push/unregister/all')) {
            for (const [k, r] of this.legacyRegistry) if (r.user_id === body.user_id) this.legacyRegistry.delete(k);
            send(200, { result: 'success', msg: '' });
          } else if (req.url?.endsWith('/notify')) send(200, { result: 'success', msg: '', expired_token_ids: mode.expiredTokenIds ?? [] });
          else send(200, { result: 'success', msg: '', device_id: this.requests.length });
          return;
        }
        case 'status':
          send(mode.status, { result: 'error', msg: mode.msg ?? 'error', code: mode.code ?? 'BAD_REQUEST' });
          return;
        case 'garbage':
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<html>maintenance</html>');
          return;
        case 'hang':
          return;
      }
    });
  }

  private legacyRegister(body: Record<string, unknown>) {
    const record: RelayLegacyRecord = {
      user_id: body.user_id as number,
      token_kind: body.token_kind as number,
      token: body.token as string,
      ...(typeof body.ios_app_id === 'string' ? { ios_app_id: body.ios_app_id } : {}),
    };
    // Registering again is harmless: the record is replaced.
    this.legacyRegistry.set(registryKey(record.user_id, record.token_kind, record.token), record);
    return { result: 'success', msg: '' };
  }

  private legacyUnregister(body: Record<string, unknown>) {
    const gone = this.legacyRegistry.delete(registryKey(body.user_id as number, body.token_kind as number, body.token as string));
    return gone ? { result: 'success', msg: '' } : null;
  }

  /**
   * Sends to the listed tokens the relay holds for the user; reports the listed ones it does not
   * hold, and those `deletedDevices` says the provider refused (which it then forgets), as deleted.
   */
  private legacyNotify(body: Record<string, unknown>, refused = { android_devices: [] as string[], apple_devices: [] as string[] }) {
    const userId = body.user_id as number;
    const handle = (list: unknown, kind: 'apns' | 'fcm', refusedHere: string[]) => {
      const deleted: string[] = [];
      let sent = 0;
      for (const token of Array.isArray(list) ? (list as string[]) : []) {
        const key = registryKey(userId, kind === 'apns' ? APNS : FCM, token);
        if (!this.legacyRegistry.has(key) || refusedHere.includes(token)) {
          this.legacyRegistry.delete(key);
          deleted.push(token);
          continue;
        }
        const payload = (kind === 'apns' ? body.apns_payload : body.gcm_payload) as Record<string, unknown>;
        this.legacyDeliveries.push({ user_id: userId, kind, token, payload });
        sent++;
      }
      return { sent, deleted };
    };
    const android = handle(body.android_devices, 'fcm', refused.android_devices);
    const apple = handle(body.apple_devices, 'apns', refused.apple_devices);
    return {
      result: 'success',
      msg: '',
      total_android_devices: android.sent,
      total_apple_devices: apple.sent,
      deleted_devices: { android_devices: android.deleted, apple_devices: apple.deleted },
    };
  }
}

function registryKey(userId: number, kind: number, token: string): string {
  return `${userId}:${kind}:${token}`;
}

