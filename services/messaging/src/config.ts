import { z } from 'zod';
import { baseConfigSchema, DEFAULT_METRICS_PORTS, loadConfig, metricsPort } from '@chat/kit';

const bool = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'])
    .default(fallback)
    .transform((v) => v === 'true');

export const configSchema = baseConfigSchema.extend({
  METRICS_PORT: metricsPort(DEFAULT_METRICS_PORTS.messaging),
  /** Channels with at least this many subscribers need permission for @all-style mentions. */
  WILDCARD_MENTION_LARGE_STREAM_THRESHOLD: z.coerce.number().int().min(0).default(15),
  /** Topics with more than this many participants need permission for @topic. */
  TOPIC_WILDCARD_MENTION_LARGE_THRESHOLD: z.coerce.number().int().min(0).default(15),
  /** Off: this replica does not deliver scheduled messages and reminders (others still do). */
  SCHEDULED_DELIVERY: bool('true'),
  /** How often an idle replica looks for scheduled messages and reminders that fell due. */
  SCHEDULED_DELIVERY_POLL_MS: z.coerce.number().int().min(10).default(1000),
  /**
   * Off: this replica does not read the domain streams (the `messaging` consumer group), so it
   * sends no onboarding messages for new accounts; other replicas still do.
   */
  ONBOARDING_CONSUMER: bool('true'),
  /** Name of this replica in the consumer group; default `<hostname>-<pid>`. Stable names resume their pending entries at once after a restart. */
  CONSUMER_NAME: z.string().default(''),
  /**
   * Statements of each kind a channel send runs (its read, its write) running at once on this
   * replica's pool; sends that arrive meanwhile go together in the next one (ADR 0031).
   */
  SEND_STATEMENTS_IN_FLIGHT: z.coerce.number().int().min(1).max(64).default(1),
  /** Public host (and port) of the server, as the gateway's EXTERNAL_HOST. */
  EXTERNAL_HOST: z.string().default('127.0.0.1:9991'),
  /**
   * Mail domain of channels' incoming-mail addresses (`<channel>.<token>.show-sender@<domain>`);
   * empty: the host name of EXTERNAL_HOST.
   */
  EMAIL_GATEWAY_DOMAIN: z
    .string()
    .default('')
    .refine((v) => v === '' || /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(v), {
      message: 'must be a domain name, such as chat.example.com',
    }),
});

export type Config = z.infer<typeof configSchema>;

/** The domain of incoming-mail addresses: EMAIL_GATEWAY_DOMAIN, else EXTERNAL_HOST without its port. */
export function emailGatewayDomain(config: Pick<Config, 'EMAIL_GATEWAY_DOMAIN' | 'EXTERNAL_HOST'>): string {
  if (config.EMAIL_GATEWAY_DOMAIN) return config.EMAIL_GATEWAY_DOMAIN;
  const host = config.EXTERNAL_HOST.replace(/^\[([^\]]+)\](:\d+)?$/, '$1').replace(/:\d+$/, '');
  return host || 'localhost';
}

export function readConfig(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig(configSchema, { ...process.env, ...overrides });
}
