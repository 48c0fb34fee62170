/**
 * Default settings for new users (PATCH /realm/user_settings_defaults; the snapshot's
 * realm_user_settings_defaults), in the family's groups. Existing users keep theirs.
 */
import type { StringKey } from '../i18n';
import type { FieldDef, Option } from './formModel';
import type { Subsection } from './realmFields';

const bool = (name: string): FieldDef => ({ name, kind: 'bool', label: `admin.default.${name}` as StringKey });
const select = (name: string, options: readonly Option[]): FieldDef => ({ name, kind: 'select', label: `admin.default.${name}` as StringKey, options });

const HOME_VIEW: readonly Option[] = [
  { value: 'inbox', label: 'admin.home.inbox' },
  { value: 'recent_topics', label: 'admin.home.recent' },
  { value: 'all_messages', label: 'admin.home.feed' },
];

const COLOR_SCHEME: readonly Option[] = [
  { value: 1, label: 'admin.theme.auto' },
  { value: 2, label: 'admin.theme.dark' },
  { value: 3, label: 'admin.theme.light' },
];

const EMOJISET: readonly Option[] = [
  { value: 'google', label: 'admin.emojiset.google' },
  { value: 'twitter', label: 'admin.emojiset.twitter' },
  { value: 'text', label: 'admin.emojiset.text' },
];

const MARK_READ: readonly Option[] = [
  { value: 1, label: 'admin.markread.always' },
  { value: 2, label: 'admin.markread.conversation' },
  { value: 3, label: 'admin.markread.never' },
];

const EMAIL_VISIBILITY: readonly Option[] = [
  { value: 1, label: 'admin.emailvis.everyone' },
  { value: 2, label: 'admin.emailvis.members' },
  { value: 5, label: 'admin.emailvis.moderators' },
  { value: 3, label: 'admin.emailvis.admins' },
  { value: 4, label: 'admin.emailvis.nobody' },
];

const FOLLOW: readonly Option[] = [
  { value: 1, label: 'admin.follow.participate' },
  { value: 2, label: 'admin.follow.send' },
  { value: 3, label: 'admin.follow.start' },
  { value: 4, label: 'admin.follow.never' },
];

export const DEFAULTS_SUBSECTIONS: readonly Subsection[] = [
  {
    id: 'preferences',
    title: 'admin.sub.preferences',
    fields: [
      select('web_home_view', HOME_VIEW),
      select('color_scheme', COLOR_SCHEME),
      select('emojiset', EMOJISET),
      select('web_mark_read_on_scroll_policy', MARK_READ),
      bool('twenty_four_hour_time'),
      bool('enter_sends'),
      bool('translate_emoticons'),
      bool('display_emoji_reaction_users'),
      bool('starred_message_counts'),
    ],
  },
  {
    id: 'notifications',
    title: 'admin.sub.default_notifications',
    fields: [
      bool('enable_stream_desktop_notifications'),
      bool('enable_stream_audible_notifications'),
      bool('enable_stream_push_notifications'),
      bool('enable_stream_email_notifications'),
      bool('enable_desktop_notifications'),
      bool('enable_sounds'),
      bool('enable_offline_email_notifications'),
      bool('enable_offline_push_notifications'),
      bool('wildcard_mentions_notify'),
      bool('enable_digest_emails'),
      bool('message_content_in_email_notifications'),
      select('automatically_follow_topics_policy', FOLLOW),
    ],
  },
  {
    id: 'privacy',
    title: 'admin.sub.privacy',
    fields: [
      select('email_address_visibility', EMAIL_VISIBILITY),
      bool('send_read_receipts'),
      bool('send_private_typing_notifications'),
      bool('send_stream_typing_notifications'),
      bool('presence_enabled'),
    ],
  },
];
