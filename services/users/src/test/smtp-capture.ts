import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message as a real SMTP server received it: the envelope and the parsed MIME message. */
export interface CapturedMail {
  rcpt: string;
  mailFrom: string;
  parsed: ParsedMail;
  at: number;
}

/**
 * A real SMTP server on a free local port (the `smtp-server` package, speaking the protocol to
 * nodemailer), keeping every message it accepts, parsed by `mailparser`: what an operator's relay
 * would get.
 */
export async function startSmtpCapture(): Promise<{ port: number; received: CapturedMail[]; close(): Promise<void> }> {
  const received: CapturedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          for (const r of session.envelope.rcptTo) {
            received.push({ rcpt: r.address, mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', parsed, at: Date.now() });
          }
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A header's value as it was sent (unfolded), whatever structure mailparser gives it. */
export function headerText(mail: ParsedMail, name: string): string {
  const line = mail.headerLines.find((l) => l.key === name.toLowerCase());
  return line ? line.line.slice(line.line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim() : '';
}
