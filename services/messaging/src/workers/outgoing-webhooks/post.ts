/**
 * The request to a bot's service. Its URL is chosen by whoever made the bot, so it gets the same
 * guard as every other request this service makes to addresses people chose (lib/outbound.ts):
 * every address the name resolves to is checked inside the connection's own lookup (a name
 * cannot answer public when checked and private when connected), a literal address before
 * connecting, and private, loopback, link-local and other special addresses are refused unless
 * OUTGOING_WEBHOOK_ALLOWED_NETWORKS names them. No redirects are followed (the family's bots
 * answer directly), and the answer's size is bounded.
 */
import type dns from 'node:dns';
import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { addressAllowed, type Network } from '../../lib/outbound';

/** What went wrong, in the family's terms: a timeout and a connection error are retried. */
export type PostFailure = 'timeout' | 'connection' | 'refused' | 'other';

export class PostError extends Error {
  constructor(
    readonly kind: PostFailure,
    message: string,
  ) {
    super(message);
    // Named as the family's requests library names these failures (the owner's notice shows it).
    this.name = { timeout: 'Timeout', connection: 'ConnectionError', refused: 'RefusedAddress', other: 'RequestException' }[kind];
  }
}

export interface PostOptions {
  body: string;
  contentType: string;
  timeoutMs: number;
  allowedNetworks: readonly Network[];
  /** Longest answer read; the rest is cut off (the family's bots answer a few lines). */
  maxBytes: number;
  userAgent: string;
}

export interface PostAnswer {
  status: number;
  text: string;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

const REFUSED = 'EOUTGOINGREFUSED';

function guardedLookup(allowed: readonly Network[]) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = addresses.find((a) => !addressAllowed(a.address, allowed));
      if (refused || addresses.length === 0) {
        return callback(Object.assign(new Error(`address not allowed: ${refused?.address ?? hostname}`), { code: REFUSED }), []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export function postGuarded(url: string, o: PostOptions): Promise<PostAnswer> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.reject(new PostError('other', 'not a URL'));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return Promise.reject(new PostError('other', 'only http and https are posted to'));
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  // A literal address is connected to without a lookup: checked here instead.
  if (net.isIP(host) && !addressAllowed(host, o.allowedNetworks)) return Promise.reject(new PostError('refused', `address not allowed: ${host}`));
  return new Promise((resolve, reject) => {
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(
      target,
      {
        method: 'POST',
        lookup: guardedLookup(o.allowedNetworks) as unknown as typeof dns.lookup,
        headers: { 'Content-Type': o.contentType, 'Content-Length': Buffer.byteLength(o.body), 'User-Agent': o.userAgent },
        // No pooled sockets: each request goes through the guarded lookup.
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < o.maxBytes) chunks.push(chunk.subarray(0, o.maxBytes - size));
          size += chunk.length;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (err) => reject(toPostError(err)));
      },
    );
    // The whole exchange, answer included, has one deadline.
    const timer = setTimeout(() => req.destroy(new PostError('timeout', 'timed out')), o.timeoutMs);
    req.on('error', (err) => reject(toPostError(err)));
    req.on('close', () => clearTimeout(timer));
    req.end(o.body);
  });
}

function toPostError(err: Error & { code?: string }): PostError {
  if (err instanceof PostError) return err;
  if (err.code === REFUSED) return new PostError('refused', err.message);
  if (err.code === 'ETIMEDOUT') return new PostError('timeout', err.message);
  // Refused, reset, unreachable, unknown name: what the family's requests calls a connection error.
  if (err.code && /^(ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|EPIPE)$/.test(err.code)) return new PostError('connection', err.message);
  return new PostError('other', err.message);
}
