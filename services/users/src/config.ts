import { z } from 'zod';
import { baseConfigSchema, envBool, DEFAULT_METRICS_PORTS, loadConfig, metricsPort } from '@chat/kit';

export const configSchema = baseConfigSchema
  .extend({
    METRICS_PORT: metricsPort(DEFAULT_METRICS_PORTS.users),
    /** Public host (and port) and scheme, as the gateway's: the site URLs the CLI prints. */
    EXTERNAL_HOST: z.string().default('127.0.0.1:9991'),
    EXTERNAL_SCHEME: z.enum(['http', 'https']).default('http'),
    /** Whether the push service is configured; server_settings reports it to clients. */
    PUSH_NOTIFICATIONS_ENABLED: envBool('false'),
    /**
     * Realms with more people than this get no immediate presence events when someone comes
     * online (each would fan out to everyone); clients still see it on their next presence poll.
     */
    PRESENCE_EVENTS_MAX_USERS: z.coerce.number().int().min(0).default(1000),
    /** Characters (keys and values together) one user's bot storage may hold. */
    BOT_STORAGE_SIZE_LIMIT: z.coerce.number().int().min(1).default(10_000_000),
    /**
     * Largest avatar image a bot may be created with (POST /bots with a file), as the uploads
     * service's variable of the same name limits every other avatar.
     */
    MAX_AVATAR_FILE_SIZE_MIB: z.coerce.number().int().min(1).max(1024).default(5),

    // Realm exports (POST /export/realm): tarballs written by a BullMQ worker.
    /**
     * Where export tarballs are kept: a folder (EXPORT_DIR) or the S3-compatible store the
     * uploads service uses (the same S3_* variables); unset: as UPLOADS_BACKEND.
     */
    EXPORT_BACKEND: z.enum(['local', 's3']).optional(),
    UPLOADS_BACKEND: z.enum(['local', 's3']).default('local'),
    /** The local backend's folder; served below /user_avatars/exports/. */
    EXPORT_DIR: z.string().min(1).default('.data/exports'),
    S3_BUCKET: z.string().default('chat-uploads'),
    /** Endpoint of an S3-compatible store (MinIO, s3rver); unset means AWS S3 itself. */
    S3_ENDPOINT: z.string().optional(),
    S3_REGION: z.string().default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_FORCE_PATH_STYLE: envBool('true'),
    /** Off: this replica queues exports but leaves writing them to replicas that have it on. */
    EXPORT_RUN_WORKERS: envBool('true'),
    /** Larger organizations are exported by the server's administrators, not through the API. */
    EXPORT_MAX_MESSAGES: z.coerce.number().int().min(0).default(250_000),
    EXPORT_MAX_UPLOAD_BYTES: z.coerce.number().int().min(0).default(20 * 1024 ** 3),
    /** Named in export refusals as whom to ask; empty: support@<the realm's host name>. */
    EXPORT_SUPPORT_EMAIL: z.union([z.literal(''), z.email()]).default(''),

    // Outgoing mail (invitations). With EMAIL_HOST unset nothing leaves the machine: every
    // message is written as an .eml file to EMAIL_LOG_DIR instead (the development email log).
    /** SMTP server; unset: write messages to EMAIL_LOG_DIR. */
    EMAIL_HOST: z.string().default(''),
    EMAIL_PORT: z.coerce.number().int().min(1).max(65535).default(587),
    /** SMTP login; both or neither. */
    EMAIL_HOST_USER: z.string().default(''),
    EMAIL_HOST_PASSWORD: z.string().default(''),
    /**
     * EMAIL_USE_TLS: STARTTLS is required (port 587; the default unless EMAIL_USE_SSL);
     * EMAIL_USE_SSL: TLS from the first byte (port 465).
     */
    EMAIL_USE_TLS: z.enum(['true', 'false']).optional(),
    EMAIL_USE_SSL: envBool('false'),
    /** Connection, greeting and socket timeout of one SMTP attempt. */
    EMAIL_TIMEOUT_MS: z.coerce.number().int().min(1).default(15_000),
    /**
     * Sender of server mail; empty: noreply@<the realm's host name>, which needs a host name that
     * is a domain (with EMAIL_HOST set, an EXTERNAL_HOST such as 127.0.0.1 or localhost is refused
     * at start: mail servers refuse senders at an address literal).
     */
    NOREPLY_EMAIL_ADDRESS: z.union([z.literal(''), z.email()]).default(''),
    /**
     * Domain of the addresses that route mail back in (the inbound listener's, docs/mail.md);
     * empty: EXTERNAL_HOST without its port. The messaging service reads the same variable.
     */
    EMAIL_GATEWAY_DOMAIN: z.string().default(''),
    /**
     * Missed-message emails get a Reply-To address that posts the answer in the conversation;
     * off: Reply-To is the no-reply address (no inbound listener behind the domain).
     */
    MISSED_MESSAGE_REPLIES: envBool('true'),
    /** Off: this replica sends mail but does not read new messages for missed-message emails. */
    MISSED_MESSAGE_EMAILS: envBool('true'),
    /** An event queue polled this recently means its owner is at a client: no missed-message email. */
    ACTIVE_CLIENT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(140),
    /** Name of this replica in the `mail` consumer group of the domain streams. */
    CONSUMER_NAME: z.string().default(''),
    /**
     * When digest emails are considered (cron, UTC): each run mails the realms whose
     * digest_weekday is that day. Empty: no digests from this deployment.
     */
    DIGEST_EMAIL_CRON: z.string().default('0 18 * * *'),
    /**
     * When the members who became full members by waiting are announced (cron, UTC; the family
     * does it daily, hourly tells clients sooner). Empty: not from this deployment.
     */
    FULL_MEMBERS_CRON: z.string().default('7 * * * *'),
    /** The realm served at EXTERNAL_HOST itself (as the gateway's): its URLs in mail have no subdomain. */
    ROOT_REALM: z.string().default(''),
    /** Where messages go when no SMTP server is configured. */
    EMAIL_LOG_DIR: z.string().min(1).default('.data/email-log'),
    /** Attempts per message (the first included) before it is given up. */
    EMAIL_RETRY_ATTEMPTS: z.coerce.number().int().min(1).default(8),
    /** First retry delay; each later retry waits twice as long as the one before. */
    EMAIL_RETRY_BASE_MS: z.coerce.number().int().min(1).default(5_000),
    /** Messages one worker sends at once. */
    EMAIL_WORKER_CONCURRENCY: z.coerce.number().int().min(1).default(4),
    /** Off: this replica queues mail but leaves sending it to replicas that have it on. */
    EMAIL_RUN_WORKERS: envBool('true'),

    // Invitation limits and reminders, as the reference servers of this API family have them.
    /**
     * Enforce the daily limit on email invitations. Off by default, as on a self-hosted
     * server of the API family (which applies it only where anyone may create an organization).
     */
    INVITES_DAILY_LIMIT_ENABLED: envBool('false'),
    /** Email invitations one realm may send in any 24 hours while the limit is enforced. */
    INVITES_DEFAULT_REALM_DAILY_MAX: z.coerce.number().int().min(1).default(100),
    /** An invitation still open this long before it expires gets one reminder email. */
    INVITE_REMINDER_BEFORE_EXPIRY_SECONDS: z.coerce.number().int().min(1).default(2 * 86_400),
    /** Invitations valid for less than this (or forever) get no reminder. */
    INVITE_REMINDER_MIN_VALIDITY_SECONDS: z.coerce.number().int().min(1).default(4 * 86_400),

    // Password login (POST /fetch_api_key, the login page): failed attempts allowed per window,
    // counted per source address and per claimed account (LoginFailureLimiter); 0 disables one.
    /** Failures one address may have per window; enough for an office behind one NAT. */
    LOGIN_FAILURES_PER_IP: z.coerce.number().int().min(0).default(30),
    LOGIN_FAILURES_PER_IP_SECONDS: z.coerce.number().int().min(1).default(600),
    /** Failures one account may have per window (the API family's 5 per 30 minutes). */
    LOGIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(0).default(5),
    LOGIN_FAILURES_PER_ACCOUNT_SECONDS: z.coerce.number().int().min(1).default(1800),

    // BigBlueButton video calls (src/lib/bigbluebutton.ts): both or neither.
    /** The server's API root, e.g. https://bbb.example.com/bigbluebutton/ (api/create is appended). */
    BIG_BLUE_BUTTON_URL: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default(''),
    /** The shared secret that signs API calls (bbb-conf --secret). */
    BIG_BLUE_BUTTON_SECRET: z.string().default(''),
  })
  .superRefine((c, ctx) => {
    if (c.EMAIL_USE_TLS === 'true' && c.EMAIL_USE_SSL) {
      ctx.addIssue({ code: 'custom', path: ['EMAIL_USE_SSL'], message: 'EMAIL_USE_TLS and EMAIL_USE_SSL are mutually exclusive' });
    }
    if (Boolean(c.EMAIL_HOST_USER) !== Boolean(c.EMAIL_HOST_PASSWORD)) {
      ctx.addIssue({ code: 'custom', path: ['EMAIL_HOST_PASSWORD'], message: 'EMAIL_HOST_USER and EMAIL_HOST_PASSWORD go together' });
    }
    if (c.EMAIL_HOST && !c.NOREPLY_EMAIL_ADDRESS && !isMailDomainName(hostOf(c.EXTERNAL_HOST))) {
      ctx.addIssue({
        code: 'custom',
        path: ['NOREPLY_EMAIL_ADDRESS'],
        message: `set it to a real sender address: noreply@${hostOf(c.EXTERNAL_HOST)} would be refused by mail servers`,
      });
    }
    if (Boolean(c.BIG_BLUE_BUTTON_URL) !== Boolean(c.BIG_BLUE_BUTTON_SECRET)) {
      ctx.addIssue({ code: 'custom', path: ['BIG_BLUE_BUTTON_SECRET'], message: 'BIG_BLUE_BUTTON_URL and BIG_BLUE_BUTTON_SECRET go together' });
    }
    if (c.INVITE_REMINDER_BEFORE_EXPIRY_SECONDS >= c.INVITE_REMINDER_MIN_VALIDITY_SECONDS) {
      // Otherwise a reminder could be due before the invitation was even sent.
      ctx.addIssue({
        code: 'custom',
        path: ['INVITE_REMINDER_BEFORE_EXPIRY_SECONDS'],
        message: 'INVITE_REMINDER_BEFORE_EXPIRY_SECONDS must be less than INVITE_REMINDER_MIN_VALIDITY_SECONDS',
      });
    }
  })
  .transform(({ EMAIL_USE_TLS, ...c }) => ({ ...c, EMAIL_USE_TLS: EMAIL_USE_TLS === undefined ? !c.EMAIL_USE_SSL : EMAIL_USE_TLS === 'true' }));

/** EXTERNAL_HOST without its port (and without the brackets of an IPv6 literal). */
export function hostOf(externalHost: string): string {
  const bracketed = /^\[([^\]]+)\](:\d+)?$/.exec(externalHost);
  return bracketed ? bracketed[1]! : externalHost.replace(/:\d+$/, '');
}

/** A name mail servers take a sender at: dotted, not an address literal, ending in letters. */
export function isMailDomainName(host: string): boolean {
  return /^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}$/i.test(host);
}

export type UsersConfig = z.infer<typeof configSchema>;

export function readConfig(env: Record<string, string | undefined> = process.env): UsersConfig {
  return loadConfig(configSchema, env);
}
