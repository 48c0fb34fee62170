import { z } from 'zod';

/** STREAM_PARTITIONS unless set: how many domain event streams there are (docs/bus.md). */
export const DEFAULT_STREAM_PARTITIONS = 8;

/**
 * Settings every service reads. Each service extends this with its own keys; the whole
 * object is validated once at start so a bad deployment fails loudly before serving.
 */
export const baseConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Names this process in Redis CLIENT LIST (`<SERVICE_NAME>:<connection>`); one per replica where it helps. */
  SERVICE_NAME: z.string().regex(/^\S+$/, 'must be one word').default('chat'),
  DATABASE_URL: z.string().default('postgresql://postgres@127.0.0.1:5432/chat'),
  /** Connections in each Prisma pool of the process (pg's default, 10, unless set). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  /** Prefix of every Redis key, so several clusters (or test files) can share one Redis. */
  REDIS_PREFIX: z.string().regex(/^[^{}]*$/, 'must not contain braces (they would break the hash tags)').default('chat:'),
  /**
   * Domain stream partitions (docs/bus.md). Producers and consumers must agree, so every service
   * reads it and every deployment sets it the same everywhere.
   */
  STREAM_PARTITIONS: z.coerce.number().int().min(1).max(1024).default(DEFAULT_STREAM_PARTITIONS),
  /** Signs the caller identity the gateway hands to services. Must be set in production. */
  INTERNAL_SECRET: z.string().min(16).default('development-internal-secret-change-me'),
  /**
   * Port of the Prometheus endpoint (GET /metrics), kept apart from the service's port so that
   * it is never public; each service sets its own default (metricsPort). Tests get 0 (a free
   * port) unless they ask for one.
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10000),
  /** Git reference or release this build came from, reported as svc_merge_base/zulip_merge_base. */
  MERGE_BASE: z.string().default(''),
});

/** A boolean setting: exactly `true` or `false` (anything else fails at start), else `fallback`. */
export const envBool = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'])
    .default(fallback)
    .transform((v) => v === 'true');

/** Where the server is reached from outside: the settings every service that writes links has. */
export interface ExternalSite {
  EXTERNAL_SCHEME: 'http' | 'https';
  EXTERNAL_HOST: string;
  ROOT_REALM: string;
}

/**
 * A realm's URL, the one answer for every service: `<scheme>://<string_id>.<host>`, and the
 * ROOT_REALM's `<scheme>://<host>` (the gateway serves it on the bare host), whatever its id.
 */
export function realmUrlFor(site: ExternalSite, stringId: string): string {
  const host = stringId === site.ROOT_REALM ? site.EXTERNAL_HOST : `${stringId}.${site.EXTERNAL_HOST}`;
  return `${site.EXTERNAL_SCHEME}://${host}`;
}

/** METRICS_PORT with this service's default. */
export const metricsPort = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** Default METRICS_PORT of each service: next to its development port, distinct per service. */
export const DEFAULT_METRICS_PORTS = {
  gateway: 9191,
  messaging: 9201,
  users: 9202,
  events: 9203,
  uploads: 9204,
  push: 9205,
} as const;

export type BaseConfig = z.infer<typeof baseConfigSchema>;

export class ConfigError extends Error {}

export function loadConfig<S extends z.ZodType>(schema: S, env: Record<string, string | undefined> = process.env): z.infer<S> {
  // Test processes run side by side: a fixed metrics port would collide (also where a test
  // starts a service configured as in production).
  const testing = env.NODE_ENV === 'test' || process.env.NODE_ENV === 'test';
  if (testing && env.METRICS_PORT === undefined) env = { ...env, METRICS_PORT: '0' };
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const config = parsed.data as z.infer<S> & Partial<BaseConfig>;
  if (config.NODE_ENV === 'production' && config.INTERNAL_SECRET === baseConfigSchema.shape.INTERNAL_SECRET.parse(undefined)) {
    throw new ConfigError('Invalid configuration: INTERNAL_SECRET must be set in production');
  }
  return config;
}

/**
 * For a service's entry point: the validated configuration, or the reason it is invalid on
 * stderr and exit status 1, before anything (the logger included) is built from a bad value.
 */
export function configOrExit<T>(service: string, read: () => T, exit: (code: number) => never = process.exit, stderr: (line: string) => void = (l) => process.stderr.write(l)): T {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    stderr(`${service}: ${err.message}\n`);
    return exit(1);
  }
}
