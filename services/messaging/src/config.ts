import { z } from 'zod';
import { baseConfigSchema, loadConfig } from '@chat/kit';

export const configSchema = baseConfigSchema.extend({
  /** Channels with at least this many subscribers need permission for @all-style mentions. */
  WILDCARD_MENTION_LARGE_STREAM_THRESHOLD: z.coerce.number().int().min(0).default(15),
  /** Topics with more than this many participants need permission for @topic. */
  TOPIC_WILDCARD_MENTION_LARGE_THRESHOLD: z.coerce.number().int().min(0).default(15),
});

export type Config = z.infer<typeof configSchema>;

export function readConfig(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig(configSchema, { ...process.env, ...overrides });
}
