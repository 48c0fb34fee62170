import { Queue } from 'bullmq';
import request from 'supertest';
import { createRedis, redisKeys } from '@chat/bus';
import { identityHeaders } from '@chat/testing';
import { readConfig } from '../config';
import { MAIL_QUEUE } from '../workers/mail';
import { joinKeyIn, readMailLog, tempMailDir, type LoggedMail } from './mail-log';
import { startHarness, type Harness } from './support';

// A small daily limit, and reminders due 2 seconds after a one-minute invitation is sent
// (58 s before it expires), so the delayed jobs really run within the test.
const DAILY_MAX = 4;

let h: Harness;
let mailDir: string;
let queue: Queue;
let bullRedis: ReturnType<typeof createRedis>;
let counter = 0;
const fresh = (label: string) => `${label}${++counter}@example.org`;

beforeAll(async () => {
  mailDir = tempMailDir();
  h = await startHarness({
    EMAIL_LOG_DIR: mailDir,
    EMAIL_RETRY_BASE_MS: '50',
    INVITES_DAILY_LIMIT_ENABLED: 'true',
    INVITES_DEFAULT_REALM_DAILY_MAX: String(DAILY_MAX),
    INVITE_REMINDER_MIN_VALIDITY_SECONDS: '60',
    INVITE_REMINDER_BEFORE_EXPIRY_SECONDS: '58',
  });
  const welcome = await h.db.stream.create({ data: { realmId: h.realm.realmId, name: 'welcome', nameKey: 'welcome', inviteOnly: false } });
  await h.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: { default_stream_ids: [welcome.id] } } });
  // Reads the service's mail queue, to know when a reminder job has run.
  bullRedis = createRedis(h.env.redisUrl, { name: 'test:bull' });
  queue = new Queue(MAIL_QUEUE, { connection: bullRedis, prefix: redisKeys(h.env.prefix).bullPrefix() });
});
afterAll(async () => {
  await queue?.close();
  bullRedis?.disconnect();
  await h?.close();
});

function invite(body: Record<string, string | number>) {
  return h.as(h.realm.owner).post('/invites').send({ stream_ids: '[]', ...body });
}

async function mailsTo(to: string): Promise<LoggedMail[]> {
  return (await readMailLog(mailDir)).filter((m) => m.to === to);
}

/** Waits until `n` messages to `to` are in the log. */
async function waitForMails(to: string, n: number): Promise<LoggedMail[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const mails = await mailsTo(to);
    if (mails.length >= n) return mails;
    if (Date.now() > deadline) throw new Error(`${mails.length} of ${n} messages to ${to}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the reminder job of an invitation has run (and so sent, or skipped, its mail). */
async function reminderJobRan(inviteId: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const state = await (await queue.getJob(`invite-reminder-${inviteId}`))?.getState();
    if (state === 'completed') return;
    if (Date.now() > deadline) throw new Error(`reminder of invitation ${inviteId}: ${state ?? 'no job'}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function inviteRow(email: string) {
  return h.db.invite.findFirstOrThrow({ where: { realmId: h.realm.realmId, email } });
}

const emailInviteCount = () => h.db.invite.count({ where: { realmId: h.realm.realmId, email: { not: null } } });

describe('daily invitation limit', () => {
  it('refuses the invitation that would exceed it, before writing or mailing anything', async () => {
    const first = [fresh('a'), fresh('a'), fresh('a')];
    expect((await invite({ invitee_emails: first.join(',') })).body).toEqual({ result: 'success', msg: '' });
    for (const email of first) await waitForMails(email, 1);

    const over = [fresh('over'), fresh('over')];
    const before = await emailInviteCount();
    const eventsBefore = await h.lastEventId();
    const refused = await invite({ invitee_emails: over.join('\n') });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      result: 'error',
      code: 'INVITATION_FAILED',
      msg: 'To protect users, this server limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.',
      errors: [],
      sent_invitations: false,
      license_limit_reached: false,
      daily_limit_reached: true,
    });
    expect(await emailInviteCount()).toBe(before);
    expect((await h.eventsSince(eventsBefore)).filter((e) => e.type === 'invites_changed')).toEqual([]);

    // One more fits exactly (3 + 1 = the limit); the next one does not, nor does a resend.
    const last = fresh('last');
    expect((await invite({ invitee_emails: last })).body).toEqual({ result: 'success', msg: '' });
    await waitForMails(last, 1);
    expect((await invite({ invitee_emails: fresh('over') })).body.daily_limit_reached).toBe(true);
    const resent = await h.as(h.realm.owner).post(`/invites/${(await inviteRow(last)).id}/resend`);
    expect(resent.body.daily_limit_reached).toBe(true);

    // Nothing went out to the refused addresses: only the four accepted ones were mailed.
    await new Promise((r) => setTimeout(r, 500));
    for (const email of over) expect(await mailsTo(email)).toEqual([]);
    expect(await mailsTo(last)).toHaveLength(1);
  });

  it('counts only the last 24 hours', async () => {
    // The day's invitations age past the window: the realm may invite again.
    await h.db.invite.updateMany({ where: { realmId: h.realm.realmId }, data: { dateCreated: new Date(Date.now() - 25 * 3600_000) } });
    const emails = [fresh('b'), fresh('b'), fresh('b'), fresh('b')];
    expect((await invite({ invitee_emails: emails.join(',') })).body).toEqual({ result: 'success', msg: '' });
    expect((await invite({ invitee_emails: fresh('over') })).body.daily_limit_reached).toBe(true);
    await h.db.invite.updateMany({ where: { realmId: h.realm.realmId }, data: { dateCreated: new Date(Date.now() - 25 * 3600_000) } });
  });
});

describe('invitation reminder', () => {
  beforeEach(async () => {
    // Each test starts with the day's allowance free.
    await h.db.invite.updateMany({ where: { realmId: h.realm.realmId }, data: { dateCreated: new Date(Date.now() - 25 * 3600_000) } });
  });

  it('mails an invitee who has not signed up the same link, before the invitation expires', async () => {
    const email = fresh('open');
    expect((await invite({ invitee_emails: email, invite_expires_in_minutes: 1 })).body).toEqual({ result: 'success', msg: '' });
    const [invitation, reminder] = await waitForMails(email, 2);
    expect(invitation!.subject).toBe(`${h.realm.owner.fullName} invited you to join Test Organization`);
    expect(reminder!.subject).toBe(`Reminder: Join ${h.realm.owner.fullName} at Test Organization`);
    expect(reminder!.text).toContain('This is a friendly reminder that');
    expect(reminder!.replyTo).toBe(invitation!.replyTo);
    expect(joinKeyIn(reminder!)).toBe(joinKeyIn(invitation!));
    expect(joinKeyIn(reminder!)).toBe((await inviteRow(email)).key);
  });

  it('is not sent once the invitation has been used', async () => {
    const email = fresh('used');
    await invite({ invitee_emails: email, invite_expires_in_minutes: 1 });
    const [invitation] = await waitForMails(email, 1);
    const joined = await request(h.app.url)
      .post(`/join/${joinKeyIn(invitation!)}/`)
      .set(identityHeaders(h.realm.realmId))
      .set('Accept', 'application/json')
      .type('form')
      .send({ full_name: 'Joiner' });
    expect(joined.body).toMatchObject({ result: 'success', user_id: expect.any(Number) });
    await reminderJobRan((await inviteRow(email)).id);
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('is not sent once the invitation has been revoked', async () => {
    const email = fresh('revoked');
    await invite({ invitee_emails: email, invite_expires_in_minutes: 1 });
    await waitForMails(email, 1);
    const row = await inviteRow(email);
    expect((await h.as(h.realm.owner).delete(`/invites/${row.id}`)).body).toEqual({ result: 'success', msg: '' });
    await reminderJobRan(row.id);
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('is not scheduled for an invitation that never expires', async () => {
    const email = fresh('forever');
    await invite({ invitee_emails: email, invite_expires_in_minutes: 'null' });
    await waitForMails(email, 1);
    const row = await inviteRow(email);
    expect(row.expiresAt).toBeNull();
    expect(await queue.getJob(`invite-reminder-${row.id}`)).toBeUndefined();
  });
});

describe('configuration', () => {
  it('has the defaults of a self-hosted server and refuses impossible values at start', () => {
    expect(readConfig(h.env.env)).toMatchObject({
      INVITES_DAILY_LIMIT_ENABLED: false,
      INVITES_DEFAULT_REALM_DAILY_MAX: 100,
      INVITE_REMINDER_BEFORE_EXPIRY_SECONDS: 2 * 86_400,
      INVITE_REMINDER_MIN_VALIDITY_SECONDS: 4 * 86_400,
    });
    expect(() => readConfig({ ...h.env.env, INVITES_DEFAULT_REALM_DAILY_MAX: '0' })).toThrow(/Invalid configuration: INVITES_DEFAULT_REALM_DAILY_MAX/);
    expect(() => readConfig({ ...h.env.env, INVITES_DAILY_LIMIT_ENABLED: 'yes' })).toThrow(/Invalid configuration: INVITES_DAILY_LIMIT_ENABLED/);
    expect(() => readConfig({ ...h.env.env, INVITE_REMINDER_BEFORE_EXPIRY_SECONDS: '400000' })).toThrow(
      /INVITE_REMINDER_BEFORE_EXPIRY_SECONDS must be less than INVITE_REMINDER_MIN_VALIDITY_SECONDS/,
    );
  });
});
