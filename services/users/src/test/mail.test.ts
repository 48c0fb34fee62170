import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { SMTPServer } from 'smtp-server';
import { createBlockingRedis, redisKeys } from '@chat/bus';
import { ConfigError } from '@chat/kit';
import { readConfig } from '../config';
import { noreplyAddress } from '../lib/invitation-email';
import { MAIL_QUEUE } from '../workers/mail';
import { parseMail, type LoggedMail } from './mail-log';
import { startHarness, type Harness } from './support';

/**
 * The SMTP path against a real SMTP server on a local port: login, delivery, retries of
 * temporary refusals, no retry of permanent ones, and a slow server that never holds the request.
 */

interface Received {
  rcpt: string;
  user: string | undefined;
  mail: LoggedMail;
}

/** Per recipient, how the next deliveries are answered: a reply code to refuse with, or a delay. */
const plans = new Map<string, Array<number | { delayMs: number }>>();
const attempts = new Map<string, number>();
const received: Received[] = [];

const server = new SMTPServer({
  disabledCommands: ['STARTTLS'],
  allowInsecureAuth: true,
  authOptional: false,
  logger: false,
  onAuth(auth, _session, callback) {
    if (auth.username === 'mailer' && auth.password === 's3cret') callback(null, { user: auth.username });
    else callback(new Error('Invalid username or password'));
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const rcpt = session.envelope.rcptTo[0]!.address;
      attempts.set(rcpt, (attempts.get(rcpt) ?? 0) + 1);
      const step = plans.get(rcpt)?.shift();
      const accept = () => {
        received.push({ rcpt, user: session.user as string | undefined, mail: parseMail(Buffer.concat(chunks).toString('utf8')) });
        callback();
      };
      if (typeof step === 'number') {
        const err = Object.assign(new Error(step >= 500 ? 'Mailbox unavailable' : 'Try again later'), { responseCode: step });
        callback(err);
      } else if (step) setTimeout(accept, step.delayMs);
      else accept();
    });
  },
});

let h: Harness;
let queue: Queue;
let queueRedis: ReturnType<typeof createBlockingRedis>;
let counter = 0;
const fresh = () => `smtp${++counter}@example.org`;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  h = await startHarness({
    EMAIL_HOST: '127.0.0.1',
    EMAIL_PORT: String(port),
    EMAIL_USE_TLS: 'false',
    EMAIL_HOST_USER: 'mailer',
    EMAIL_HOST_PASSWORD: 's3cret',
    EMAIL_RETRY_ATTEMPTS: '3',
    EMAIL_RETRY_BASE_MS: '50',
    EMAIL_TIMEOUT_MS: '5000',
    NOREPLY_EMAIL_ADDRESS: 'invitations@mail.example.org',
  });
  queueRedis = createBlockingRedis(h.env.env.REDIS_URL);
  queue = new Queue(MAIL_QUEUE, { connection: queueRedis, prefix: redisKeys(h.env.env.REDIS_PREFIX!).bullPrefix() });
});
afterAll(async () => {
  await queue?.close();
  queueRedis?.disconnect();
  await h?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const deliveredTo = (rcpt: string) => until(`a message to ${rcpt}`, () => received.find((r) => r.rcpt === rcpt));

/** The finished (given up) job of a recipient, from the queue itself. */
const failedJobFor = (rcpt: string) =>
  until(`the failed job of ${rcpt}`, async () => (await queue.getFailed()).find((j) => (j.data as { to: string }).to === rcpt));

function invite(email: string) {
  return h.as(h.realm.admin).post('/invites').send({ invitee_emails: email, stream_ids: '[]' });
}

describe('mail over SMTP', () => {
  it('logs in and delivers the invitation', async () => {
    const email = fresh();
    expect((await invite(email)).body.result).toBe('success');
    const got = await deliveredTo(email);
    expect(got.user).toBe('mailer');
    expect(got.mail.from).toBe('Test Organization <invitations@mail.example.org>');
    expect(got.mail.to).toBe(email);
    expect(got.mail.subject).toBe('Iago invited you to join Test Organization');
    const row = await h.db.invite.findFirstOrThrow({ where: { email } });
    expect(got.mail.text).toContain(`http://chat.test/join/${row.key}/`);
  });

  it('retries a temporary refusal until the server takes the message', async () => {
    const email = fresh();
    plans.set(email, [451]);
    await invite(email);
    await deliveredTo(email);
    expect(attempts.get(email)).toBe(2);
  });

  it('gives up after EMAIL_RETRY_ATTEMPTS temporary refusals', async () => {
    const email = fresh();
    plans.set(email, [451, 451, 451, 451]);
    await invite(email);
    const job = await failedJobFor(email);
    expect(job.attemptsMade).toBe(3);
    expect(attempts.get(email)).toBe(3);
    expect(received.some((r) => r.rcpt === email)).toBe(false);
  });

  it('does not retry a permanent refusal', async () => {
    const email = fresh();
    plans.set(email, [550]);
    await invite(email);
    const job = await failedJobFor(email);
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toContain('Mailbox unavailable');
    expect(attempts.get(email)).toBe(1);
  });

  it('answers the request without waiting for a slow server', async () => {
    const email = fresh();
    plans.set(email, [{ delayMs: 1500 }]);
    const started = Date.now();
    expect((await invite(email)).body.result).toBe('success');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(received.some((r) => r.rcpt === email)).toBe(false);
    await deliveredTo(email);
  });
});

describe('mail configuration', () => {
  const base = { EMAIL_HOST: 'smtp.example.org', EXTERNAL_HOST: 'chat.example.org' };

  it('defaults to STARTTLS on 587, or TLS from the start with EMAIL_USE_SSL', () => {
    expect(readConfig(base)).toMatchObject({ EMAIL_PORT: 587, EMAIL_USE_TLS: true, EMAIL_USE_SSL: false, EMAIL_LOG_DIR: '.data/email-log' });
    expect(readConfig({ ...base, EMAIL_USE_SSL: 'true', EMAIL_PORT: '465' })).toMatchObject({ EMAIL_PORT: 465, EMAIL_USE_TLS: false, EMAIL_USE_SSL: true });
  });

  it('takes a server on 127.0.0.1 with a no-reply address of its own, and without SMTP writes the log from a valid sender', () => {
    expect(readConfig({ ...base, EXTERNAL_HOST: '127.0.0.1:9991', NOREPLY_EMAIL_ADDRESS: 'noreply@mail.example.org' }).NOREPLY_EMAIL_ADDRESS).toBe('noreply@mail.example.org');
    const logOnly = readConfig({ EXTERNAL_HOST: '127.0.0.1:9991' });
    expect(noreplyAddress(logOnly, 'http://127.0.0.1:9991')).toBe('noreply@localhost.localdomain');
    expect(noreplyAddress(logOnly, 'http://zulip.chat.example.org')).toBe('noreply@zulip.chat.example.org');
  });

  it.each([
    [{ EMAIL_USE_TLS: 'true', EMAIL_USE_SSL: 'true' }, 'EMAIL_USE_SSL: EMAIL_USE_TLS and EMAIL_USE_SSL are mutually exclusive'],
    [{ EMAIL_HOST_USER: 'mailer' }, 'EMAIL_HOST_PASSWORD: EMAIL_HOST_USER and EMAIL_HOST_PASSWORD go together'],
    [{ EMAIL_PORT: '70000' }, 'EMAIL_PORT'],
    [{ EMAIL_USE_TLS: 'yes' }, 'EMAIL_USE_TLS'],
    [{ NOREPLY_EMAIL_ADDRESS: 'not an address' }, 'NOREPLY_EMAIL_ADDRESS'],
    [{ EMAIL_RETRY_ATTEMPTS: '0' }, 'EMAIL_RETRY_ATTEMPTS'],
    // A sender at an address literal or a bare host name is refused by real mail servers.
    [{ EXTERNAL_HOST: '127.0.0.1:9991' }, 'NOREPLY_EMAIL_ADDRESS: set it to a real sender address: noreply@127.0.0.1 would be refused'],
    [{ EXTERNAL_HOST: 'localhost:9991' }, 'noreply@localhost would be refused'],
  ])('refuses %j at start', (env, problem) => {
    expect(() => readConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => readConfig({ ...base, ...env })).toThrow(problem);
  });
});
