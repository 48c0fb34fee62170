import { startGroupConsumer, type Keyspace, type StreamConsumer } from '@chat/bus';
import { isOutboxType, TOPIC_VISIBILITY, type OutboxPayload } from '@chat/contracts';
import { emailTrigger, recipientFacts, type ActiveClients, type Trigger } from '@chat/notify';
import type { Services } from '../../context';
import { batchingPeriod, type MissedBatches } from './batch';

type MessagePayload = Pick<OutboxPayload<'message'>, 'event' | 'users' | 'stream_id' | 'sender_id' | 'user_flags' | 'topic'>;

/**
 * Decides, for a new message, who gets a missed-message email about it: each recipient but the
 * sender, bots and deactivated people, whom the shared rules (@chat/notify `emailTrigger`) name,
 * and who has no active client right now (the family mails only people away from every client;
 * someone at a client sees the message there). Those messages join the person's batch.
 */
export async function queueMissedMessage(services: Services, active: ActiveClients, batches: MissedBatches, realmId: number, payload: MessagePayload): Promise<void> {
  const message = payload.event?.message;
  if (!message || !Array.isArray(payload.users)) return;
  const flagsOf = (id: number) => payload.user_flags?.[String(id)] ?? [];
  // Unread recipients only: the sender's copy, and those of people who muted the sender, arrive read.
  const unread = payload.users.filter((id) => id !== payload.sender_id && !flagsOf(id).includes('read'));
  const streamId = message.type === 'private' ? null : payload.stream_id;
  const candidates = streamId === null ? unread : await mayBeMailed(services, realmId, streamId, payload.topic, unread, flagsOf);
  const recipients = await recipientFacts(services.db, realmId, { streamId, topic: payload.topic, flagsOf }, candidates);
  const due: Array<{ userId: number; trigger: Trigger; period: number }> = [];
  for (const facts of recipients) {
    const trigger = emailTrigger(facts);
    if (trigger) due.push({ userId: facts.userId, trigger, period: batchingPeriod(facts.settings) });
  }
  if (!due.length) return;
  const online = await active.activeUsers(realmId, due.map((d) => d.userId));
  for (const d of due) {
    if (online.has(d.userId)) continue;
    await batches.add(realmId, d.userId, [{ messageId: message.id, trigger: d.trigger }], d.period);
  }
}

const MENTION_FLAGS = ['mentioned', 'wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

/**
 * The recipients of a channel message who could be mailed at all: those it mentions, those who
 * follow its topic, and those with email notifications on for the channel (its own value, or
 * their default). Most subscribers of a busy channel are none of these, and are left out before
 * their settings are read: one statement per message, whose last branch starts from the few
 * people with channel emails on by default (the partial index users_stream_email_idx) instead of
 * reading every recipient's settings.
 */
async function mayBeMailed(services: Services, realmId: number, streamId: number, topic: string, userIds: number[], flagsOf: (id: number) => string[]): Promise<number[]> {
  if (!userIds.length) return [];
  const out = new Set(userIds.filter((id) => flagsOf(id).some((f) => MENTION_FLAGS.includes(f))));
  const rows = await services.db.$queryRawUnsafe<Array<{ user_id: number }>>(
    `SELECT user_id FROM user_topics
      WHERE stream_id = $1 AND topic_key = lower($3) AND user_id = ANY($2::int[]) AND visibility_policy = $4
     UNION
     SELECT user_id FROM subscriptions WHERE stream_id = $1 AND active AND email_notifications AND user_id = ANY($2::int[])
     UNION
     SELECT u.id FROM users u JOIN subscriptions s ON s.user_id = u.id AND s.stream_id = $1 AND s.active AND s.email_notifications IS NULL
      WHERE u.realm_id = $5 AND (u.settings->>'enable_stream_email_notifications') = 'true' AND u.id = ANY($2::int[])`,
    streamId,
    userIds,
    topic,
    TOPIC_VISIBILITY.FOLLOWED,
    realmId,
  );
  for (const r of rows) out.add(r.user_id);
  return [...out];
}

/**
 * Reads the domain streams as consumer group `mail` (one users replica handles each entry) and
 * turns new messages into missed-message batches. Other event types are acknowledged unparsed.
 * A redelivered entry adds the same messages to the same waiting batch, so it mails nothing twice.
 */
export async function startMissedMessageConsumer(
  services: Services,
  deps: { keys: Keyspace; consumer: string; active: ActiveClients; batches: MissedBatches },
): Promise<StreamConsumer> {
  return startGroupConsumer({
    name: 'mail',
    log: services.log,
    redis: services.redis,
    keys: deps.keys,
    group: deps.keys.groups.mail,
    consumer: deps.consumer,
    select: (heads) => heads.map((h) => h.type === 'message'),
    handle: async (entry) => {
      if (isOutboxType(entry, 'message')) await queueMissedMessage(services, deps.active, deps.batches, entry.realmId, entry.payload);
    },
  });
}
