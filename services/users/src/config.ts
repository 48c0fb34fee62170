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
});

export type UsersConfig = z.infer<typeof configSchema>;

export function readConfig(env: Record<string, string | undefined> = process.env): UsersConfig {
  return loadConfig(configSchema, env);
}
