import path from 'node:path';
import { z } from 'zod';
import { LIMITS } from '@chat/contracts';
import { baseConfigSchema, envBool, DEFAULT_METRICS_PORTS, loadConfig, metricsPort } from '@chat/kit';

export const configSchema = baseConfigSchema.extend({
  METRICS_PORT: metricsPort(DEFAULT_METRICS_PORTS.uploads),
  /** Where files live: the local disk (default) or any S3-compatible store. */
  UPLOADS_BACKEND: z.enum(['local', 's3']).default('local'),
  /** Root folder of the local backend. Replicas sharing it must share the disk (NFS, volume). */
  UPLOADS_DIR: z.string().default(path.join('.data', 'uploads')),
  S3_BUCKET: z.string().default('chat-uploads'),
  /** Endpoint of an S3-compatible store (MinIO, s3rver); unset means AWS S3 itself. */
  S3_ENDPOINT: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Path-style addressing (bucket in the path): what MinIO and s3rver expect. */
  S3_FORCE_PATH_STYLE: envBool('true'),
  /** Lifetime of the signed URLs that S3 downloads redirect to. */
  S3_SIGNED_URL_SECONDS: z.coerce.number().int().min(1).max(7 * 24 * 3600).default(60),
  MAX_FILE_UPLOAD_SIZE_MIB: z.coerce.number().int().min(1).max(1024 * 1024).default(LIMITS.maxFileUploadSizeMib),
  MAX_AVATAR_FILE_SIZE_MIB: z.coerce.number().int().min(1).max(1024).default(5),
  /** Mixed into avatar storage names so that avatars cannot be enumerated by user id. */
  AVATAR_SALT: z.string().default('development-avatar-salt'),
  /** Run the background parts (message link consumer, thumbnail and cleanup workers) here. */
  RUN_WORKERS: envBool('true'),
  /** Unreferenced files older than this are deleted by the cleanup job. */
  UNCLAIMED_ATTACHMENT_DAYS: z.coerce.number().min(0).default(21),
  CLEANUP_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(3600),
  /** Name of this replica in the stream consumer group; defaults to host name and pid. */
  CONSUMER_NAME: z.string().default(''),
  /** Unfinished resumable uploads are dropped after this long without progress. */
  TUS_EXPIRY_HOURS: z.coerce.number().min(0).default(24),
});

export type UploadsConfig = z.infer<typeof configSchema>;

export function readConfig(env: Record<string, string | undefined> = process.env): UploadsConfig {
  return loadConfig(configSchema, env);
}
