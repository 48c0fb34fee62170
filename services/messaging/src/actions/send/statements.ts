/**
 * The statements that write a new message (write.ts, grouped-write.ts) and their parts, in the
 * parameter order of `insertParams` ($1 to $16) and the outbox payload ($17).
 */
import { OUTBOX_NOTIFY, outboxInsertSql } from '@chat/bus';

/** The columns a new message is inserted with, in that order. */
export const MESSAGE_COLUMNS = `realm_id, sender_id, recipient_type, stream_id, conversation_id, topic, content, rendered_content,
                        sending_client, date_sent, is_me_message, has_link, has_image, has_attachment`;

// The message and every recipient's copy as two chained CTEs: the copies come from two arrays
// (user ids, flags) whatever their length. `conversation` is the message's conversation id ($5,
// or a CTE's made earlier in the statement) and `from` what it is selected from.
export const messageAndCopies = (conversation = '$5', from = '') => `
m AS (
  INSERT INTO messages (${MESSAGE_COLUMNS})
  SELECT $1, $2, $3, $4, ${conversation}, $6, $7, $8, $9, $10::timestamp, $11, $12, $13, $14${from}
  RETURNING id
), copies AS (
  INSERT INTO user_messages (user_id, message_id, flags)
  SELECT r.user_id, m.id, r.flags FROM m, unnest($15::int[], $16::bigint[]) AS r(user_id, flags)
)`;

// The outbox row with the event (`payload`, selected `from` the CTEs before it) and its NOTIFY,
// then the message's id: a message's statement that writes its event itself.
export const EVENT_AND_NOTIFY = (payload: string, from: string) => `, event AS (
  ${outboxInsertSql(`SELECT $1, 'message', ${payload} FROM ${from}`)}
  RETURNING id
)
SELECT m.id, ${OUTBOX_NOTIFY} AS notified FROM m, event`;

export const WITH_MESSAGE_ID = "jsonb_set($17::jsonb, '{event,message,id}', to_jsonb(m.id))";

/** The message and its copies, in a transaction: the event follows from the stored row (write.ts). */
export const INSERT_MESSAGE_SQL = `WITH ${messageAndCopies()}
SELECT id FROM m`;

// A direct message, its copies and the outbox row in one statement: atomic on its own, so no
// transaction and one round trip (ADR 0025). The event carries the message's id, known only
// inside; the conversation is found or made first (as write.ts's conversationFor does, $5 is
// null then), and the event's recipient_id follows from it. A channel message's statement is in
// grouped-write.ts, built from the same parts.
export const INSERT_DIRECT_ALONE_SQL = `WITH conv AS (
  INSERT INTO direct_conversations (realm_id, member_key, member_ids) VALUES ($1, $18, $19::int[])
  ON CONFLICT (realm_id, member_key) DO UPDATE SET member_key = EXCLUDED.member_key RETURNING id
), ${messageAndCopies('coalesce($5::int, conv.id)', ' FROM conv')}${EVENT_AND_NOTIFY(
  `jsonb_set(${WITH_MESSAGE_ID}, '{event,message,recipient_id}', to_jsonb(conv.id * 2 + 1))`, 'm, conv')}`;
