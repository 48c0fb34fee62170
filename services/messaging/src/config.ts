import { z } from 'zod';
import { baseConfigSchema, loadConfig } from '@chat/kit';

const bool = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'])
    .default(fallback)
    .transform((v) => v === 'true');

export const configSchema = baseConfigSchema.extend({
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
});

export type Config = z.infer<typeof configSchema>;

export function readConfig(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig(configSchema, { ...process.env, ...overrides });
}
