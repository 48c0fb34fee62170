/** Feature level this server implements; clients gate behaviour on it. */
export const FEATURE_LEVEL = 491;
export const SERVER_VERSION = '0.1.0';

/** The largest id a row can have (ids are Postgres `integer`s). */
export const INT4_MAX = 2_147_483_647;


export const ROLE = { OWNER: 100, ADMINISTRATOR: 200, MODERATOR: 300, MEMBER: 400, GUEST: 600 } as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];
export const ROLES: readonly number[] = Object.values(ROLE);

/**
 * Names of the system groups every realm has, as clients see them in user group objects. They
 * back every group-setting value ("who may do X"); @chat/realm creates and nests them.
 */
export const SYSTEM_GROUPS = {
  nobody: 'role:nobody',
  owners: 'role:owners',
  administrators: 'role:administrators',
  moderators: 'role:moderators',
  fullMembers: 'role:fullmembers',
  members: 'role:members',
  everyone: 'role:everyone',
  internet: 'role:internet',
} as const;

/**
 * A user's visibility policy for one topic (`visibility_policy` of user_topic events, of the
 * `user_topics` register section and of POST /user_topics, and the user_topics table's column).
 * INHERIT (the API's "none") means no row: the channel's muting applies.
 */
export const TOPIC_VISIBILITY = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;
export type TopicVisibility = (typeof TOPIC_VISIBILITY)[keyof typeof TOPIC_VISIBILITY];

export function isTopicVisibility(value: unknown): value is TopicVisibility {
  return (Object.values(TOPIC_VISIBILITY) as unknown[]).includes(value);
}

export const BOT_TYPE = { GENERIC: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3, EMBEDDED: 4 } as const;

export const LIMITS = {
  maxMessageLength: 10000,
  maxReminderNoteLength: 1000,
  maxTopicLength: 60,
  maxStreamNameLength: 60,
  maxStreamDescriptionLength: 1024,
  maxChannelFolderNameLength: 60,
  maxChannelFolderDescriptionLength: 1024,
  maxMessagesPerFetch: 5000,
  maxFileUploadSizeMib: 100,
  statusTextLength: 60,
  welcomeMessageCustomTextLength: 8000,
  /** Below this many subscribers, `subscribers` is always sent. */
  partialSubscribersThreshold: 250,
  defaultIdleQueueTimeoutSecs: 600,
  maxIdleQueueTimeoutSecs: 7 * 24 * 3600,
  eventQueueLongpollTimeoutSeconds: 90,
  defaultInviteExpiryMinutes: 14400,
} as const;

export const EMPTY_TOPIC_DISPLAY_NAME = 'general chat';
export const NO_TOPIC_PLACEHOLDER = '(no topic)';

/** Bits of user_messages.flags. The order is ours; the wire names are the API's. */
export const MESSAGE_FLAGS = [
  'read',
  'starred',
  'collapsed',
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'has_alert_word',
  'historical',
  'is_private',
  'active_mobile_push_notification',
] as const;
export type MessageFlag = (typeof MESSAGE_FLAGS)[number];

export function flagBit(flag: MessageFlag): bigint {
  return 1n << BigInt(MESSAGE_FLAGS.indexOf(flag));
}

/** Flags kept for the server's own use (query plans, push bookkeeping), never shown to clients. */
export const INTERNAL_FLAGS: readonly MessageFlag[] = ['is_private', 'active_mobile_push_notification'];

/** The flags clients see (message objects and events): flagNames without the internal ones. */
export function apiFlagNames(bits: bigint): string[] {
  return flagNames(bits).filter((name) => !INTERNAL_FLAGS.includes(name as MessageFlag));
}

/** Wire names of the flags set in a bitmask; `wildcard_mentioned` is the legacy alias clients still read. */
export function flagNames(bits: bigint): string[] {
  const names: string[] = [];
  MESSAGE_FLAGS.forEach((name, i) => {
    if (bits & (1n << BigInt(i))) names.push(name);
  });
  if (names.includes('stream_wildcard_mentioned') || names.includes('topic_wildcard_mentioned')) {
    names.push('wildcard_mentioned');
  }
  return names;
}
