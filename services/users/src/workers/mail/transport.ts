import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { UsersConfig } from '../../config';

/** One outgoing message, fully rendered: what a mail job carries. */
export interface MailMessage {
  /** Display name and address; nodemailer quotes the name as the headers need. */
  from: { name: string; address: string };
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers, e.g. List-Unsubscribe (RFC 2369) and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
}

/** A failure no retry can fix (the server refused the message or the address for good). */
export class PermanentMailError extends Error {}

export interface MailTransport {
  readonly kind: 'smtp' | 'log';
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * SMTP through nodemailer when EMAIL_HOST is set; otherwise each message, built by the same
 * nodemailer composer, is written to EMAIL_LOG_DIR as an .eml file that any mail client opens.
 */
export function createMailTransport(config: UsersConfig): MailTransport {
  return config.EMAIL_HOST ? smtpTransport(config) : logTransport(config.EMAIL_LOG_DIR);
}

function smtpTransport(config: UsersConfig): MailTransport {
  const transporter: Transporter = nodemailer.createTransport({
    host: config.EMAIL_HOST,
    port: config.EMAIL_PORT,
    secure: config.EMAIL_USE_SSL,
    requireTLS: config.EMAIL_USE_TLS,
    ignoreTLS: !config.EMAIL_USE_TLS && !config.EMAIL_USE_SSL,
    auth: config.EMAIL_HOST_USER ? { user: config.EMAIL_HOST_USER, pass: config.EMAIL_HOST_PASSWORD } : undefined,
    connectionTimeout: config.EMAIL_TIMEOUT_MS,
    greetingTimeout: config.EMAIL_TIMEOUT_MS,
    socketTimeout: config.EMAIL_TIMEOUT_MS,
  });
  return {
    kind: 'smtp',
    async send(message) {
      try {
        await transporter.sendMail(message);
      } catch (err) {
        // 5xx replies are final (unknown mailbox, rejected content); 4xx and network errors pass.
        const code = (err as { responseCode?: number }).responseCode;
        if (code !== undefined && code >= 500) throw new PermanentMailError((err as Error).message);
        throw err;
      }
    },
    close: () => transporter.close(),
  };
}

function logTransport(dir: string): MailTransport {
  const composer: Transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'log',
    async send(message) {
      const info = (await composer.sendMail(message)) as { message: Buffer };
      await mkdir(dir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      // Written aside and renamed, so a reader of the folder never sees half a message.
      const tmp = path.join(dir, `.${name}.tmp`);
      await writeFile(tmp, info.message);
      await rename(tmp, path.join(dir, name));
    },
    close: () => composer.close(),
  };
}
