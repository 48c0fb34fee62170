import { z } from 'zod';
import { baseConfigSchema, loadConfig } from '@chat/kit';

export const configSchema = baseConfigSchema.extend({
  /** Whether the push service is configured; server_settings reports it to clients. */
  PUSH_NOTIFICATIONS_ENABLED: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Git reference or release this build came from, reported as svc_merge_base. */
  MERGE_BASE: z.string().default(''),
  /**
   * Realms with more people than this get no immediate presence events when someone comes
   * online (each would fan out to everyone); clients still see it on their next presence poll.
   */
  PRESENCE_EVENTS_MAX_USERS: z.coerce.number().int().min(0).default(1000),
});

export type UsersConfig = z.infer<typeof configSchema>;

export function readConfig(env: Record<string, string | undefined> = process.env): UsersConfig {
  return loadConfig(configSchema, env);
}
