import { z } from 'zod';
import { outgoingWebhookSettings } from './workers/outgoing-webhooks/settings';
import { baseConfigSchema, envBool, ConfigError, DEFAULT_METRICS_PORTS, loadConfig, metricsPort } from '@chat/kit';
import { emailGatewayDomain as gatewayDomain, isMailDomain } from '@chat/realm';
import { parseNetworks } from './lib/outbound';
import { derivedImageProxyKey } from './markdown/image-proxy';

export const configSchema = baseConfigSchema.extend({
  ...outgoingWebhookSettings,
  METRICS_PORT: metricsPort(DEFAULT_METRICS_PORTS.messaging),
  /** Channels with at least this many subscribers need permission for @all-style mentions. */
  WILDCARD_MENTION_LARGE_STREAM_THRESHOLD: z.coerce.number().int().min(0).default(15),
  /** Topics with more than this many participants need permission for @topic. */
  TOPIC_WILDCARD_MENTION_LARGE_THRESHOLD: z.coerce.number().int().min(0).default(15),
  /** Off: this replica does not deliver scheduled messages and reminders (others still do). */
  SCHEDULED_DELIVERY: envBool('true'),
  /** How often an idle replica looks for scheduled messages and reminders that fell due. */
  SCHEDULED_DELIVERY_POLL_MS: z.coerce.number().int().min(10).default(1000),
  /**
   * Off: this replica does not read the domain streams (the `messaging` consumer group), so it
   * sends no onboarding messages for new accounts; other replicas still do.
   */
  ONBOARDING_CONSUMER: envBool('true'),
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
    .refine((v) => v === '' || isMailDomain(v), {
      message: 'must be a domain name, such as chat.example.com',
    }),
  /**
   * Signs the image proxy's addresses (`/external_content/...`, the family's camo key). Must be
   * set in production; elsewhere derived from INTERNAL_SECRET. Changing it breaks the external
   * images of stored messages until they are rendered again.
   */
  IMAGE_PROXY_KEY: z.string().min(32).optional(),
  /** Largest image the proxy passes on. */
  IMAGE_PROXY_MAX_BYTES: z.coerce.number().int().min(1024).default(10 * 1024 * 1024),
  /** Largest page (or oEmbed answer) the link preview job reads. */
  URL_PREVIEW_MAX_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  /** Deadline of one outside request (image or page, redirects included). */
  EXTERNAL_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).default(10000),
  /**
   * Non-public networks (comma-separated CIDR ranges) the image proxy and link previews may
   * reach; none by default: private, loopback, link-local and other special addresses are refused.
   */
  EXTERNAL_FETCH_ALLOWED_NETWORKS: z
    .string()
    .default('')
    .refine((v) => {
      try {
        parseNetworks(v);
        return true;
      } catch {
        return false;
      }
    }, { message: 'must be comma-separated CIDR ranges, such as 10.0.0.0/8,fd00::/8' }),
  /** How long a page's preview (or that it has none) is kept in Redis. */
  URL_PREVIEW_CACHE_SECONDS: z.coerce.number().int().min(0).default(24 * 3600),
  /** Off: this replica does not run the link preview job (others still do). */
  URL_PREVIEW_WORKER: envBool('true'),
});

export type Config = z.infer<typeof configSchema> & { IMAGE_PROXY_KEY: string };

/** The domain of incoming-mail addresses: EMAIL_GATEWAY_DOMAIN, else EXTERNAL_HOST without its port. */
export function emailGatewayDomain(config: Pick<Config, 'EMAIL_GATEWAY_DOMAIN' | 'EXTERNAL_HOST'>): string {
  // One rule for every address of the gateway: the users service's reply addresses use it too.
  return gatewayDomain(config);
}

export function readConfig(overrides: Record<string, string | undefined> = {}): Config {
  const config = loadConfig(configSchema, { ...process.env, ...overrides });
  if (!config.IMAGE_PROXY_KEY && config.NODE_ENV === 'production') throw new ConfigError('Invalid configuration: IMAGE_PROXY_KEY must be set in production');
  return { ...config, IMAGE_PROXY_KEY: config.IMAGE_PROXY_KEY ?? derivedImageProxyKey(config.INTERNAL_SECRET) };
}
