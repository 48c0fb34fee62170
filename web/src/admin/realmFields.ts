/**
 * The realm's settings as the family groups them into subsections, each saved on its own with
 * PATCH /realm. Snapshot keys are `realm_<name>`.
 */
import type { StringKey } from '../i18n';
import type { FieldDef, Option } from './formModel';

export interface Subsection {
  id: string;
  title: StringKey;
  fields: readonly FieldDef[];
}

const JOIN_RESTRICTIONS: readonly Option[] = [
  { value: 'no_restriction', label: 'admin.join.none' },
  { value: 'no_disposable_email', label: 'admin.join.no_disposable' },
  { value: 'only_selected_domain', label: 'admin.join.domains' },
];

/** The family shows two booleans as one choice of how sign-ups are restricted. */
export const joinRestrictionsField: FieldDef = {
  name: 'org_join_restrictions',
  kind: 'select',
  label: 'admin.field.org_join_restrictions',
  options: JOIN_RESTRICTIONS,
  ownerOnly: true,
  read: (s) => (s.realm_emails_restricted_to_domains ? 'only_selected_domain' : s.realm_disallow_disposable_email_addresses ? 'no_disposable_email' : 'no_restriction'),
  write: (v) => ({ emails_restricted_to_domains: v === 'only_selected_domain', disallow_disposable_email_addresses: v === 'no_disposable_email' }),
};

const WEEKDAYS: readonly Option[] = (['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const).map((d, i) => ({ value: i, label: `admin.weekday.${d}` as const }));

const VIDEO_CHAT: readonly Option[] = [
  { value: 0, label: 'admin.video.none' },
  { value: 1, label: 'admin.video.jitsi' },
];

const GIPHY: readonly Option[] = [
  { value: 0, label: 'admin.giphy.disabled' },
  { value: 1, label: 'admin.giphy.y' },
  { value: 2, label: 'admin.giphy.g' },
  { value: 3, label: 'admin.giphy.pg' },
  { value: 4, label: 'admin.giphy.pg13' },
];

const TOPICS_POLICY: readonly Option[] = [
  { value: 'allow_empty_topic', label: 'admin.topics.allow_empty' },
  { value: 'disable_empty_topic', label: 'admin.topics.disable_empty' },
];

const ORG_TYPES: readonly Option[] = [
  { value: 0, label: 'admin.orgtype.unspecified' },
  { value: 10, label: 'admin.orgtype.business' },
  { value: 20, label: 'admin.orgtype.opensource' },
  { value: 30, label: 'admin.orgtype.education_nonprofit' },
  { value: 35, label: 'admin.orgtype.education' },
  { value: 40, label: 'admin.orgtype.research' },
  { value: 50, label: 'admin.orgtype.event' },
  { value: 60, label: 'admin.orgtype.nonprofit' },
  { value: 70, label: 'admin.orgtype.government' },
  { value: 80, label: 'admin.orgtype.political_group' },
  { value: 90, label: 'admin.orgtype.community' },
  { value: 100, label: 'admin.orgtype.personal' },
  { value: 1000, label: 'admin.orgtype.other' },
];

const group = (name: string, ownerOnly = false): FieldDef => ({ name, kind: 'group', label: `admin.field.${name}` as StringKey, ownerOnly, permissionKind: 'realm' });
const bool = (name: string, ownerOnly = false): FieldDef => ({ name, kind: 'bool', label: `admin.field.${name}` as StringKey, ownerOnly });
const limit = (name: string): FieldDef => ({ name, kind: 'timeLimit', label: `admin.field.${name}` as StringKey });

export const PROFILE_SUBSECTIONS: readonly Subsection[] = [
  {
    id: 'profile',
    title: 'admin.sub.profile',
    fields: [
      { name: 'name', kind: 'text', label: 'admin.field.name' },
      { name: 'org_type', kind: 'select', label: 'admin.field.org_type', options: ORG_TYPES },
      { name: 'description', kind: 'textarea', label: 'admin.field.description' },
    ],
  },
];

export const SETTINGS_SUBSECTIONS: readonly Subsection[] = [
  {
    id: 'notifications',
    title: 'admin.sub.notifications',
    fields: [
      { name: 'default_language', kind: 'select', label: 'admin.field.default_language' },
      { name: 'new_stream_announcements_stream_id', kind: 'channel', label: 'admin.field.new_stream_announcements_stream_id' },
      { name: 'signup_announcements_stream_id', kind: 'channel', label: 'admin.field.signup_announcements_stream_id' },
      { name: 'zulip_update_announcements_stream_id', kind: 'channel', label: 'admin.field.zulip_update_announcements_stream_id' },
      bool('message_content_allowed_in_email_notifications'),
      bool('send_welcome_emails'),
      bool('digest_emails_enabled'),
      { name: 'digest_weekday', kind: 'select', label: 'admin.field.digest_weekday', options: WEEKDAYS },
    ],
  },
  {
    id: 'retention',
    title: 'admin.sub.retention',
    // Changing how long messages are kept deletes history: the family leaves it to owners.
    fields: [{ name: 'message_retention_days', kind: 'retention', label: 'admin.field.message_retention_days', ownerOnly: true }],
  },
  {
    id: 'other',
    title: 'admin.sub.other_settings',
    fields: [
      { name: 'video_chat_provider', kind: 'select', label: 'admin.field.video_chat_provider', options: VIDEO_CHAT },
      { name: 'giphy_rating', kind: 'select', label: 'admin.field.giphy_rating', options: GIPHY },
      { name: 'default_code_block_language', kind: 'text', label: 'admin.field.default_code_block_language' },
      { name: 'topics_policy', kind: 'select', label: 'admin.field.topics_policy', options: TOPICS_POLICY },
      bool('enable_read_receipts'),
      bool('inline_image_preview'),
      bool('inline_url_embed_preview'),
    ],
  },
];

export const PERMISSION_SUBSECTIONS: readonly Subsection[] = [
  {
    id: 'join',
    title: 'admin.sub.join',
    fields: [
      bool('invite_required', true),
      group('can_invite_users_group'),
      group('create_multiuse_invite_group', true),
      joinRestrictionsField,
      { name: 'waiting_period_threshold', kind: 'days', label: 'admin.field.waiting_period_threshold', ownerOnly: true },
    ],
  },
  {
    id: 'channels',
    title: 'admin.sub.channel_permissions',
    fields: [
      group('can_create_public_channel_group'),
      bool('enable_spectator_access'),
      group('can_create_web_public_channel_group', true),
      group('can_create_private_channel_group'),
      group('can_add_subscribers_group'),
      group('can_mention_many_users_group'),
      group('can_set_topics_policy_group'),
    ],
  },
  { id: 'groups', title: 'admin.sub.group_permissions', fields: [group('can_manage_all_groups', true), group('can_create_groups')] },
  { id: 'dms', title: 'admin.sub.dm_permissions', fields: [group('direct_message_permission_group'), group('direct_message_initiator_group')] },
  {
    id: 'editing',
    title: 'admin.sub.editing',
    fields: [bool('allow_message_editing'), bool('allow_edit_history'), limit('message_content_edit_limit_seconds')],
  },
  {
    id: 'moving',
    title: 'admin.sub.moving',
    fields: [
      group('can_move_messages_between_topics_group'),
      limit('move_messages_within_stream_limit_seconds'),
      group('can_move_messages_between_channels_group'),
      limit('move_messages_between_streams_limit_seconds'),
      group('can_resolve_topics_group'),
    ],
  },
  {
    id: 'deleting',
    title: 'admin.sub.deleting',
    fields: [
      group('can_delete_any_message_group'),
      group('can_delete_own_message_group'),
      limit('message_content_delete_limit_seconds'),
      group('can_set_delete_message_policy_group'),
    ],
  },
  {
    id: 'identity',
    title: 'admin.sub.identity',
    fields: [bool('require_unique_names'), bool('name_changes_disabled'), bool('email_changes_disabled'), bool('avatar_changes_disabled')],
  },
  {
    id: 'guests',
    title: 'admin.sub.guests',
    fields: [bool('enable_guest_user_indicator'), bool('enable_guest_user_dm_warning'), group('can_access_all_users_group')],
  },
  {
    id: 'other',
    title: 'admin.sub.other_permissions',
    fields: [group('can_create_bots_group'), group('can_create_write_only_bots_group'), group('can_add_custom_emoji_group'), group('can_summarize_topics_group')],
  },
];
