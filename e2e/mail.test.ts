/**
 * Missed-message email across the real cluster: messages sent through the gateway and the
 * messaging service (its own rendering, flags and event payloads), read from the streams by the
 * users service and mailed through nodemailer to a real SMTP server in this test. Someone at a
 * client (an event queue just polled) gets no mail; someone away does, with a reply address.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { seedRealm, setupTestEnv, startCluster, type Cluster, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import { client } from './lib/event-queues';

interface Received {
  rcpt: string;
  headers: Map<string, string>;
  raw: string;
}

const received: Received[] = [];
const smtp = new SMTPServer({
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8').replace(/\r\n/g, '\n');
      const head = raw.slice(0, raw.indexOf('\n\n')).replace(/\n[ \t]+/g, ' ');
      const headers = new Map(head.split('\n').map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as [string, string]));
      for (const r of session.envelope.rcptTo) received.push({ rcpt: r.address, headers, raw });
      callback();
    });
  },
});

let env: TestEnv;
let realm: SeededRealm;
let cluster: Cluster;
const call = client(() => cluster.url);

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  cluster = await startCluster(env, {
    env: {
      EMAIL_HOST: '127.0.0.1',
      EMAIL_PORT: String((smtp.server.address() as AddressInfo).port),
      EMAIL_USE_TLS: 'false',
      EMAIL_RETRY_BASE_MS: '50',
      NOREPLY_EMAIL_ADDRESS: 'noreply@chat.example.org',
      EMAIL_GATEWAY_DOMAIN: 'mail.chat.example.org',
    },
    readyTimeoutMs: 180_000,
  });
  const made = await call('POST', '/users/me/subscriptions', realm.owner, { subscriptions: [{ name: 'ops' }], principals: [realm.admin.id, realm.member.id, realm.member2.id] });
  expect(made.body.result).toBe('success');
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  await env?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function eventually<T>(what: string, check: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const mailTo = (u: SeededUser, subject: string) => received.find((r) => r.rcpt === u.email && r.headers.get('subject') === subject);

it('mails a person away from every client about a direct message and a mention, and no one at a client', async () => {
  const { admin, member, member2 } = realm;
  for (const u of [member, member2]) {
    expect((await call('PATCH', '/settings', u, { email_notifications_batching_period_seconds: 1 })).body.result).toBe('success');
  }
  // The member is at a client: an event queue registered (and so touched) just now.
  expect((await call('POST', '/register', member, { event_types: ['message'] })).body.result).toBe('success');

  const dm = await call('POST', '/messages', admin, { type: 'direct', to: [member2.id], content: 'Are you **there**?' });
  expect(dm.body.result).toBe('success');
  const mention = await call('POST', '/messages', admin, { type: 'stream', to: 'ops', topic: 'deploy', content: `@**${member2.fullName}** @**${member.fullName}** please check` });
  expect(mention.body.result).toBe('success');

  const direct = await eventually('the direct message mail', () => mailTo(member2, `DMs with ${admin.fullName}`));
  expect(direct.headers.get('reply-to')).toMatch(/^mm[0-9a-f]{32}@mail\.chat\.example\.org$/);
  expect(direct.headers.get('from')).toBe('Test Organization notifications <noreply@chat.example.org>');
  // The messaging service's own rendering, in the HTML part.
  expect(direct.raw).toContain('<strong>there</strong>');
  expect(direct.raw).toContain(`/#narrow/dm/${admin.id}-`);
  const channel = await eventually('the mention mail', () => mailTo(member2, '#ops > deploy'));
  expect(channel.raw).toContain('mentioned you in #ops > deploy');
  expect(channel.headers.get('list-unsubscribe')).toMatch(/\/accounts\/unsubscribe\/missed_messages\//);

  // The member, mentioned in the same message while at a client, gets nothing.
  await new Promise((r) => setTimeout(r, 3000));
  expect(received.filter((r) => r.rcpt === member.email)).toEqual([]);
});
