import path from 'node:path';
import { z } from 'zod';
import { baseConfigSchema, DEFAULT_METRICS_PORTS, loadConfig, metricsPort } from '@chat/kit';

const url = z.string().url();

export const gatewayConfigSchema = baseConfigSchema.extend({
  METRICS_PORT: metricsPort(DEFAULT_METRICS_PORTS.gateway),
  PORT: z.coerce.number().int().min(0).max(65535).default(9991),
  /** Host clients reach the cluster at; realm subdomains hang below it. */
  EXTERNAL_HOST: z.string().default('127.0.0.1:9991'),
  EXTERNAL_SCHEME: z.enum(['http', 'https']).default('http'),
  /** Realm served on the bare EXTERNAL_HOST (single-realm installs): its string id. */
  ROOT_REALM: z.string().default(''),
  MESSAGING_URL: url.default('http://127.0.0.1:9101'),
  USERS_URL: url.default('http://127.0.0.1:9102'),
  EVENTS_URL: url.default('http://127.0.0.1:9103'),
  UPLOADS_URL: url.default('http://127.0.0.1:9104'),
  PUSH_URL: url.default('http://127.0.0.1:9105'),
  /** A blocking GET /events with nothing to deliver answers with a heartbeat after this long. */
  EVENTS_HEARTBEAT_SECONDS: z.coerce.number().positive().default(50),
  /**
   * How long the acknowledgement of a re-poll held without reading its queue (ADR 0026) waits for
   * others to share its Redis call. A queue whose client polls again within it is acknowledged
   * once, with its latest id: at a message every second or more often, most recipients' queues.
   */
  EVENTS_ACK_BATCH_MS: z.coerce.number().int().min(1).max(10_000).default(1000),
  /** Requests per user per minute; 0 disables. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(200),
  /**
   * Failed HTTP Basic attempts (wrong API keys) allowed per window from one client address, and
   * per claimed email; past either the answer is RATE_LIMIT_HIT with Retry-After. A correct key
   * still passes when only its email is over the limit, so strangers cannot lock a user out.
   * 0 disables a limit.
   */
  BASIC_AUTH_FAILURES_PER_IP: z.coerce.number().int().min(0).default(30),
  BASIC_AUTH_FAILURES_PER_IP_SECONDS: z.coerce.number().int().min(1).default(60),
  BASIC_AUTH_FAILURES_PER_EMAIL: z.coerce.number().int().min(0).default(30),
  BASIC_AUTH_FAILURES_PER_EMAIL_SECONDS: z.coerce.number().int().min(1).default(60),
  /**
   * Reverse proxies in front of the gateway that append to X-Forwarded-For (a load balancer, an
   * ingress): the client address is that many entries from the right. 0: the socket's peer.
   */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).default(0),
  AUTH_CACHE_SECONDS: z.coerce.number().int().min(0).default(60),
  /**
   * How long each gateway process also keeps a key it found good, in memory (ADR 0022); every
   * replica drops them all when the users service forgets a key. 0 disables, as does
   * AUTH_CACHE_SECONDS=0.
   */
  AUTH_LOCAL_CACHE_SECONDS: z.coerce.number().min(0).default(10),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(120000),
  /**
   * The web app's build (web/dist: index.html, the shell served at `/`, and the files it names
   * below /static/app/). Without an index.html the gateway warns at start and `/` says the web
   * app is not built. Default: the repository's web/dist (from src/ and dist/ alike).
   */
  WEB_DIST_DIR: z.string().min(1).default(path.resolve(__dirname, '../../../web/dist')),
  /**
   * How far V8 lets the heap grow past what survived the last full collection, in percent; 0
   * leaves V8's own factor (up to 300%). Held long-polls are most of the live heap, so V8's
   * default would let resident memory reach several times their size (ADR 0004).
   */
  HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(300).default(50),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

export function readConfig(overrides: Record<string, string | undefined> = {}): GatewayConfig {
  return loadConfig(gatewayConfigSchema, { ...process.env, ...overrides });
}
