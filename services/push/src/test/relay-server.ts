import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A push relay for tests: a real HTTP server on a free port that answers the way the relay
 * would, or fails the way a relay can. Every request it receives is recorded.
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

export class TestRelay {
  readonly requests: RelayRequest[] = [];
  /** Applied to the next requests in turn; when empty, `mode` applies. */
  readonly script: RelayMode[] = [];
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
      const mode = this.script.shift() ?? this.mode;
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      switch (mode.kind) {
        case 'ok':
          if (req.url?.endsWith('/remotes/push/notify')) send(200, legacyNotifyAnswer(body, mode.deletedDevices));
          else if (req.url?.endsWith('/notify')) send(200, { result: 'success', msg: '', expired_token_ids: mode.expiredTokenIds ?? [] });
          else send(200, { result: 'success', msg: '', device_id: this.requests.length });
          return;
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
}

/** The relay's answer to a legacy notification: how many tokens of each kind it sent to, and which it dropped. */
function legacyNotifyAnswer(body: Record<string, unknown>, deleted = { android_devices: [] as string[], apple_devices: [] as string[] }) {
  const count = (list: unknown, gone: string[]) => (Array.isArray(list) ? list.filter((t) => !gone.includes(t)).length : 0);
  return {
    result: 'success',
    msg: '',
    total_android_devices: count(body.android_devices, deleted.android_devices),
    total_apple_devices: count(body.apple_devices, deleted.apple_devices),
    deleted_devices: deleted,
  };
}
