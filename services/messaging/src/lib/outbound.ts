/**
 * Requests this service makes to addresses that people put in messages: images for the image
 * proxy and pages for link previews. A message's author chooses the address, so every request
 * is guarded as the family's outgoing sessions and camo are: only http(s), a deadline and a size
 * limit, and no connection to a private, loopback, link-local or otherwise non-public address
 * unless the operator's EXTERNAL_FETCH_ALLOWED_NETWORKS names it. The check is made on every
 * address the name resolves to, inside the connection's own lookup, so a name cannot resolve
 * to a public address when checked and a private one when connected; redirects are followed by
 * hand and each hop is checked again.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export type OutboundFailure = 'scheme' | 'address' | 'status' | 'size' | 'timeout' | 'redirects' | 'network';

export class OutboundError extends Error {
  constructor(
    readonly reason: OutboundFailure,
    message: string,
  ) {
    super(message);
  }
}

export type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

export interface OutboundPolicy {
  /** Non-public networks the operator allows (CIDR ranges). */
  allowedNetworks: Network[];
  timeoutMs: number;
  maxBytes: number;
  maxRedirects?: number;
}

/** Comma-separated CIDR ranges (`10.0.0.0/8, fd00::/8`); throws on one that does not parse. */
export function parseNetworks(spec: string): Network[] {
  return spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      try {
        return ipaddr.parseCIDR(s);
      } catch {
        throw new Error(`not a CIDR range: ${s}`);
      }
    });
}

/** Whether a connection to `address` is allowed: a public unicast address, or one the operator allows. */
export function addressAllowed(address: string, allowed: readonly Network[]): boolean {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.process(address);
  } catch {
    return false;
  }
  // ipaddr's 'unicast' is what remains after every special-purpose range (private, loopback,
  // link-local, unique local, carrier NAT, 6to4 and Teredo wrappers of IPv4, ...).
  if (ip.range() === 'unicast') return true;
  return allowed.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

function guardedLookup(allowed: readonly Network[]) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = addresses.find((a) => !addressAllowed(a.address, allowed));
      if (refused || !addresses.length) {
        return callback(Object.assign(new Error(`address not allowed: ${refused?.address ?? hostname}`), { code: 'EREFUSEDADDRESS' }), []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export interface OutboundResponse {
  /** The address finally answered, after redirects. */
  url: string;
  contentType: string;
  body: Buffer;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GET `url` within the policy; `accept` is sent as the Accept header. Answers other than 2xx,
 * bodies over the limit and anything past the deadline (the whole exchange, redirects
 * included) are OutboundErrors.
 */
export async function guardedGet(url: string, policy: OutboundPolicy, accept: string): Promise<OutboundResponse> {
  const deadline = Date.now() + policy.timeoutMs;
  let current = url;
  for (let hop = 0; hop <= (policy.maxRedirects ?? 3); hop++) {
    const answer = await getOnce(current, policy, accept, deadline);
    if ('location' in answer) {
      current = new URL(answer.location, current).href;
      continue;
    }
    return answer;
  }
  throw new OutboundError('redirects', 'too many redirects');
}

function getOnce(url: string, policy: OutboundPolicy, accept: string, deadline: number): Promise<OutboundResponse | { location: string }> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.reject(new OutboundError('scheme', 'not a URL'));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return Promise.reject(new OutboundError('scheme', 'only http and https are fetched'));
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  // A literal address is connected to without a lookup: checked here instead.
  if (net.isIP(host) && !addressAllowed(host, policy.allowedNetworks)) return Promise.reject(new OutboundError('address', `address not allowed: ${host}`));
  const remaining = deadline - Date.now();
  if (remaining <= 0) return Promise.reject(new OutboundError('timeout', 'timed out'));

  return new Promise((resolve, reject) => {
    const client = target.protocol === 'https:' ? https : http;
    const req = client.get(
      target,
      {
        lookup: guardedLookup(policy.allowedNetworks) as unknown as typeof dns.lookup,
        headers: { 'User-Agent': 'Mozilla/5.0 (compatible; ChatLinkPreview/1.0)', Accept: accept, 'Accept-Encoding': 'identity' },
        timeout: remaining,
        // No pooled sockets: each request goes through the guarded lookup.
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (REDIRECTS.has(status) && res.headers.location) {
          res.resume();
          return resolve({ location: res.headers.location });
        }
        if (status < 200 || status >= 300) {
          res.resume();
          return reject(new OutboundError('status', `answered ${status}`));
        }
        const declared = Number(res.headers['content-length'] ?? NaN);
        if (declared > policy.maxBytes) {
          reject(new OutboundError('size', 'too large'));
          req.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > policy.maxBytes) {
            // Settled first: a destroyed response may still report its end.
            reject(new OutboundError('size', 'too large'));
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => size <= policy.maxBytes && resolve({ url: target.href, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }));
        res.on('error', (err) => reject(toOutboundError(err)));
      },
    );
    const timer = setTimeout(() => req.destroy(new OutboundError('timeout', 'timed out')), remaining);
    req.on('timeout', () => req.destroy(new OutboundError('timeout', 'timed out')));
    req.on('error', (err) => reject(toOutboundError(err)));
    req.on('close', () => clearTimeout(timer));
  });
}

function toOutboundError(err: Error & { code?: string }): OutboundError {
  if (err instanceof OutboundError) return err;
  if (err.code === 'EREFUSEDADDRESS') return new OutboundError('address', err.message);
  return new OutboundError('network', err.message);
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}
