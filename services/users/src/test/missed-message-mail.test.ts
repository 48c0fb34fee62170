import { Queue } from 'bullmq';
import request from 'supertest';
import { createBlockingRedis, keyspace, OutboxRelay, redisKeys } from '@chat/bus';
import { DEFAULT_STREAM_PARTITIONS } from '@chat/kit';
import { createChannel, identityHeaders, markRead, sendMessage, type SeededUser } from '@chat/testing';
import { hashPassword } from '../lib/passwords';
import { MAIL_QUEUE } from '../workers/mail';
import { headerText, startSmtpCapture, type CapturedMail } from './smtp-capture';
import { startHarness, type Harness } from './support';

/**
 * Missed-message email end to end inside the users service: message events written as the
 * messaging service writes them, relayed to the streams, read by the `mail` consumer group,
 * batched per person in Redis and BullMQ, and sent through nodemailer to a real SMTP server,
 * whose messages are parsed with mailparser.
 */

let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let relay: OutboxRelay;
let queue: Queue;
let queueRedis: ReturnType<typeof createBlockingRedis>;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  h = await startHarness({
    EMAIL_HOST: '127.0.0.1',
    EMAIL_PORT: String(smtp.port),
    EMAIL_USE_TLS: 'false',
    EMAIL_RETRY_BASE_MS: '50',
    EXTERNAL_HOST: 'chat.test',
    EMAIL_GATEWAY_DOMAIN: 'mail.chat.test',
  });
  relay = new OutboxRelay({
    databaseUrl: h.env.databaseUrl,
    redis: h.env.redis,
    keys: keyspace(h.env.prefix, { partitions: DEFAULT_STREAM_PARTITIONS }),
    onError: () => undefined,
  });
  relay.start();
  queueRedis = createBlockingRedis(h.env.env.REDIS_URL);
  queue = new Queue(MAIL_QUEUE, { connection: queueRedis, prefix: redisKeys(h.env.prefix).bullPrefix() });
});
afterAll(async () => {
  await queue?.close();
  queueRedis?.disconnect();
  await relay?.stop();
  await h?.close();
  await smtp?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const mailsTo = (u: SeededUser) => smtp.received.filter((m) => m.rcpt === u.email);
const mailsWaitedFor = (u: SeededUser, n: number) => until(`${n} mail(s) to ${u.email}`, () => (mailsTo(u).length >= n ? mailsTo(u) : undefined));

async function settings(u: SeededUser, values: Record<string, unknown>) {
  const form = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
  const res = await h.as(u).patch('/settings').send(form);
  expect(res.body.result).toBe('success');
}

/** Waits until the person's batch has been handled and every mail it queued has been sent. */
async function batchDone(u: SeededUser) {
  const keys = redisKeys(h.env.prefix);
  await until('the batch to be handled', async () => ((await h.env.redis.exists(keys.missedMailBatch(h.realm.realmId, u.id), keys.missedMailPending(h.realm.realmId, u.id))) === 0 ? true : undefined));
  await drained();
}

/** Nothing waiting, running or delayed in the mail queue but the schedulers' next runs. */
async function drained() {
  await until('the mail queue to drain', async () => {
    const c = await queue.getJobCounts('waiting', 'active', 'prioritized');
    const delayed = (await queue.getDelayed()).filter((j) => j.name !== 'digest-run' && j.name !== 'full-members-run');
    return c.waiting + c.active + c.prioritized + delayed.length === 0 ? true : undefined;
  });
}

describe('missed-message email', () => {
  let dmMail: CapturedMail;

  it('mails a batch after the person\'s batching period: one mail per conversation, with context, links and Reply-To', async () => {
    const { admin, member, moderator, owner } = h.realm;
    await settings(member, { email_notifications_batching_period_seconds: 2 });
    const channel = await createChannel(h.db, h.realm.realmId, 'design', [owner, member, moderator]);
    const where = { id: channel.id, name: 'design', topic: 'plans' };
    await sendMessage(h.db, h.realm.realmId, { sender: owner, recipients: [member, moderator], channel: where, content: 'Shall we ship on Friday?', flags: { [member.id]: ['read'] } });
    const started = Date.now();
    const dm1 = await sendMessage(h.db, h.realm.realmId, { sender: admin, recipients: [member], content: 'Hello **there**' });
    await sleep(300);
    await sendMessage(h.db, h.realm.realmId, { sender: admin, recipients: [member], content: 'see /user_uploads/2/ab/plan.pdf' });
    await sendMessage(h.db, h.realm.realmId, { sender: moderator, recipients: [owner, member], channel: where, content: '@**Member** what do you think?', flags: { [member.id]: ['mentioned'] } });

    await sleep(1200);
    expect(mailsTo(member)).toHaveLength(0);
    const [dm, mention] = await mailsWaitedFor(member, 2);
    expect(dm!.at - started).toBeGreaterThanOrEqual(1900);
    dmMail = dm!;

    const m = dm!.parsed;
    expect(m.from?.value).toEqual([{ name: 'Test Organization notifications', address: 'noreply@chat.test' }]);
    expect(m.subject).toBe(`DMs with ${admin.fullName}`);
    const replyTo = headerText(m, 'reply-to');
    expect(replyTo).toMatch(/^mm[0-9a-f]{32}@mail\.chat\.test$/);
    const row = await h.db.missedMessageEmailAddress.findUniqueOrThrow({ where: { emailToken: replyTo.split('@')[0]! } });
    expect(row).toMatchObject({ userId: member.id, realmId: h.realm.realmId, channelId: null, dmUserIds: [admin.id], messageId: dm1.id, timesUsed: 0 });
    expect(m.text).toContain(`${admin.fullName}:\n> Hello **there**\n> see http://chat.test/user_uploads/2/ab/plan.pdf`);
    expect(m.text).toContain(`http://chat.test/#narrow/dm/${admin.id}-${admin.fullName.replace(/ /g, '-')}`);
    expect(m.html).toContain('<p>Hello **there**</p>');
    expect(m.html).toContain(`href="http://chat.test/#narrow/dm/${admin.id}-`);
    expect(headerText(m, 'list-unsubscribe')).toMatch(/^<http:\/\/chat\.test\/accounts\/unsubscribe\/missed_messages\/\d+-[A-Za-z0-9_-]{24}>$/);
    expect(headerText(m, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');

    const c = mention!.parsed;
    expect(c.subject).toBe('#design > plans');
    // The messages of the topic just before the mention come first, as context.
    expect(c.text).toMatch(new RegExp(`${moderator.fullName} mentioned you in #design > plans:[\\s\\S]*Shall we ship on Friday\\?[\\s\\S]*what do you think\\?`));
    expect(c.text).toContain('You are receiving this because you were personally mentioned.');
    expect(c.text).toContain(`http://chat.test/#narrow/channel/${channel.id}-design/topic/plans`);
    const channelReply = await h.db.missedMessageEmailAddress.findUniqueOrThrow({ where: { emailToken: headerText(c, 'reply-to').split('@')[0]! } });
    expect(channelReply).toMatchObject({ channelId: channel.id, topic: 'plans', dmUserIds: [] });
  });

  it('drops what the person read before the batch went out, and sends nothing when nothing is left', async () => {
    const { admin, member2 } = h.realm;
    await settings(member2, { email_notifications_batching_period_seconds: 2 });
    const a = await sendMessage(h.db, h.realm.realmId, { sender: admin, recipients: [member2], content: 'first, read soon' });
    await sendMessage(h.db, h.realm.realmId, { sender: admin, recipients: [member2], content: 'second, left unread' });
    await sleep(500);
    await markRead(h.db, h.realm.realmId, member2, [a.id]);
    const [mail] = await mailsWaitedFor(member2, 1);
    expect(mail!.parsed.text).toContain('> second, left unread');
    expect(mail!.parsed.text).not.toContain('first, read soon');
    await batchDone(member2);

    const c = await sendMessage(h.db, h.realm.realmId, { sender: admin, recipients: [member2], content: 'read in time' });
    await until('the new batch', async () => ((await h.env.redis.exists(redisKeys(h.env.prefix).missedMailPending(h.realm.realmId, member2.id))) ? true : undefined));
    await markRead(h.db, h.realm.realmId, member2, [c.id]);
    await batchDone(member2);
    expect(mailsTo(member2)).toHaveLength(1);
  });

  it('follows each person\'s settings and the realm\'s ban on content in mail', async () => {
    const { admin, moderator, owner, guest, member } = h.realm;
    await settings(moderator, { enable_offline_email_notifications: false, email_notifications_batching_period_seconds: 1 });
    await settings(owner, { email_notifications_batching_period_seconds: 1, message_content_in_email_notifications: false });
    await settings(guest, { email_notifications_batching_period_seconds: 1 });
    // A group DM: the owner is mailed (without content, as asked), the moderator (offline email off) is not.
    await sendMessage(h.db, h.realm.realmId, { sender: admin, recipients: [moderator, owner], content: 'secret plans' });
    const [ownerMail] = await mailsWaitedFor(owner, 1);
    expect(ownerMail!.parsed.subject).toBe('New messages');
    expect(ownerMail!.parsed.text).toContain('You have a new message in Test Organization.');
    expect(ownerMail!.parsed.text).not.toContain('secret plans');
    expect(ownerMail!.parsed.html).not.toContain('secret plans');
    expect(ownerMail!.parsed.text).toContain(`http://chat.test/#narrow/dm/${Math.min(admin.id, moderator.id)},${Math.max(admin.id, moderator.id)}-group`);
    await batchDone(moderator);
    expect(mailsTo(moderator)).toHaveLength(0);

    // A channel with email notifications on for the guest, a topic the member follows.
    const channel = await createChannel(h.db, h.realm.realmId, 'alerts', [admin, guest, member], { [guest.id]: { emailNotifications: true } });
    await h.db.userTopic.create({ data: { realmId: h.realm.realmId, userId: member.id, streamId: channel.id, topicName: 'Deploys', topicKey: 'deploys', visibilityPolicy: 3 } });
    await sendMessage(h.db, h.realm.realmId, { sender: admin, recipients: [guest, member], channel: { id: channel.id, name: 'alerts', topic: 'deploys' }, content: 'deploy done' });
    const [guestMail] = await mailsWaitedFor(guest, 1);
    expect(guestMail!.parsed.subject).toBe('#alerts > deploys');
    expect(guestMail!.parsed.text).toContain('You are receiving this because you have email notifications enabled for #alerts.');
    const memberMails = await mailsWaitedFor(member, 3);
    expect(memberMails[2]!.parsed.text).toContain('You are receiving this because you have email notifications enabled for topics you follow.');

    // The organization forbids content in mail: even the guest, who allows it, gets none.
    const realm = await h.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
    await h.db.realm.update({ where: { id: realm.id }, data: { settings: { ...(realm.settings as object), message_content_allowed_in_email_notifications: false } } });
    await sendMessage(h.db, h.realm.realmId, { sender: admin, recipients: [guest], content: 'confidential numbers' });
    const [, hidden] = await mailsWaitedFor(guest, 2);
    expect(hidden!.parsed.subject).toBe('New messages');
    expect(hidden!.parsed.text).toContain('your organization does not allow it in email notifications');
    expect(hidden!.parsed.text).not.toContain('confidential numbers');
    await h.db.realm.update({ where: { id: realm.id }, data: { settings: realm.settings as object } });
  });

  it('unsubscribes with the mail\'s one-click link, without a login, and refuses a forged one', async () => {
    const { member } = h.realm;
    const url = new URL(headerText(dmMail.parsed, 'list-unsubscribe').slice(1, -1));
    const bad = await h.as().site(url.pathname.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')));
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Unknown email unsubscribe request');
    const other = await h.as().site(url.pathname.replace('/missed_messages/', '/digest/'));
    expect(other.status).toBe(400);
    const before = await h.db.user.findUniqueOrThrow({ where: { id: member.id } });
    expect((before.settings as Record<string, unknown>).enable_offline_email_notifications).not.toBe(false);

    // What a mail program does with List-Unsubscribe-Post (RFC 8058): one POST, no cookie, no token.
    const post = await request(h.app.url).post(url.pathname).set(identityHeaders(h.realm.realmId)).type('form').send('List-Unsubscribe=One-Click');
    expect(post.status).toBe(200);
    expect(post.body).toEqual({ result: 'success', msg: '' });
    const after = await h.db.user.findUniqueOrThrow({ where: { id: member.id } });
    expect((after.settings as Record<string, unknown>).enable_offline_email_notifications).toBe(false);
    // The link in the footer, opened in a browser later, says so again.
    const page = await h.as().site(url.pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain('You have been unsubscribed from missed-message emails.');
  });
});

describe('login notices', () => {
  const firefoxOnLinux = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
  const login = (u: SeededUser, userAgent: string) =>
    request(h.app.url)
      .post('/api/v1/fetch_api_key')
      .set(identityHeaders(h.realm.realmId, undefined, '203.0.113.7'))
      .set('User-Agent', userAgent)
      .type('form')
      .send({ username: u.email, password: 'correct horse battery staple' });
  const notices = (u: SeededUser) => mailsTo(u).filter((m) => (m.parsed.subject ?? '').startsWith('New login from'));

  beforeAll(async () => {
    const passwordHash = await hashPassword('correct horse battery staple');
    for (const u of [h.realm.moderator, h.realm.guest]) await h.db.user.update({ where: { id: u.id }, data: { passwordHash } });
    // The moderator's account is a day old; the guest's was made just now (its sign-up logs it in).
    await h.db.user.update({ where: { id: h.realm.moderator.id }, data: { dateJoined: new Date(Date.now() - 86_400_000) } });
  });

  it('mails channel messages to people whose default is channel emails, and not to the others', async () => {
    const { admin, member2, moderator } = h.realm;
    await settings(member2, { enable_stream_email_notifications: true, email_notifications_batching_period_seconds: 1 });
    await settings(moderator, { enable_offline_email_notifications: true, email_notifications_batching_period_seconds: 1 });
    // No subscription value of its own: each person's default decides.
    const channel = await createChannel(h.db, h.realm.realmId, 'announcements', [admin, member2, moderator]);
    const before = { member2: mailsTo(member2).length, moderator: mailsTo(moderator).length };
    await sendMessage(h.db, h.realm.realmId, { sender: admin, recipients: [member2, moderator], channel: { id: channel.id, name: 'announcements', topic: 'plans' }, content: 'the plan is ready' });
    const mails = await mailsWaitedFor(member2, before.member2 + 1);
    expect(mails.at(-1)!.parsed.text).toContain('You are receiving this because you have email notifications enabled for #announcements.');
    await batchDone(moderator);
    expect(mailsTo(moderator)).toHaveLength(before.moderator);
    await settings(member2, { enable_stream_email_notifications: false });
  });

  it('mails the device, address and time of a new sign-in, with a one-click unsubscribe that stops them', async () => {
    const { moderator, guest } = h.realm;
    expect((await login(moderator, firefoxOnLinux)).body.result).toBe('success');
    await until('the login notice', () => (notices(moderator).length ? true : undefined));
    const m = notices(moderator)[0]!.parsed;
    expect(m.subject).toBe('New login from Firefox on Linux');
    expect(m.from?.value[0]?.name).toBe('Test Organization account security');
    expect(m.text).toContain('Organization: http://chat.test');
    expect(m.text).toContain(`Email: ${moderator.email}`);
    expect(m.text).toContain('IP address: 203.0.113.7');
    expect(m.text).toMatch(/Time: \w+day, \w+ \d{2}, \d{4} at \d{2}:\d{2}(AM|PM) UTC/);
    expect(m.html).toContain('<li>Device: Firefox on Linux.</li>');

    // A new account's first sign-in is its sign-up: no notice.
    expect((await login(guest, firefoxOnLinux)).body.result).toBe('success');

    const url = new URL(headerText(m, 'list-unsubscribe').slice(1, -1));
    expect(url.pathname).toMatch(/^\/accounts\/unsubscribe\/login\//);
    const post = await request(h.app.url).post(url.pathname).set(identityHeaders(h.realm.realmId)).type('form').send('List-Unsubscribe=One-Click');
    expect(post.body.result).toBe('success');
    expect((await login(moderator, 'Mozilla/5.0 (Macintosh) Safari/605.1.15')).body.result).toBe('success');
    await drained();
    expect(notices(moderator)).toHaveLength(1);
    expect(notices(guest)).toHaveLength(0);
  });
});

describe('digest emails', () => {
  it('mails people away for five days, on the realm\'s weekday, the hot conversations of their channels and the new channels', async () => {
    const { owner, admin, member2, guest } = h.realm;
    const realm = await h.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
    const today = (new Date().getUTCDay() + 6) % 7;
    await h.db.realm.update({ where: { id: realm.id }, data: { settings: { ...(realm.settings as object), digest_emails_enabled: true, digest_weekday: today } } });
    await settings(admin, { enable_digest_emails: false });
    // The owner was connected a moment ago: no digest.
    await h.db.userPresence.create({ data: { userId: owner.id, realmId: realm.id, lastConnectedTime: new Date(), lastActiveTime: new Date(), lastUpdateId: 1n } });

    const talk = await createChannel(h.db, realm.id, 'general talk', [owner, admin, member2, guest]);
    // Subscribed for long: a channel joined within the period is left out of the digest, as the family does.
    await h.db.subscription.updateMany({ where: { streamId: talk.id }, data: { dateCreated: new Date(Date.now() - 10 * 86_400_000) } });
    const at = (topic: string) => ({ id: talk.id, name: 'general talk', topic });
    const all = [owner, admin, member2, guest];
    for (const [sender, topic, content] of [
      [owner, 'lunch', 'Pizza on Friday?'],
      [admin, 'lunch', 'Yes please'],
      [guest, 'lunch', 'Count me in'],
      [owner, 'release', 'Step one done'],
      [owner, 'release', 'Step two done'],
      [owner, 'release', 'Step three done'],
      [owner, 'release', 'Step four done'],
    ] as const) {
      await sendMessage(h.db, realm.id, { sender, recipients: all, channel: at(topic), content, flags: Object.fromEntries(all.map((u) => [u.id, ['read']])) });
    }
    await createChannel(h.db, realm.id, 'fresh ideas', [owner]);

    // What the daily scheduler queues at DIGEST_EMAIL_CRON.
    await queue.add('digest-run', {});
    const digest = await until('the digest', () => mailsTo(member2).find((m) => (m.parsed.subject ?? '').startsWith('Digest for')));
    const m = digest.parsed;
    expect(m.subject).toBe('Digest for Test Organization');
    expect(m.from?.value[0]?.name).toBe('Test Organization digest');
    // The most diverse conversation first, its first two messages, and what more there is.
    const people = [admin.fullName, guest.fullName, owner.fullName].sort();
    expect(m.text).toContain(
      `#general talk > lunch\n${owner.fullName}:\n> Pizza on Friday?\n${admin.fullName}:\n> Yes please\n+ 1 more message by ${people[0]}, ${people[1]} and ${people[2]}.\n`,
    );
    expect(m.text!.indexOf('> lunch')).toBeLessThan(m.text!.indexOf('> release'));
    expect(m.text).toContain('#general talk > release');
    expect(m.text).toContain('+ 2 more messages by');
    expect(m.text).toContain('** New channels **');
    expect(m.text).toContain('fresh ideas');
    expect(m.html).toContain(`href="http://chat.test/#narrow/channel/${talk.id}-general-talk/topic/lunch"`);
    expect(headerText(m, 'list-unsubscribe')).toMatch(/^<http:\/\/chat\.test\/accounts\/unsubscribe\/digest\//);

    await drained();
    const digests = smtp.received.filter((r) => (r.parsed.subject ?? '').startsWith('Digest for'));
    // Away, wanting digests: member2 and the others never connected; not the owner (connected), not the admin (off).
    expect(digests.map((r) => r.rcpt)).toContain(member2.email);
    expect(digests.map((r) => r.rcpt)).not.toContain(owner.email);
    expect(digests.map((r) => r.rcpt)).not.toContain(admin.email);

    // Another weekday: nobody.
    const before = digests.length;
    await queue.add('digest-run', { now: new Date(Date.now() + 86_400_000).toISOString() });
    await sleep(500);
    await drained();
    expect(smtp.received.filter((r) => (r.parsed.subject ?? '').startsWith('Digest for'))).toHaveLength(before);
  });
});
