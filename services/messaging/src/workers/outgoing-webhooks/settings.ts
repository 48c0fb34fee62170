/**
 * The settings of outgoing webhooks, validated at start with the rest of the service's config
 * (config.ts spreads them in). docs/integrations.md, "Outgoing webhooks", lists them.
 */
import { z } from 'zod';
import { envBool } from '@chat/kit';
import { parseNetworks } from '../../lib/outbound';

export const outgoingWebhookSettings = {
  /** Off: this replica neither reads new messages for bots nor runs their requests (others still do). */
  OUTGOING_WEBHOOKS: envBool('true'),
  /** Deadline of one request to a bot's service (the family's OUTGOING_WEBHOOK_TIMEOUT_SECONDS). */
  OUTGOING_WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(300).default(10),
  /** Further tries after a timeout or a connection error, before the bot is reported unavailable (the family's 3). */
  OUTGOING_WEBHOOK_RETRIES: z.coerce.number().int().min(0).max(20).default(3),
  /** First wait before a retry; each next one doubles. */
  OUTGOING_WEBHOOK_RETRY_DELAY_MS: z.coerce.number().int().min(0).default(1000),
  /** Requests to bots' services in flight at once on this replica. */
  OUTGOING_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  /**
   * Non-public networks (comma-separated CIDR ranges) bots' services may be reached in. None by
   * default: private, loopback, link-local and other special addresses are refused. `npm start`
   * allows loopback so that a bot can be developed on the same machine.
   */
  OUTGOING_WEBHOOK_ALLOWED_NETWORKS: z
    .string()
    .default('')
    .refine(
      (v) => {
        try {
          parseNetworks(v);
          return true;
        } catch {
          return false;
        }
      },
      { message: 'must be comma-separated CIDR ranges, such as 127.0.0.0/8,::1/128' },
    ),
  /**
   * How realm URLs are formed (links in the owner's notices): <scheme>://<string_id>.<EXTERNAL_HOST>,
   * and ROOT_REALM's is <scheme>://<EXTERNAL_HOST>, as the gateway maps hosts to realms.
   */
  EXTERNAL_SCHEME: z.enum(['http', 'https']).default('http'),
  ROOT_REALM: z.string().default(''),
};
