import { createRedis, keyspace, OutboxRelay } from '@chat/bus';
import { flagNames, ROLE } from '@chat/contracts';
import type { Prisma } from '@chat/db';
import { announceNewUser, doCreateUserInTx, type Announcement } from '@chat/realm';
import { DEFAULT_STREAM_PARTITIONS } from '@chat/kit';
import { TEST_REALM_URL } from '@chat/testing';
import { MESSAGING_GROUP } from '../workers/onboarding';
import { startHarness, type Harness } from './support';

/**
 * The whole path as in production: an account is created and announced the way the users
 * service does it (doCreateUserInTx + announceNewUser with the invitation as routing), the
 * outbox relay publishes the events to the partition streams, and the running messaging
 * service reads them through its own consumer group and sends the messages.
 */
let h: Harness;
let relay: OutboxRelay;
let redis: ReturnType<typeof createRedis>;
let announcements: number;

const keys = () => keyspace(h.env.prefix, { partitions: DEFAULT_STREAM_PARTITIONS });

beforeAll(async () => {
  h = await startHarness({ CONSUMER_NAME: 'onboarding-test' });
  // The seed's accounts were announced before the consumer group existed; publishing those
  // events now would onboard the seeded users too. This file's accounts are made below.
  await h.env.db.$executeRawUnsafe('DELETE FROM outbox');
  redis = createRedis(h.env.redisUrl, { name: 'onboarding-test' });
  relay = new OutboxRelay({ databaseUrl: h.env.databaseUrl, redis, keys: keys(), pollIntervalMs: 50, onError: () => undefined });
  relay.start();
  const { owner, member } = h.realm;
  announcements = await h.createStream(owner, { name: 'announce' }, [owner, member]);
});
afterAll(async () => {
  await relay?.stop();
  redis?.disconnect();
  await h?.close();
});

async function setRealmSettings(patch: Record<string, unknown>) {
  const realm = await h.env.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
  const settings = { ...(realm.settings as Record<string, unknown>), ...patch } as Prisma.InputJsonValue;
  await h.env.db.realm.update({ where: { id: h.realm.realmId }, data: { settings } });
}

/** Creates and announces an account as the users service does for a sign-up. */
async function join(name: string, signup?: Announcement['signup'], role: number = ROLE.MEMBER, realmUrl = TEST_REALM_URL) {
  return h.env.db.$transaction(async (tx) => {
    const local = name.toLowerCase().replace(/\W/g, '');
    const user = await doCreateUserInTx(tx, { realmId: h.realm.realmId, email: `${local}@chat.test`, fullName: name, role, announce: false });
    const active = await tx.user.findMany({ where: { realmId: h.realm.realmId, isActive: true }, select: { id: true } });
    await announceNewUser(tx, user, { audience: active.map((u) => u.id), realmUrl, signup });
    return user;
  });
}

/** The onboarding rows of a user once `kinds` are all recorded. */
async function onboarded(userId: number, kinds: string[]) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const rows = await h.env.db.onboardingMessage.findMany({ where: { userId }, orderBy: { kind: 'asc' } });
    if (kinds.every((k) => rows.some((r) => r.kind === k))) return new Map(rows.map((r) => [r.kind, r.messageId]));
    if (Date.now() > deadline) throw new Error(`user ${userId}: only ${rows.map((r) => r.kind).join(', ')} after 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Messages sent by a bot (by address) with their recipients, oldest first. */
async function messagesFrom(botLocal: string, where: Prisma.MessageWhereInput = {}) {
  const rows = await h.env.db.message.findMany({
    where: { ...where, sender: { email: `${botLocal}@chat.test`, isBot: true } },
    orderBy: { id: 'asc' },
    include: { sender: true, userMessages: true },
  });
  return rows.map((m) => ({ ...m, recipients: m.userMessages.map((um) => um.userId).sort((a, b) => a - b) }));
}

const dmsTo = async (botLocal: string, userId: number) =>
  (await messagesFrom(botLocal, { recipientType: 'private' })).filter((m) => m.recipients.includes(userId));

const welcomeText = (admin: boolean) =>
  'Hello, and welcome! 👋 This is a direct message from me, Welcome Bot.\n\n' +
  'Conversations here happen in channels, each split into topics, and in direct messages like this one, ' +
  'which only the people in them can read. Browse the channels to find the ones you want to follow, ' +
  'and start a new topic whenever you bring up something new.' +
  (admin ? '\n\nAs an administrator, you can create channels, invite people and change how the organization works in its settings.' : '');

describe('onboarding messages', () => {
  it('welcomes an invited user, announces them in the signup channel and tells the inviter', async () => {
    const { admin, owner, member } = h.realm;
    await setRealmSettings({ signup_announcements_stream_id: announcements, welcome_message_custom_text: 'The realm default.' });
    const newbie = await join('Newbie', { invited_by: admin.id, notify_referrer_on_join: true, welcome_message_custom_text: 'Please read #**announce** first.' });
    await onboarded(newbie.id, ['referrer_notice', 'signup_announcement', 'welcome']);

    const welcome = await dmsTo('welcome-bot', newbie.id);
    expect(welcome.map((m) => m.content)).toEqual([
      welcomeText(false),
      // The invitation's own text wins over the organization's.
      'The administrators for this organization would also like to share the following information:\n\nPlease read #**announce** first.',
    ]);
    const bot = welcome[0]!.sender;
    expect(bot.fullName).toBe('Welcome Bot');
    for (const m of welcome) expect(m.recipients).toEqual([bot.id, newbie.id].sort((a, b) => a - b));
    const copy = welcome[0]!.userMessages.find((um) => um.userId === newbie.id)!;
    expect(flagNames(copy.flags)).toEqual(expect.arrayContaining(['starred', 'is_private']));
    expect(flagNames(copy.flags)).not.toContain('read');
    expect(welcome[1]!.renderedContent).toContain('class="stream"');

    const signups = await messagesFrom('notification-bot', { streamId: announcements });
    expect(signups).toHaveLength(1);
    expect(signups[0]).toMatchObject({ topic: 'signups', content: `@_**Newbie|${newbie.id}** joined this organization.` });
    expect(signups[0]!.sender.fullName).toBe('Notification Bot');
    expect(signups[0]!.recipients).toEqual([owner.id, member.id, signups[0]!.senderId].sort((a, b) => a - b));
    expect(signups[0]!.renderedContent).toContain('user-mention silent');

    const referrer = await dmsTo('notification-bot', admin.id);
    expect(referrer.map((m) => m.content)).toEqual([`@_**Newbie|${newbie.id}** accepted your invitation.`]);
    expect(referrer[0]!.recipients).toEqual([admin.id, referrer[0]!.senderId].sort((a, b) => a - b));
    // The new user hears nothing from the notification bot.
    expect(await dmsTo('notification-bot', newbie.id)).toHaveLength(0);
  });

  it('sends nothing twice when the stream entries are delivered again', async () => {
    const before = await h.env.db.message.count();
    const newbie = await h.env.db.user.findFirstOrThrow({ where: { fullName: 'Newbie' } });
    // Rewind the group on every partition: the consumer reads every entry again, as after a
    // crash before acknowledging or a claim by another replica.
    for (const p of keys().allPartitions()) await redis.xgroup('SETID', keys().stream(p), MESSAGING_GROUP, '0');
    // A realm's events are handled in stream order, so once this later account is onboarded
    // the replayed entries before it have been handled too.
    const later = await join('Later', { invited_by: h.realm.admin.id, notify_referrer_on_join: false, welcome_message_custom_text: '' });
    await onboarded(later.id, ['signup_announcement', 'welcome']);

    expect(await dmsTo('welcome-bot', newbie.id)).toHaveLength(2);
    expect(await messagesFrom('notification-bot', { streamId: announcements, content: { contains: `|${newbie.id}**` } })).toHaveLength(1);
    expect(await dmsTo('notification-bot', h.realm.admin.id)).toHaveLength(1);
    // Only Later's welcome (no custom text: the invitation's is empty) and announcement are new;
    // no referrer notice since the invitation did not ask for one.
    expect(await h.env.db.message.count()).toBe(before + 2);
    expect((await dmsTo('welcome-bot', later.id)).map((m) => m.content)).toEqual([welcomeText(false)]);
    expect((await onboarded(later.id, [])).has('referrer_notice')).toBe(false);
  });

  it('uses the organization text without an invitation and announces nothing without a signup channel', async () => {
    await setRealmSettings({ signup_announcements_stream_id: -1 });
    const boss = await join('Boss', undefined, ROLE.ADMINISTRATOR);
    const rows = await onboarded(boss.id, ['signup_announcement', 'welcome']);
    expect(rows.get('signup_announcement')).toBeNull();
    expect((await dmsTo('welcome-bot', boss.id)).map((m) => m.content)).toEqual([
      welcomeText(true),
      'The administrators for this organization would also like to share the following information:\n\nThe realm default.',
    ]);
    expect(await messagesFrom('notification-bot', { content: { contains: `|${boss.id}**` } })).toHaveLength(0);
  });

  it('welcomes an account made outside any request (no realm URL) through the same bot', async () => {
    const quiet = await join('Quiet', undefined, ROLE.MEMBER, '');
    await onboarded(quiet.id, ['welcome']);
    const welcome = await dmsTo('welcome-bot', quiet.id);
    expect(welcome).toHaveLength(2);
    expect(welcome[0]!.sender.email).toBe('welcome-bot@chat.test');
    expect(welcome[0]!.content).toBe(welcomeText(false));
  });

  it('sends bots nothing, including the system bots it creates', async () => {
    const bots = await h.env.db.user.findMany({ where: { realmId: h.realm.realmId, isBot: true, email: { in: ['welcome-bot@chat.test', 'notification-bot@chat.test'] } } });
    expect(bots).toHaveLength(2);
    // The bots' own account events came through the same streams before Boss's (their creation
    // committed first), so by now they have been handled.
    expect(await h.env.db.onboardingMessage.count({ where: { userId: { in: bots.map((b) => b.id) } } })).toBe(0);
    expect(await h.env.db.userMessage.count({ where: { userId: { in: bots.map((b) => b.id) }, message: { senderId: { notIn: bots.map((b) => b.id) } } } })).toBe(0);
  });
});
