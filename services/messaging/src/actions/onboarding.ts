/**
 * The messages someone's joining sets off, as the API family sends them: a welcome direct
 * message from the realm's welcome bot (and, when an administrator wrote one, a second one with
 * the organization's custom text), "@_**Name|id** joined this organization." in the realm's
 * signup announcements channel, and, when the invitation asked for it, a direct message from
 * the notification bot to the person who sent the invitation.
 *
 * The users service creates accounts; this service learns of them from the domain event
 * (realm_user add with `new_user` routing) and may meet the same event more than once (the
 * streams deliver at least once, and a new account's event can come in one copy per view of
 * the person). Each message is therefore sent in a transaction that first claims its
 * (user, kind) row in onboarding_messages: a repeat finds the row and sends nothing, and a
 * concurrent repeat waits on the row's key and then finds it.
 */
import type { Tx, User } from '@chat/db';
import { checkAdmin, errors, flagBit, isAdmin, LIMITS, type OutboxPayload } from '@chat/contracts';
import { realmPolicies, SYSTEM_BOTS } from '@chat/realm';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { normalizeContent } from '../lib/text';
import { loadRenderContext, renderMarkdown } from '../markdown';
import { notificationBot, silentMention, systemBot } from './move-notices';
import { sendMessageInTx } from './send';

export const WELCOME_BOT_NAME = SYSTEM_BOTS.welcome.fullName;
/** Topic of the signup announcements, in the realm's default language in the reference (English here). */
export const SIGNUPS_TOPIC = 'signups';

export const ONBOARDING_KIND = { welcome: 'welcome', signup: 'signup_announcement', referrer: 'referrer_notice' } as const;
type Kind = (typeof ONBOARDING_KIND)[keyof typeof ONBOARDING_KIND];

/** What the user-created event says about the new account (its `new_user` routing). */
export interface NewUserNotice {
  userId: number;
  isBot: boolean;
  realmUrl: string;
  invitedBy: number | null;
  notifyReferrerOnJoin: boolean;
  /** The invitation's text: null means the organization's default, '' means none. */
  welcomeMessageCustomText: string | null;
}

/** The `new_user` routing of a realm_user add event, or null when the event is anything else. */
export function newUserNotice(payload: Pick<OutboxPayload<'realm_user'>, 'event' | 'new_user'>): NewUserNotice | null {
  const { event, new_user: r } = payload;
  if (event?.type !== 'realm_user' || event.op !== 'add' || !r || typeof r !== 'object') return null;
  if (typeof r.user_id !== 'number' || !Number.isSafeInteger(r.user_id)) return null;
  return {
    userId: r.user_id,
    isBot: r.is_bot === true,
    realmUrl: typeof r.realm_url === 'string' ? r.realm_url : '',
    invitedBy: typeof r.invited_by === 'number' ? r.invited_by : null,
    notifyReferrerOnJoin: r.notify_referrer_on_join === true,
    welcomeMessageCustomText: typeof r.welcome_message_custom_text === 'string' ? r.welcome_message_custom_text : null,
  };
}

export function welcomeBot(tx: Tx, realm: Pick<LoadedActor, 'realmId' | 'realmUrl'>): Promise<LoadedActor> {
  return systemBot(tx, realm, SYSTEM_BOTS.welcome.local, WELCOME_BOT_NAME);
}

/**
 * The welcome bot's first message: how conversations are organised here, and for administrators
 * what they can set up. It points at nothing this server does not serve, and promises no replies.
 */
export function welcomeMessageText(user: Pick<User, 'role'>): string {
  const admin = isAdmin(user)
    ? '\n\nAs an administrator, you can create channels, invite people and change how the organization works in its settings.'
    : '';
  return (
    'Hello, and welcome! 👋 This is a direct message from me, Welcome Bot.\n\n' +
    'Conversations here happen in channels, each split into topics, and in direct messages like this one, ' +
    'which only the people in them can read. Browse the channels to find the ones you want to follow, ' +
    'and start a new topic whenever you bring up something new.' +
    admin
  );
}

/** The second welcome message, carrying the administrators' custom text. */
export function customWelcomeText(custom: string): string {
  return `The administrators for this organization would also like to share the following information:\n\n${custom}`;
}

export const signupAnnouncementText = (user: Pick<User, 'fullName' | 'id'>) =>
  `${silentMention({ fullName: user.fullName, userId: user.id })} joined this organization.`;

export const referrerNoticeText = (user: Pick<User, 'fullName' | 'id'>) =>
  `${silentMention({ fullName: user.fullName, userId: user.id })} accepted your invitation.`;

/** Claims (user, kind); false when an earlier delivery of the event already handled it. */
async function claim(tx: Tx, userId: number, kind: Kind): Promise<boolean> {
  const inserted = await tx.$executeRawUnsafe(
    'INSERT INTO onboarding_messages (user_id, kind) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    userId,
    kind,
  );
  return inserted === 1;
}

async function recordSent(tx: Tx, userId: number, kind: Kind, messageId: number): Promise<void> {
  await tx.onboardingMessage.update({ where: { userId_kind: { userId, kind } }, data: { messageId } });
}

/** A direct message from a bot, rendered as its recipient sees the realm. */
export async function botDirectMessage(tx: Tx, bot: LoadedActor, to: Pick<User, 'id' | 'email'>, realmUrl: string, raw: string): Promise<number> {
  const content = normalizeContent(raw);
  const rendered = renderMarkdown(content, await loadRenderContext(tx, bot.realmId, realmUrl, content, to.id));
  const result = await sendMessageInTx(tx, {
    actor: bot,
    target: { kind: 'private', recipients: [{ id: to.id, email: to.email }] },
    content,
    rendered,
    input: { type: 'private', to: [to.id], content, client: 'Internal', readBySender: true },
  });
  return result.id;
}

async function sendWelcome(tx: Tx, user: User, notice: NewUserNotice, settings: Record<string, unknown>): Promise<void> {
  if (!(await claim(tx, user.id, ONBOARDING_KIND.welcome))) return;
  const realm = { realmId: user.realmId, realmUrl: notice.realmUrl };
  const bot = await welcomeBot(tx, realm);
  const id = await botDirectMessage(tx, bot, user, notice.realmUrl, welcomeMessageText(user));
  // Starred, as the reference does, so it stays easy to find; like the reference, after the
  // message event went out (the event's flags do not include it).
  await tx.$executeRawUnsafe('UPDATE user_messages SET flags = flags | $1 WHERE user_id = $2 AND message_id = $3', flagBit('starred'), user.id, id);
  await recordSent(tx, user.id, ONBOARDING_KIND.welcome, id);
  const realmText = typeof settings.welcome_message_custom_text === 'string' ? settings.welcome_message_custom_text : '';
  const custom = (notice.welcomeMessageCustomText ?? realmText).trim();
  if (custom !== '') await botDirectMessage(tx, bot, user, notice.realmUrl, customWelcomeText(custom));
}

async function sendSignupAnnouncement(tx: Tx, user: User, notice: NewUserNotice, settings: Record<string, unknown>): Promise<void> {
  if (!(await claim(tx, user.id, ONBOARDING_KIND.signup))) return;
  const streamId = realmPolicies(settings).signup_announcements_stream_id;
  const stream = streamId > 0 ? await tx.stream.findFirst({ where: { id: streamId, realmId: user.realmId, isArchived: false } }) : null;
  if (!stream) return;
  // The first person of an organization has no one to be announced to.
  const humans = await tx.user.count({ where: { realmId: user.realmId, isActive: true, isBot: false } });
  if (humans <= 1) return;
  const bot = await notificationBot(tx, { realmId: user.realmId, realmUrl: notice.realmUrl });
  const content = normalizeContent(signupAnnouncementText(user));
  const subs = await tx.subscription.findMany({ where: { streamId: stream.id, active: true, user: { isActive: true } }, select: { userId: true } });
  const rendered = renderMarkdown(content, await loadRenderContext(tx, user.realmId, notice.realmUrl, content, bot.userId));
  const result = await sendMessageInTx(tx, {
    actor: bot,
    target: { kind: 'stream', stream, topic: SIGNUPS_TOPIC, subscriberIds: subs.map((s) => s.userId) },
    content,
    rendered,
    input: { type: 'stream', to: stream.id, content, topic: SIGNUPS_TOPIC, client: 'Internal', readBySender: true },
  });
  await recordSent(tx, user.id, ONBOARDING_KIND.signup, result.id);
}

async function sendReferrerNotice(tx: Tx, user: User, notice: NewUserNotice): Promise<void> {
  if (notice.invitedBy === null || !notice.notifyReferrerOnJoin) return;
  if (!(await claim(tx, user.id, ONBOARDING_KIND.referrer))) return;
  const referrer = await tx.user.findFirst({ where: { id: notice.invitedBy, realmId: user.realmId, isActive: true } });
  if (!referrer) return;
  const bot = await notificationBot(tx, { realmId: user.realmId, realmUrl: notice.realmUrl });
  const id = await botDirectMessage(tx, bot, referrer, notice.realmUrl, referrerNoticeText(user));
  await recordSent(tx, user.id, ONBOARDING_KIND.referrer, id);
}

/**
 * Sends what a new account's event calls for, each kind in its own transaction (so one that
 * keeps failing does not undo the others that went out). Bots, and accounts already gone or
 * deactivated by the time the event is handled, get nothing.
 */
export async function doOnboardNewUser(services: Pick<Services, 'db'>, notice: NewUserNotice): Promise<void> {
  if (notice.isBot) return;
  const load = async (tx: Tx) => {
    const user = await tx.user.findUnique({ where: { id: notice.userId }, include: { realm: true } });
    if (!user || !user.isActive || user.isBot || user.realm.deactivated) return null;
    return { user, settings: (user.realm.settings ?? {}) as Record<string, unknown> };
  };
  await services.db.$transaction(async (tx) => {
    const found = await load(tx);
    if (found) await sendWelcome(tx, found.user, notice, found.settings);
  });
  await services.db.$transaction(async (tx) => {
    const found = await load(tx);
    if (found) await sendSignupAnnouncement(tx, found.user, notice, found.settings);
  });
  await services.db.$transaction(async (tx) => {
    const found = await load(tx);
    if (found) await sendReferrerNotice(tx, found.user, notice);
  });
}

/**
 * POST /realm/test_welcome_bot_custom_message: the custom welcome message, as a new user would
 * get it with `text`, sent to the administrator asking, so they can see it before using it.
 * Only that message (not the standard welcome), and nothing is recorded as onboarding.
 */
export async function doSendTestWelcomeMessage(services: Pick<Services, 'db'>, actor: LoadedActor, text: string): Promise<number> {
  checkAdmin(actor);
  if ([...text].length > LIMITS.welcomeMessageCustomTextLength) {
    throw errors.badRequest(`welcome_message_custom_text is too long (limit: ${LIMITS.welcomeMessageCustomTextLength} characters)`);
  }
  if (text.length === 0) throw errors.badRequest('Message must not be empty');
  return services.db.$transaction(async (tx) => {
    const bot = await welcomeBot(tx, actor);
    return botDirectMessage(tx, bot, { id: actor.userId, email: actor.email }, actor.realmUrl, customWelcomeText(text));
  });
}
