/**
 * The plans a send goes through: `checkSendMessage` (check.ts) turns a `SendInput` into a
 * `SendPlan` (who sends, to whom, the content rendered, what the checks read); `planWrite`
 * (plan-write.ts) turns that into a `WritePlan` (every recipient's flags, the message object and
 * the write path, with its reason); `writeSend` (write.ts) writes it.
 */
import type { Realm, Stream, User } from '@chat/db';
import type { LoadedActor } from '../../lib/caller';
import type { buildWireMessages } from '../../lib/wire';
import type { RenderContext, RenderResult } from '../../markdown';
import type { TopicPolicyFacts } from '../user-topics';
import type { SendReadings } from './reads';

export interface SendInput {
  type: string;
  to: unknown;
  content: string;
  topic?: string;
  queueId?: string;
  localId?: string;
  readBySender?: boolean;
  client: string;
  /** The client's `Idempotency-Key` header, if any (see guarantees.ts). */
  idempotencyKey?: string;
  /**
   * Whether the sender may post in the channel was decided for someone else: mail to a channel
   * address posted by the Email Gateway bot is allowed as far as the address's creator may post
   * (actions/inbound-mail.ts, the family's rule). Never set from a request.
   */
  postAllowedFor?: 'address-creator';
}

export type Target =
  | { kind: 'stream'; stream: Stream; topic: string; subscriberIds: number[] }
  /** fullName when read with the recipients (a send through the API): the object is then built before the write. */
  | { kind: 'private'; recipients: Array<Pick<User, 'id' | 'email'> & { fullName?: string }> };

/** A send checked: who sends what to whom. Server-generated notices build theirs directly. */
export interface SendPlan {
  /** The sender, as loadSender (caller.ts) settled them, or the bot of a notice. */
  actor: LoadedActor;
  target: Target;
  content: string;
  rendered: RenderResult;
  input: SendInput;
  /**
   * Copies that start read whatever the sender's settings (server-generated notices: the
   * user whose action caused them has seen it).
   */
  readFor?: Set<number>;
  /** What the checks read that the write reuses rather than reads again (absent for notices). */
  held?: SendHeld;
}

export interface SendHeld {
  /** The realm, read for channel messages. */
  realm: Realm | null;
  linkifiers: RenderContext['linkifiers'];
  /** The sender's row, when the caller loaded it (a send through the API). */
  sender?: User;
  /** Topic facts, muters and alert words, read beside the channel (a channel send). */
  readings?: SendReadings;
  /** The realm's string id, read beside the caller for a direct message. */
  realmStringId?: string;
}

export type WireMessage = Awaited<ReturnType<typeof buildWireMessages>>[number];

/** What the write needs that does not depend on the message row, read before it. */
export interface SendFacts {
  dateSent: Date;
  topicParticipants: Set<number>;
  alerted: Set<number>;
  muters: Set<number>;
  senderGravatar: boolean;
  topicPolicy: TopicPolicyFacts | null;
  /** The message as clients get it, built before the row exists (id filled in after insert). */
  wire: WireMessage | null;
}

/**
 * How the message is written (the switch in write.ts says why each exists):
 * - `grouped`: a usual channel message, one statement that may carry other sends' (ADR 0015, 0031);
 * - `alone`: a direct message needing nothing else, one statement with its conversation (ADR 0025);
 * - `transaction`: anything else, in a transaction, with the first reason it needs one.
 */
export type WritePath =
  | { kind: 'grouped' }
  | { kind: 'alone' }
  | { kind: 'transaction'; reason: TransactionReason };

export type TransactionReason =
  | 'caller-transaction' // a notice or a scheduled message, written in its caller's transaction
  | 'idempotency-key' // the key is stored with the message (ADR 0010)
  | 'object-not-built' // a widget (its submessage), or a message whose object needs the stored row
  | 'links-upload' // the sender's uploads it links to are claimed with it
  | 'first-message' // the channel's first message id is set
  | 'topic-policy' // the sender's automatic topic policy changes
  | 'mentions'; // mentioned people may follow the topic

/** A send ready to write: the plan, what was read for it, and every copy's flags. */
export interface WritePlan {
  plan: SendPlan;
  facts: SendFacts;
  /** The sender's idempotency key, if any (guarantees.ts). */
  key?: string;
  /** Everyone who gets a copy, the sender included. */
  recipientIds: number[];
  /** Each recipient's flags as stored (bits, in recipientIds' order) and as the event names them. */
  flags: bigint[];
  userFlags: Record<string, string[]>;
  path: WritePath;
}

export interface SendResult {
  id: number;
  automatic_new_visibility_policy?: number;
}
