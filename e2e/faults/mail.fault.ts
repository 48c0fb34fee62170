/**
 * A mail survives a crash of the process sending it, and goes out once. The users service runs as
 * a real process sending to a real SMTP server (smtp-server) in this test. That server holds its
 * answer to the first message's data; meanwhile the sending process is killed with SIGKILL, so
 * the message was never acknowledged (a real relay discards it: the connection dropped before
 * its 250). A second users process, started afterwards, finds the job BullMQ's first worker left
 * active and stalled, takes it over and sends it: the server accepts exactly one copy.
 *
 * Run with `npm run test:faults`: the takeover waits out BullMQ's lock (about half a minute).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { identityHeaders, seedRealm, setupTestEnv, startService, type SeededRealm, type ServiceProcess, type TestEnv } from '@chat/testing';

interface Delivery {
  rcpt: string;
  subject: string;
  at: number;
}

const accepted: Delivery[] = [];
/** Sessions whose client went away: whatever they sent was never acknowledged. */
const closed = new Set<string>();
let holdFirst = true;
let held: { sessionId: string; accept: () => void } | undefined;

const smtp = new SMTPServer({
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onClose(session) {
    closed.add(session.id);
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const accept = () => {
        if (closed.has(session.id)) return;
        const subject = /^Subject: (.*)$/m.exec(Buffer.concat(chunks).toString('utf8'))?.[1] ?? '';
        for (const r of session.envelope.rcptTo) accepted.push({ rcpt: r.address, subject, at: Date.now() });
        callback();
      };
      if (holdFirst) {
        holdFirst = false;
        held = { sessionId: session.id, accept };
      } else accept();
    });
  },
});

let env: TestEnv;
let realm: SeededRealm;
let first: ServiceProcess | undefined;
let second: ServiceProcess | undefined;

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
}, 120000);

afterAll(async () => {
  await first?.kill();
  await second?.stop();
  await env?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
}, 60000);

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('keeps a mail queued across a SIGKILL of the sending worker and sends it once', async () => {
  const usersEnv = {
    ...env.env,
    EMAIL_HOST: '127.0.0.1',
    EMAIL_PORT: String((smtp.server.address() as AddressInfo).port),
    EMAIL_USE_TLS: 'false',
    EMAIL_TIMEOUT_MS: '120000',
    NOREPLY_EMAIL_ADDRESS: 'noreply@chat.example.org',
    EXTERNAL_HOST: 'chat.test',
  };
  first = await startService('users', usersEnv, { label: 'users-a', readyTimeoutMs: 120000 });
  const invitee = 'crash-survivor@example.org';
  const res = await fetch(`${first.url}/api/v1/invites`, {
    method: 'POST',
    headers: { ...identityHeaders(realm.realmId, realm.admin), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ invitee_emails: invitee, stream_ids: '[]' }),
  }).then((r) => r.json());
  expect(res).toMatchObject({ result: 'success' });

  // The message is in the middle of its SMTP transaction: data sent, no answer yet.
  await until('the first delivery attempt', () => (held ? true : undefined), 30000);
  await first.kill();
  // The relay sees the connection drop, then would have answered: too late, nothing is delivered.
  await until('the dropped connection', () => (closed.has(held!.sessionId) ? true : undefined), 10000);
  held!.accept();
  expect(accepted).toHaveLength(0);

  const restarted = Date.now();
  second = await startService('users', usersEnv, { label: 'users-b', readyTimeoutMs: 120000 });
  const delivery = await until('the mail sent by the second process', () => accepted.find((d) => d.rcpt === invitee), 150000);
  expect(delivery.at).toBeGreaterThanOrEqual(restarted);
  expect(delivery.subject).toBe('Iago invited you to join Test Organization');
  // Some time for a duplicate to show, had the job run twice.
  await new Promise((r) => setTimeout(r, 3000));
  expect(accepted.filter((d) => d.rcpt === invitee)).toHaveLength(1);
}, 300000);
