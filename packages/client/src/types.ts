/**
 * The shapes of the answers the web app reads, as the family's clients read them. Messages and
 * events come from @chat/contracts (the server's own types); the register snapshot is typed
 * here for the parts clients use, the rest reachable through the index signature.
 */
import type { MessageObject } from '@chat/contracts/src/events';

export type { MessageObject, ClientEvent, MessageReaction, DisplayRecipientUser } from '@chat/contracts/src/events';

/** A message as GET /messages and `message` events give it, with the viewer's flags. */
export type Message = MessageObject & { flags: string[]; match_content?: string; match_subject?: string };

export interface User {
  user_id: number;
  email: string;
  delivery_email?: string | null;
  full_name: string;
  avatar_url: string | null;
  is_active: boolean;
  is_bot: boolean;
  role: number;
  is_admin?: boolean;
  is_owner?: boolean;
  is_guest?: boolean;
  bot_type?: number | null;
  bot_owner_id?: number | null;
  timezone?: string;
  date_joined?: string;
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
  [key: string]: unknown;
}

export interface Subscription {
  stream_id: number;
  name: string;
  description: string;
  rendered_description?: string;
  color: string;
  invite_only: boolean;
  is_web_public?: boolean;
  is_muted: boolean;
  pin_to_top: boolean;
  is_archived?: boolean;
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
  subscribers?: number[];
  folder_id?: number | null;
  [key: string]: unknown;
}

export interface Stream {
  stream_id: number;
  name: string;
  description: string;
  rendered_description?: string;
  invite_only: boolean;
  is_web_public?: boolean;
  is_archived?: boolean;
  [key: string]: unknown;
}

export interface UnreadStreamEntry { stream_id: number; topic: string; unread_message_ids: number[] }
export interface UnreadDmEntry { other_user_id: number; sender_id?: number; unread_message_ids: number[] }
export interface UnreadHuddleEntry { user_ids_string: string; unread_message_ids: number[] }

export interface UnreadMsgs {
  count: number;
  pms: UnreadDmEntry[];
  streams: UnreadStreamEntry[];
  huddles: UnreadHuddleEntry[];
  mentions: number[];
  old_unreads_missing: boolean;
}

export interface UserTopic { stream_id: number; topic_name: string; last_updated: number; visibility_policy: number }

export interface Draft { id: number; type: 'stream' | 'private' | ''; to: number[]; topic: string; content: string; timestamp: number }

export interface ScheduledMessage {
  scheduled_message_id: number;
  type: 'stream' | 'private';
  to: number | number[];
  topic?: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

export interface CustomEmoji { id: string; name: string; source_url: string; deactivated: boolean; author_id: number | null; still_url?: string | null }

export interface UserGroup { id: number; name: string; description: string; members: number[]; direct_subgroup_ids: number[]; is_system_group: boolean; deactivated?: boolean; [key: string]: unknown }

export interface PresenceEntry { active_timestamp: number; idle_timestamp: number }

/** The snapshot POST /register answers, with the parts the web app uses typed. */
export interface RegisterState {
  queue_id: string | null;
  last_event_id: number;
  zulip_feature_level: number;
  zulip_version: string;
  user_id: number;
  email: string;
  full_name: string;
  avatar_url?: string;
  is_admin: boolean;
  is_owner: boolean;
  is_guest?: boolean;
  role: number;
  realm_name: string;
  realm_description?: string;
  realm_icon_url?: string;
  realm_uri?: string;
  realm_url?: string;
  realm_users: User[];
  realm_non_active_users?: User[];
  cross_realm_bots?: User[];
  realm_emoji: Record<string, CustomEmoji>;
  realm_user_groups?: UserGroup[];
  subscriptions: Subscription[];
  unsubscribed?: Subscription[];
  never_subscribed?: Stream[];
  streams?: Stream[];
  recent_private_conversations?: Array<{ user_ids: number[]; max_message_id: number }>;
  unread_msgs: UnreadMsgs;
  user_topics?: UserTopic[];
  muted_users?: Array<{ id: number; timestamp: number }>;
  drafts?: Draft[];
  scheduled_messages?: ScheduledMessage[];
  presences?: Record<string, PresenceEntry | Record<string, unknown>>;
  user_status?: Record<string, { away?: boolean; status_text?: string; emoji_name?: string; emoji_code?: string; reaction_type?: string }>;
  user_settings?: Record<string, unknown>;
  alert_words?: string[];
  starred_messages?: number[];
  max_message_id?: number;
  server_timestamp?: number;
  [key: string]: unknown;
}
