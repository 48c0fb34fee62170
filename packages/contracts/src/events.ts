/**
 * The domain events the services exchange through the outbox, typed once. A producer's
 * `recordEvent` (@chat/bus) checks the event and routing of every type named in `OutboxEvents`
 * against these types, and the consumers (the events service's fan-out, push, uploads, the
 * messaging service's onboarding reader, the end-to-end replay test) read them through the same
 * types, taking a Pick<> where they need only part. An event is the object clients receive
 * (without the queue's `id`); routing fields travel beside it and clients never see them
 * (docs/events.md, The outbox payload contract).
 *
 * Declared with `type` rather than `interface` so that each event is assignable to ClientEvent.
 */
import type { TopicVisibility } from './constants';

/** Who receives an event: user ids, or 'realm' for every queue of the realm. */
export type EventRecipients = number[] | 'realm';

/** Per-recipient message flags, by user id. */
export type UserFlags = Record<string, string[]>;

/** Any event as clients receive it. */
export type ClientEvent = { type: string; [field: string]: unknown };

// --- Messages -------------------------------------------------------------------------------

export type DisplayRecipientUser = { id: number; email: string; full_name: string; is_mirror_dummy: boolean };

export type MessageReaction = {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
  user: DisplayRecipientUser;
};

/** The message object of GET /messages and of `message` events. */
export type MessageObject = {
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  sender_realm_str: string;
  avatar_url: string | null;
  client: string;
  content: string;
  content_type: 'text/html' | 'text/x-markdown';
  /** The channel's name, or every participant of a direct message. */
  display_recipient: string | DisplayRecipientUser[];
  is_me_message: boolean;
  reactions: MessageReaction[];
  recipient_id: number;
  subject: string;
  topic_links: Array<{ text: string; url: string }>;
  submessages: unknown[];
  timestamp: number;
  type: 'stream' | 'private';
  stream_id?: number;
  last_edit_timestamp?: number;
  last_moved_timestamp?: number;
  edit_history?: Array<Record<string, unknown>>;
  /** Per-viewer and per-endpoint extras (flags, match_content, ...). */
  [field: string]: unknown;
};

export type MessageEvent = { type: 'message'; message: MessageObject };

/** What a queue receives: the producer's event with the queue's flags and, in the sender's queue, its local id. */
export type ClientMessageEvent = MessageEvent & { flags: string[]; local_message_id?: string };

/** Routing of a new message (docs/events.md, Message events). */
export type MessageRouting = {
  /** Channel id, or null for a direct message. */
  stream_id: number | null;
  /** A public channel: all_public_streams queues get it too. */
  public_stream: boolean;
  sender_id: number;
  /** The sender's avatar is a gravatar everyone may compute: client_gravatar queues get avatar_url null. */
  sender_gravatar?: boolean;
  /** The queue that sent it (the send's queue_id), which gets `local_message_id: local_id`. */
  sender_queue_id?: string;
  local_id?: string;
  user_flags: UserFlags;
  /** Markdown source, for queues registered with apply_markdown=false (and push texts). */
  raw_content: string;
  /** The raw topic ('' for the empty topic). */
  topic: string;
};

export type UpdateMessageEvent = {
  type: 'update_message';
  user_id: number | null;
  edit_timestamp: number;
  message_id: number;
  message_ids: number[];
  rendering_only: boolean;
  stream_id?: number;
  flags?: string[];
  orig_content?: string;
  orig_rendered_content?: string;
  content?: string;
  rendered_content?: string;
  is_me_message?: boolean;
  orig_subject?: string;
  subject?: string;
  topic_links?: Array<{ text: string; url: string }>;
  new_stream_id?: number;
  propagate_mode?: string;
  stream_name?: string;
};

/**
 * As produced: every deleted id in `message_ids`. Queues without bulk_message_deletion get one
 * event per id with `message_id` instead.
 */
export type DeleteMessageEvent = {
  type: 'delete_message';
  message_ids: number[];
  message_type: 'stream' | 'private';
  stream_id?: number;
  topic?: string;
};

export type UpdateMessageFlagsEvent = {
  type: 'update_message_flags';
  op: 'add' | 'remove';
  /** The older name of op. */
  operation: 'add' | 'remove';
  flag: string;
  messages: number[];
  all: boolean;
  message_details?: Record<string, unknown>;
};

export type ReactionEvent = {
  type: 'reaction';
  op: 'add' | 'remove';
  message_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
  user: { user_id: number; email: string; full_name: string; is_mirror_dummy: boolean };
};

// --- Channels, subscriptions and topics -----------------------------------------------------

/** A channel object (@chat/wire streamObject). */
export type StreamObject = { stream_id: number; name: string; [field: string]: unknown };

/** A subscription object: the channel's fields and the subscriber's own (@chat/wire subscriptionObject). */
export type SubscriptionObject = StreamObject;

export type SubscriptionEvent =
  | { type: 'subscription'; op: 'add'; subscriptions: SubscriptionObject[] }
  | { type: 'subscription'; op: 'remove'; subscriptions: Array<{ name: string; stream_id: number }> }
  | { type: 'subscription'; op: 'update'; stream_id: number; property: string; value: unknown }
  | { type: 'subscription'; op: 'peer_add' | 'peer_remove'; stream_ids: number[]; user_ids: number[] };

export type StreamEvent =
  | { type: 'stream'; op: 'create'; streams: StreamObject[] }
  /** Clients go by stream_ids; streams may hold no more than the ids. */
  | { type: 'stream'; op: 'delete'; streams: Array<Pick<StreamObject, 'stream_id'> & Record<string, unknown>>; stream_ids: number[] }
  /** Some properties carry derived fields beside value (rendered_description, history_public_to_subscribers, ...). */
  | { type: 'stream'; op: 'update'; stream_id: number; name: string; property: string; value: unknown; [extra: string]: unknown };

export type UserTopicEvent = {
  type: 'user_topic';
  stream_id: number;
  topic_name: string;
  last_updated: number;
  visibility_policy: TopicVisibility;
};

// --- People ---------------------------------------------------------------------------------

/** A user object (@chat/wire userObject). */
export type UserObject = { user_id: number; [field: string]: unknown };

export type RealmUserEvent =
  | { type: 'realm_user'; op: 'add'; person: UserObject }
  /** One changed property (or a few belonging together) of `person.user_id`. */
  | { type: 'realm_user'; op: 'update'; person: UserObject }
  | { type: 'realm_user'; op: 'remove'; person: { user_id: number; full_name: string } };

/** Routing of the realm_user add that announces a new account (docs/events.md, new_user). */
export type NewUserRouting = {
  new_user: {
    user_id: number;
    is_bot: boolean;
    realm_url: string;
    invited_by?: number;
    notify_referrer_on_join?: boolean;
    welcome_message_custom_text?: string | null;
  };
};

/** A bot object (@chat/wire botObject), or the changed fields of one beside `user_id`. */
export type RealmBotEvent = {
  type: 'realm_bot';
  op: 'add' | 'update' | 'delete' | 'remove';
  bot: { [field: string]: unknown };
};

/**
 * Routing of the realm_bot add of a bot created with an avatar (POST /bots with a file): the
 * users service keeps the image in Redis under `key` (@chat/bus `botAvatarHandover`) and the
 * uploads service, reading this event, stores it as the bot's avatar (docs/uploads.md).
 */
export type BotAvatarRouting = {
  bot_avatar: { key: string; realm_url: string };
};

// --- Uploads --------------------------------------------------------------------------------

/**
 * For no client (`users: []`): the uploads service made an image's thumbnails, or found it no
 * image after all. The messaging service re-renders the messages that show it loading.
 */
export type ThumbnailsEvent = { type: 'thumbnails'; path_id: string };

// --- The outbox -----------------------------------------------------------------------------

/** Routing fields the fan-out understands on any event (docs/events.md, Other events). */
export type FanoutRouting = {
  /** Only queues that declared this client capability get `event`... */
  capability?: string;
  /** ...and the others get this instead (absent or null: nothing). */
  fallback_event?: ClientEvent | null;
  /** Event fields holding a topic, shown as the display name to queues without empty_topic_name. */
  topic_fields?: string[];
  /** Each recipient's flags, added to its copy of the event. */
  user_flags?: UserFlags;
};

/** Each typed event type: its event and the routing that travels with it. */
export interface OutboxEvents {
  message: { event: MessageEvent; routing: MessageRouting };
  update_message: { event: UpdateMessageEvent; routing: FanoutRouting };
  delete_message: { event: DeleteMessageEvent; routing: FanoutRouting };
  update_message_flags: { event: UpdateMessageFlagsEvent; routing: FanoutRouting };
  reaction: { event: ReactionEvent; routing: FanoutRouting };
  subscription: { event: SubscriptionEvent; routing: FanoutRouting };
  stream: { event: StreamEvent; routing: FanoutRouting };
  user_topic: { event: UserTopicEvent; routing: FanoutRouting };
  realm_user: { event: RealmUserEvent; routing: FanoutRouting & Partial<NewUserRouting> };
  realm_bot: { event: RealmBotEvent; routing: FanoutRouting & Partial<BotAvatarRouting> };
  thumbnails: { event: ThumbnailsEvent; routing: FanoutRouting };
}

export type OutboxType = keyof OutboxEvents;

/** The event of outbox type T; any event for an untyped type. */
export type OutboxEventOf<T extends string> = T extends OutboxType ? OutboxEvents[T]['event'] : ClientEvent;
/** The routing of outbox type T. */
export type OutboxRoutingOf<T extends string> = T extends OutboxType ? OutboxEvents[T]['routing'] : FanoutRouting & Record<string, unknown>;

/** A payload as stored in outbox.payload and carried by the stream entry. */
export type OutboxPayload<T extends string = string> = { event: OutboxEventOf<T>; users: EventRecipients } & OutboxRoutingOf<T>;

export type MessagePayload = OutboxPayload<'message'>;

/**
 * Any payload, as the fan-out reads it before looking at its type: generic routing, plus the
 * message routing fields, present on message payloads only.
 */
export type AnyOutboxPayload = { event: ClientEvent; users: EventRecipients } & FanoutRouting & Partial<MessageRouting>;

/** Narrows a stream entry (type and payload, as @chat/bus reads them) to outbox type T. */
export function isOutboxType<T extends OutboxType>(entry: { type: string; payload: object }, type: T): entry is { type: T; payload: OutboxPayload<T> } {
  return entry.type === type;
}

/** Narrows a payload by its event's type, for readers without the entry's type field. */
export function isMessagePayload(p: AnyOutboxPayload): p is AnyOutboxPayload & MessagePayload {
  return p.event.type === 'message';
}
