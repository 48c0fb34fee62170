/**
 * The parts of the statements that write a new message (write.ts, grouped-write.ts), in the
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
