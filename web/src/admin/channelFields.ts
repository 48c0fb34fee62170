/**
 * A channel's settings as forms (PATCH /streams/{id}), and the request creating one (POST
 * /users/me/subscriptions), kept pure for the tests.
 */
import type { StringKey } from '../i18n';
import type { FieldDef, Option } from './formModel';

export type Privacy = 'public' | 'private' | 'web_public';

export function privacyOf(s: { invite_only?: boolean; is_web_public?: boolean }): Privacy {
  return s.invite_only ? 'private' : s.is_web_public ? 'web_public' : 'public';
}

const PRIVACY: readonly Option[] = [
  { value: 'public', label: 'admin.channel.public' },
  { value: 'private', label: 'admin.channel.private' },
  { value: 'web_public', label: 'admin.channel.web_public' },
];

const TOPICS: readonly Option[] = [
  { value: 'inherit', label: 'admin.topics.inherit' },
  { value: 'allow_empty_topic', label: 'admin.topics.allow_empty' },
  { value: 'disable_empty_topic', label: 'admin.topics.disable_empty' },
  { value: 'empty_topic_only', label: 'admin.topics.empty_only' },
];

/** The API's words for a channel's retention: null is the organization's default, -1 forever. */
export function retentionParam(days: number | null): string | number {
  return days === null ? 'realm_default' : days === -1 ? 'unlimited' : days;
}

export function generalFields(folders: ReadonlyArray<{ id: number; name: string }>, noFolderLabel: string): FieldDef[] {
  return [
    { name: 'name', kind: 'text', label: 'admin.channel.name', write: (v) => ({ new_name: String(v).trim() }) },
    { name: 'description', kind: 'textarea', label: 'admin.channel.description' },
    {
      name: 'privacy',
      kind: 'select',
      label: 'admin.channel.privacy',
      options: PRIVACY,
      read: (s) => privacyOf(s),
      write: (v) => ({ is_private: v === 'private', is_web_public: v === 'web_public' }),
    },
    { name: 'history_public_to_subscribers', kind: 'bool', label: 'admin.channel.history_public' },
    {
      name: 'folder_id',
      kind: 'select',
      label: 'admin.channel.folder',
      choices: [{ value: -1, label: noFolderLabel }, ...folders.map((f) => ({ value: f.id, label: f.name }))],
      read: (s) => (typeof s.folder_id === 'number' ? s.folder_id : -1),
      write: (v) => ({ folder_id: v === -1 ? null : v }),
    },
    { name: 'topics_policy', kind: 'select', label: 'admin.channel.topics_policy', options: TOPICS },
    {
      name: 'message_retention_days',
      kind: 'retention',
      label: 'admin.channel.retention',
      nullable: true,
      ownerOnly: true,
      read: (s) => (s.message_retention_days === undefined ? null : s.message_retention_days),
      write: (v) => ({ message_retention_days: retentionParam(v as number | null) }),
    },
  ];
}

const STREAM_GROUP_SETTINGS = ['can_send_message_group', 'can_administer_channel_group', 'can_add_subscribers_group', 'can_remove_subscribers_group', 'can_subscribe_group'] as const;

export const PERMISSION_FIELDS: readonly FieldDef[] = STREAM_GROUP_SETTINGS.map((name) => ({ name, kind: 'group', label: `admin.channel.${name}` as StringKey, permissionKind: 'stream' }));

export interface NewChannel {
  name: string;
  description: string;
  privacy: Privacy;
  /** For private channels: whether people who join later see the history. */
  historyPublic: boolean;
  announce: boolean;
  subscribers: number[];
  folderId: number | null;
  isDefault: boolean;
}

export function createChannelParams(c: NewChannel): Record<string, unknown> {
  return {
    subscriptions: [{ name: c.name.trim(), description: c.description }],
    invite_only: c.privacy === 'private',
    is_web_public: c.privacy === 'web_public',
    // Public channels' history is always readable to those who join.
    history_public_to_subscribers: c.privacy === 'private' ? c.historyPublic : true,
    announce: c.announce,
    principals: c.subscribers,
    ...(c.folderId !== null ? { folder_id: c.folderId } : {}),
    ...(c.isDefault ? { is_default_stream: true } : {}),
  };
}
