/**
 * The notices a move leaves behind, posted by the realm's notification bot through the ordinary
 * send path (so they get user_messages rows and message events): "moved here from" in the new
 * topic, "moved to" in the old one, and "marked as resolved/unresolved" for resolving moves.
 */
import type { Stream, Tx } from '@chat/db';
import { BOT_TYPE, TOPIC_VISIBILITY } from '@chat/contracts';
import { doCreateUserInTx, SYSTEM_BOTS } from '@chat/realm';
import { actorOf, type LoadedActor } from '../lib/caller';
import { loadRenderContext, renderMarkdown } from '../markdown';
import { topicUrl } from '../markdown/urls';
import { deleteMessageInTx } from './delete';
import { sendMessageInTx } from './send';
import { streamAccessOf } from './streams-access';
import { RESOLVED_PREFIX } from './move';

export const NOTIFICATION_BOT_NAME = SYSTEM_BOTS.notification.fullName;

export interface MoveNotices {
  notifyOld: boolean;
  notifyNew: boolean;
  oldStream: Stream;
  newStream: Stream;
  oldTopic: string;
  newTopic: string;
  movedIds: number[];
  /** The message the request named (the "[A message]" link points at it). */
  targetId: number;
  propagateMode: string;
  /** A resolve notice is only for a pure topic edit. */
  contentEdited: boolean;
}

/**
 * One of the realm's system bots, `<local>@<realm host>`, created on first use as an active
 * generic bot (announced to the realm like any new account), since the messages it sends need
 * a sender every client can resolve.
 */
export async function systemBot(tx: Tx, realm: Pick<LoadedActor, 'realmId' | 'realmUrl'>, local: string, fullName: string): Promise<LoadedActor> {
  let host = 'localhost';
  try {
    host = new URL(realm.realmUrl).hostname || host;
  } catch {
    // keep the fallback host: the address only has to be stable within the realm
  }
  const email = `${local}@${host}`;
  // One bot of each kind per realm, whatever host it was first made under: paths without a
  // realm URL (the onboarding consumer) and requests through another host name must find the
  // same account, or clients would list two Welcome Bots.
  const bot =
    (await tx.user.findFirst({
      where: { realmId: realm.realmId, email: { startsWith: `${local}@` }, isBot: true, botOwnerId: null },
      orderBy: { id: 'asc' },
    })) ??
    (await doCreateUserInTx(tx, { realmId: realm.realmId, email, fullName, isBot: true, botType: BOT_TYPE.GENERIC, realmUrl: realm.realmUrl }));
  return actorOf(bot, realm.realmUrl);
}

/** The realm's notification bot, sender of notices (moves, reminders, signups). */
export async function notificationBot(tx: Tx, realm: Pick<LoadedActor, 'realmId' | 'realmUrl'>): Promise<LoadedActor> {
  return systemBot(tx, realm, SYSTEM_BOTS.notification.local, NOTIFICATION_BOT_NAME);
}

export const silentMention = (actor: Pick<LoadedActor, 'fullName' | 'userId'>) => `@_**${actor.fullName}|${actor.userId}**`;

/** `#**channel>topic**`, or a plain link when the names would break that syntax. */
export function topicLinkSyntax(stream: Stream, topic: string): string {
  if (/[>*`$]/.test(stream.name) || /[*`$]/.test(topic)) {
    return `[#${stream.name} > ${topic}](${topicUrl(stream.id, stream.name, topic)})`;
  }
  return `#**${stream.name}>${topic}**`;
}

function messageLink(actor: LoadedActor, stream: Stream, topic: string, id: number): string {
  return `${actor.realmUrl}${topicUrl(stream.id, stream.name, topic)}/near/${id}`;
}

/**
 * A system bot's message in a channel topic, to every active subscriber. Rendered as `viewer`
 * sees channels, so links to a private channel the acting user named resolve; `readFor` get
 * their copy already read (the family marks its notices read for the acting user).
 */
export async function postNotice(
  tx: Tx,
  bot: LoadedActor,
  viewer: Pick<LoadedActor, 'realmId' | 'realmUrl' | 'userId'>,
  stream: Stream,
  topic: string,
  content: string,
  readFor: Set<number> = new Set(),
): Promise<number> {
  const subs = await tx.subscription.findMany({ where: { streamId: stream.id, active: true, user: { isActive: true } }, select: { userId: true } });
  const rendered = renderMarkdown(content, await loadRenderContext(tx, viewer.realmId, viewer.realmUrl, content, viewer.userId));
  const result = await sendMessageInTx(tx, {
    actor: bot,
    target: { kind: 'stream', stream, topic, subscriberIds: subs.map((s) => s.userId) },
    content,
    rendered,
    input: { type: 'stream', to: stream.id, content, topic, client: 'Internal', readBySender: true },
    readFor,
  });
  return result.id;
}

/** Whether the actor can still see a message of the topic (other than `except`). */
async function topicHasVisibleMessages(tx: Tx, actor: LoadedActor, stream: Stream, topic: string, except: number[]): Promise<boolean> {
  const sub = await tx.subscription.findUnique({ where: { userId_streamId: { userId: actor.userId, streamId: stream.id } } });
  const rows = await tx.$queryRawUnsafe<unknown[]>(
    `SELECT 1 FROM messages m
      WHERE m.stream_id = $1 AND lower(m.topic) = lower($2) AND NOT (m.id = ANY($3::int[]))
        AND ($4::boolean OR EXISTS (SELECT 1 FROM user_messages um WHERE um.message_id = m.id AND um.user_id = $5))
      LIMIT 1`,
    stream.id,
    topic,
    except,
    streamAccessOf(actor, stream, sub).canReadHistory,
    actor.userId,
  );
  return rows.length > 0;
}

/** Resolving or unresolving: the topic name toggles the prefix and nothing else. */
export function resolveToggle(oldTopic: string, newTopic: string): 'resolved' | 'unresolved' | null {
  if (newTopic.startsWith(RESOLVED_PREFIX) && !oldTopic.startsWith(RESOLVED_PREFIX) && newTopic.slice(RESOLVED_PREFIX.length) === oldTopic) return 'resolved';
  if (oldTopic.startsWith(RESOLVED_PREFIX) && !newTopic.startsWith(RESOLVED_PREFIX) && oldTopic.replace(/^(✔ )+/, '') === newTopic) return 'unresolved';
  return null;
}

/**
 * Who reads the resolve notice as read: everyone except subscribers whose
 * resolved_topic_notice_auto_read_policy is "never", or "except_followed" while following the
 * topic. The acting user always has it read.
 */
async function resolveNoticeReaders(tx: Tx, actor: LoadedActor, stream: Stream, topic: string): Promise<Set<number>> {
  const subs = await tx.subscription.findMany({
    where: { streamId: stream.id, active: true, user: { isActive: true } },
    select: { user: { select: { id: true, isBot: true, settings: true } } },
  });
  const followers = new Set(
    (await tx.userTopic.findMany({ where: { streamId: stream.id, topicKey: topic.toLowerCase(), visibilityPolicy: TOPIC_VISIBILITY.FOLLOWED }, select: { userId: true } })).map((r) => r.userId),
  );
  const readers = new Set<number>([actor.userId]);
  for (const { user } of subs) {
    const policy = ((user.settings ?? {}) as Record<string, unknown>).resolved_topic_notice_auto_read_policy ?? 'except_followed';
    const unread = !user.isBot && (policy === 'never' || (policy === 'except_followed' && followers.has(user.id)));
    if (!unread) readers.add(user.id);
  }
  return readers;
}

/** A resolve undone this soon deletes the first notice instead of posting a second one. */
export const RESOLVE_UNDO_GRACE_SECONDS = 60;
const RESOLVE_NOTICE = /^@_\*\*[^\n]*\*\* has marked this topic as (un)?resolved\.$/;

/**
 * Resolving then unresolving (or the reverse) by mistake should not leave two notices: when the
 * topic's latest message is the notification bot's resolve notice from under a minute ago, it
 * is deleted and no new notice is posted. True if it did.
 */
async function retractRecentResolveNotice(tx: Tx, actor: LoadedActor, bot: LoadedActor, stream: Stream, topic: string): Promise<boolean> {
  const [last] = await tx.$queryRawUnsafe<Array<{ id: number; sender_id: number; content: string; date_sent: Date; topic: string }>>(
    `SELECT id, sender_id, content, date_sent, topic FROM messages
      WHERE stream_id = $1 AND lower(topic) = lower($2) ORDER BY id DESC LIMIT 1`,
    stream.id,
    topic,
  );
  if (!last || last.sender_id !== bot.userId || !RESOLVE_NOTICE.test(last.content)) return false;
  if (Date.now() - last.date_sent.getTime() > RESOLVE_UNDO_GRACE_SECONDS * 1000) return false;
  await deleteMessageInTx(tx, actor.realmId, { id: last.id, streamId: stream.id, topic: last.topic });
  return true;
}

/** Posts the notices of a move, after the move itself, in its transaction. */
export async function sendMoveNotices(tx: Tx, actor: LoadedActor, m: MoveNotices): Promise<void> {
  const streamEdited = m.newStream.id !== m.oldStream.id;
  const topicEdited = m.newTopic !== m.oldTopic;
  const toggle = topicEdited && !streamEdited && !m.contentEdited ? resolveToggle(m.oldTopic, m.newTopic) : null;
  const user = silentMention(actor);
  const bot = await notificationBot(tx, actor);
  const actingUserRead = new Set([actor.userId]);
  let resolveNoticeId: number | null = null;
  if (toggle && !(await retractRecentResolveNotice(tx, actor, bot, m.oldStream, m.newTopic))) {
    const readers = await resolveNoticeReaders(tx, actor, m.oldStream, m.newTopic);
    resolveNoticeId = await postNotice(tx, bot, actor, m.oldStream, m.newTopic, `${user} has marked this topic as ${toggle}.`, readers);
  }
  const count = m.movedIds.length;
  const movedAll = m.propagateMode === 'change_all' || !(await topicHasVisibleMessages(tx, actor, m.oldStream, m.oldTopic, []));
  if (m.notifyNew && (streamEdited || (topicEdited && !toggle))) {
    const oldLocation = topicLinkSyntax(m.oldStream, m.oldTopic);
    const except = resolveNoticeId === null ? m.movedIds : [...m.movedIds, resolveNoticeId];
    const preexisting = await topicHasVisibleMessages(tx, actor, m.newStream, m.newTopic, except);
    const text =
      !preexisting && movedAll
        ? `This topic was moved here from ${oldLocation} by ${user}.`
        : count === 1
          ? `[A message](${messageLink(actor, m.newStream, m.newTopic, m.targetId)}) was moved here from ${oldLocation} by ${user}.`
          : `${count} messages were moved here from ${oldLocation} by ${user}.`;
    await postNotice(tx, bot, actor, m.newStream, m.newTopic, text, actingUserRead);
  }
  if (m.notifyOld) {
    const newLocation = topicLinkSyntax(m.newStream, m.newTopic);
    const text = movedAll
      ? `This topic was moved to ${newLocation} by ${user}.`
      : count === 1
        ? `A message was moved from this topic to ${newLocation} by ${user}.`
        : `${count} messages were moved from this topic to ${newLocation} by ${user}.`;
    await postNotice(tx, bot, actor, m.oldStream, m.oldTopic, text, actingUserRead);
  }
}
