/**
 * Settings of the inbound mail listener, validated at the messaging service's start beside its
 * own (app.ts). Kept apart from config.ts because a replica without the listener ignores them.
 */
import { z } from 'zod';
import { loadConfig } from '@chat/kit';

export const inboundMailConfigSchema = z.object({
  /** Port of the SMTP listener; empty: this replica runs none. `npm start` sets 2525. */
  INBOUND_SMTP_PORT: z.union([z.literal(''), z.coerce.number().int().min(0).max(65535)]).default(''),
  /** Address the listener binds; empty: the service's HOST. */
  INBOUND_SMTP_HOST: z.string().default(''),
  /** Largest mail accepted, in bytes (announced with SIZE); a bigger one is refused with 552. */
  INBOUND_MAIL_MAX_BYTES: z.coerce.number().int().min(1024).default(25 * 1024 * 1024),
  /** Mails one envelope sender may send through the gateway per minute; 0: no limit. */
  INBOUND_MAIL_SENDER_PER_MINUTE: z.coerce.number().int().min(0).default(20),
  /** Mails to one realm's channel addresses per minute (the family's mirror limit); 0: no limit. */
  INBOUND_MAIL_REALM_PER_MINUTE: z.coerce.number().int().min(0).default(50),
  /** The uploads service, where a mail's attachments are stored. */
  UPLOADS_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:9104'),
  /** Scheme and root realm of realm URLs, as the gateway's (links rendered in posted mail). */
  EXTERNAL_SCHEME: z.enum(['http', 'https']).default('http'),
  ROOT_REALM: z.string().default(''),
});

export type InboundMailConfig = z.infer<typeof inboundMailConfigSchema>;

export function readInboundMailConfig(overrides: Record<string, string | undefined> = {}): InboundMailConfig {
  return loadConfig(inboundMailConfigSchema, { ...process.env, ...overrides });
}
