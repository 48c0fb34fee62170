import { z } from 'zod';
import { baseConfigSchema, envBool, DEFAULT_METRICS_PORTS, loadConfig, metricsPort } from '@chat/kit';

export const configSchema = baseConfigSchema.extend({
  METRICS_PORT: metricsPort(DEFAULT_METRICS_PORTS.events),
  /**
   * How long a replica's claim on a stream partition lasts without renewal, so also how long a
   * dead replica's partitions wait before another replica takes them over.
   */
  PARTITION_LEASE_MS: z.coerce.number().int().min(200).default(10000),
  /** Entries read from a partition per round trip. */
  FANOUT_BATCH: z.coerce.number().int().min(1).max(10000).default(200),
  /** Run the outbox relay in this process (one leader across replicas is elected in Postgres). */
  OUTBOX_RELAY: envBool('true'),
  /** Whether the push service is configured (realm_push_notifications_enabled), as for the users service. */
  PUSH_NOTIFICATIONS_ENABLED: envBool('false'),
  /** How often stale ids are swept out of the queue index sets. */
  INDEX_SWEEP_MS: z.coerce.number().int().min(1000).default(300000),
});

export type Config = z.infer<typeof configSchema>;

export function readConfig(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig(configSchema, { ...process.env, ...overrides });
}
