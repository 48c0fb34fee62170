import { isGuest } from '@chat/contracts';
import { channelNarrowUrl, topicNarrowUrl } from '@chat/notify';
import { realmPolicies } from '@chat/realm';
import type { Services } from '../context';
import { digestEmail, type HotConversation } from '../lib/digest-email';
import { notificationEnvelope } from '../lib/notification-envelope';
import type { MailMessage } from '../workers/mail';

/** The family's DIGEST_CUTOFF: people away this long get a digest of this long's traffic. */
export const DIGEST_CUTOFF_DAYS = 5;
/** Mail job names: the daily run that picks who gets a digest, and one person's digest. */
export const DIGEST_RUN_JOB = 'digest-run';
export const DIGEST_JOB = 'digest';

export interface DigestJob {
  realmId: number;
  userId: number;
  /** Start of the period the digest covers (ISO time). */
  cutoff: string;
}

/** The family's weekday numbering (`digest_weekday`): Monday 0 ... Sunday 6. */
export function familyWeekday(at: Date): number {
  return (at.getUTCDay() + 6) % 7;
}

/**
 * The daily run (DIGEST_EMAIL_CRON): for each organization with digest emails on whose
 * `digest_weekday` is today, one digest job per person who wants digests (`enable_digest_emails`)
 * and has not been connected in DIGEST_CUTOFF days. Job ids carry the day, so a second run the
 * same day (a retry, a second replica) queues nobody twice.
 */
export async function doQueueDigests(services: Services, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - DIGEST_CUTOFF_DAYS * 86_400_000);
  const day = now.toISOString().slice(0, 10);
  const realms = await services.db.realm.findMany({ where: { deactivated: false }, select: { id: true, settings: true } });
  let queued = 0;
  for (const realm of realms) {
    const policies = realmPolicies(realm.settings);
    if (policies.digest_emails_enabled !== true || policies.digest_weekday !== familyWeekday(now)) continue;
    const rows = await services.db.$queryRawUnsafe<Array<{ id: number }>>(
      `SELECT u.id FROM users u LEFT JOIN user_presence p ON p.user_id = u.id
       WHERE u.realm_id = $1 AND u.is_active AND NOT u.is_bot
         AND coalesce(u.settings->>'enable_digest_emails', 'true') <> 'false'
         AND (p.last_connected_time IS NULL OR p.last_connected_time <= $2)
       ORDER BY u.id`,
      realm.id,
      cutoff,
    );
    for (const { id } of rows) {
      const job: DigestJob = { realmId: realm.id, userId: id, cutoff: cutoff.toISOString() };
      await services.mail.enqueue(DIGEST_JOB, job, `digest-${realm.id}-${id}-${day}`);
      queued += 1;
    }
  }
  return queued;
}

interface TopicRow {
  stream_id: number;
  stream_name: string;
  topic: string;
  senders: string[];
  human_messages: number;
  sample_ids: number[];
}

/**
 * One person's digest, the family's way: the hot conversations of the channels they are
 * subscribed to (not muted, and not joined or left within the period): the two with the most
 * people talking, then the longest, four at most, each with its first two messages; and the
 * channels created in the period they may join. Nothing of either: no mail.
 */
export async function renderDigest(services: Services, job: DigestJob): Promise<MailMessage | null> {
  const { db } = services;
  const user = await db.user.findUnique({ where: { id: job.userId } });
  if (!user?.isActive || user.isBot) return null;
  const settings = (user.settings ?? {}) as Record<string, unknown>;
  if (settings.enable_digest_emails === false) return null;
  const realm = await db.realm.findUniqueOrThrow({ where: { id: job.realmId } });
  const envelope = notificationEnvelope(services, realm, user, 'digest');
  const realmUrl = envelope.realm.url;
  const cutoff = new Date(job.cutoff);

  const topics = await db.$queryRawUnsafe<TopicRow[]>(
    `SELECT m.stream_id, s.name AS stream_name, min(m.topic) AS topic,
            array_agg(DISTINCT u.full_name) FILTER (WHERE NOT u.is_bot) AS senders,
            count(*) FILTER (WHERE NOT u.is_bot)::int AS human_messages,
            (array_agg(m.id ORDER BY m.id))[1:2] AS sample_ids
     FROM messages m
     JOIN streams s ON s.id = m.stream_id
     JOIN users u ON u.id = m.sender_id
     JOIN subscriptions sub ON sub.stream_id = m.stream_id AND sub.user_id = $1
     WHERE m.realm_id = $2 AND m.date_sent > $3 AND sub.active AND NOT sub.is_muted AND sub.date_created <= $3
     GROUP BY m.stream_id, s.name, lower(m.topic)`,
    user.id,
    job.realmId,
    cutoff,
  );
  const hot = hotTopics(topics.map((t) => ({ ...t, senders: (t.senders ?? []).filter(Boolean) })));
  const samples = hot.length
    ? await db.message.findMany({ where: { id: { in: hot.flatMap((t) => t.sample_ids) } }, include: { sender: { select: { fullName: true } } }, orderBy: { id: 'asc' } })
    : [];
  const conversations: HotConversation[] = hot.map((t) => {
    const channel = { id: t.stream_id, name: t.stream_name };
    const first = samples.filter((m) => t.sample_ids.includes(m.id));
    return {
      channel: t.stream_name,
      topic: t.topic,
      url: topicNarrowUrl(realmUrl, channel, t.topic),
      messages: first.map((m) => ({ senderName: m.sender.fullName, content: m.content, html: m.renderedContent })),
      moreCount: Math.max(0, t.human_messages - first.length),
      participants: [...t.senders].sort(),
    };
  });

  const newChannels = await db.stream.findMany({
    where: { realmId: job.realmId, isArchived: false, dateCreated: { gt: cutoff }, ...(isGuest(user) ? { isWebPublic: true } : { inviteOnly: false }) },
    select: { id: true, name: true },
    orderBy: { id: 'asc' },
  });
  if (!conversations.length && !newChannels.length) return null;

  return digestEmail({
    ...envelope,
    conversations,
    newChannels: newChannels.map((c) => ({ name: c.name, url: channelNarrowUrl(realmUrl, c) })),
    newMessagesCount: topics.reduce((n, t) => n + t.human_messages, 0),
  });
}

/** The two most diverse topics (distinct people), then the longest, four at most. */
export function hotTopics<T extends { senders: string[]; human_messages: number }>(topics: T[]): T[] {
  const byDiversity = [...topics].sort((a, b) => b.senders.length - a.senders.length);
  const byLength = [...topics].sort((a, b) => b.human_messages - a.human_messages);
  const hot = byDiversity.slice(0, 2);
  for (const t of byLength) {
    if (hot.length >= 4) break;
    if (!hot.includes(t)) hot.push(t);
  }
  return hot;
}
