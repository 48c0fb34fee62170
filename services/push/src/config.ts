import { z } from 'zod';
import { baseConfigSchema, envBool, DEFAULT_METRICS_PORTS, loadConfig, metricsPort } from '@chat/kit';

const optionalUrl = z
  .string()
  .optional()
  .transform((v) => (v ? v.replace(/\/+$/, '') : undefined))
  .refine((v) => v === undefined || /^https?:\/\/[^/]/.test(v), 'must be an http(s) URL');

export const configSchema = baseConfigSchema.extend({
  METRICS_PORT: metricsPort(DEFAULT_METRICS_PORTS.push),
  /** Base URL of the push relay ("bouncer"). Unset: push is not configured. */
  PUSH_RELAY_URL: optionalUrl,
  /**
   * How often the list of organizations is uploaded to the relay (it is also uploaded at start
   * and when the relay reports one it does not know).
   */
  PUSH_RELAY_REALMS_INTERVAL_MS: z.coerce.number().int().min(1000).default(3_600_000),
  /** One relay request; past it the request counts as a network failure. */
  PUSH_RELAY_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  /** Attempts per delivery job (the first included) before it is given up. */
  PUSH_RETRY_ATTEMPTS: z.coerce.number().int().min(1).default(10),
  /** First retry delay; each later retry waits twice as long as the one before. */
  PUSH_RETRY_BASE_MS: z.coerce.number().int().min(1).default(2_000),
  /**
   * A notification for a user with an active client waits this long, so that a client that
   * shows the message meanwhile (and marks it read) makes the push unnecessary.
   */
  PUSH_ACTIVE_USER_DELAY_MS: z.coerce.number().int().min(0).default(10_000),
  /** A client whose event queue was used within this many seconds counts as active. */
  PUSH_ACTIVE_CLIENT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(140),
  /** Jobs one worker runs at once. */
  PUSH_WORKER_CONCURRENCY: z.coerce.number().int().min(1).default(8),
  /** Off: this replica serves the API only, and neither consumes streams nor runs jobs. */
  PUSH_RUN_WORKERS: envBool('true'),
  /**
   * Where clients reach the server, as the gateway is configured: a realm's URL is
   * <scheme>://<string_id>.<host>, and the ROOT_REALM's is <scheme>://<host>.
   */
  EXTERNAL_HOST: z.string().default('127.0.0.1:9991'),
  EXTERNAL_SCHEME: z.enum(['http', 'https']).default('http'),
  ROOT_REALM: z.string().default(''),
  /** Name of this replica in the stream consumer group; defaults to host name and pid. */
  CONSUMER_NAME: z.string().default(''),
});

export type PushConfig = z.infer<typeof configSchema>;

export function readConfig(env: Record<string, string | undefined> = process.env): PushConfig {
  return loadConfig(configSchema, env);
}
