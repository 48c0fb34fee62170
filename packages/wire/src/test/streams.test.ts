import type { Stream } from '@chat/db';
import { SYSTEM_GROUPS } from '@chat/contracts';
import { inheritNotificationSettings, streamObject, subscriptionObject, type SubscriptionRow } from '..';

const now = new Date('2024-06-01T12:00:00Z');
const row: Stream = {
  id: 5, realmId: 1, name: 'Verona', nameKey: 'verona', description: '*fair*', renderedDescription: '<p><em>fair</em></p>',
  dateCreated: new Date('2024-05-01T09:30:45Z'), creatorId: 3, inviteOnly: true, isWebPublic: false,
  historyPublicToSubscribers: false, isArchived: false, messageRetentionDays: null, topicsPolicy: 'inherit', folderId: null,
  streamPostPolicy: 1, firstMessageId: 40, canAddSubscribersGroup: null, canRemoveSubscribersGroup: { direct_members: [3], direct_subgroups: [] },
  canSendMessageGroup: null, canAdministerChannelGroup: { direct_members: [3], direct_subgroups: [] }, canDeleteAnyMessageGroup: null,
  canDeleteOwnMessageGroup: null, canMoveMessagesOutOfChannelGroup: null, canMoveMessagesWithinChannelGroup: null,
  canResolveTopicsGroup: 7, canSubscribeGroup: null,
} as Stream;
const systemGroups = new Map([[SYSTEM_GROUPS.nobody, 1], [SYSTEM_GROUPS.administrators, 3], [SYSTEM_GROUPS.everyone, 7]]);

it('gives every field under its API name, group settings falling back to system groups', () => {
  expect(streamObject(row, { systemGroups, subscriberCount: 4, lastMessageAt: new Date('2024-05-30T00:00:00Z'), messagesLastFourWeeks: 10, now })).toEqual({
    stream_id: 5, name: 'Verona', description: '*fair*', rendered_description: '<p><em>fair</em></p>',
    date_created: Math.floor(row.dateCreated.getTime() / 1000), creator_id: 3, invite_only: true, is_web_public: false,
    is_announcement_only: false, stream_post_policy: 1, history_public_to_subscribers: false, first_message_id: 40, folder_id: null,
    message_retention_days: null, topics_policy: 'inherit', is_archived: false, is_recently_active: true, stream_weekly_traffic: 3,
    subscriber_count: 4, can_add_subscribers_group: 1, can_remove_subscribers_group: { direct_members: [3], direct_subgroups: [] },
    can_send_message_group: 7, can_administer_channel_group: { direct_members: [3], direct_subgroups: [] }, can_delete_any_message_group: 1,
    can_delete_own_message_group: 1, can_move_messages_out_of_channel_group: 1, can_move_messages_within_channel_group: 1,
    can_resolve_topics_group: 7, can_subscribe_group: 1,
  });
});

it('has no weekly traffic for a channel younger than a week, and is not recently active without messages', () => {
  const young = { ...row, dateCreated: new Date('2024-05-29T00:00:00Z') } as Stream;
  expect(streamObject(young, { systemGroups, subscriberCount: 0, lastMessageAt: null, messagesLastFourWeeks: 10, now })).toMatchObject({
    stream_weekly_traffic: null, is_recently_active: false,
  });
});

const sub: SubscriptionRow = {
  color: '#76ce90', isMuted: true, pinToTop: false, desktopNotifications: null, emailNotifications: false,
  pushNotifications: true, audibleNotifications: null, wildcardMentionsNotify: null,
};

it('gives a subscription as its channel plus the subscriber\'s own properties, null settings kept', () => {
  const facts = { systemGroups, subscriberCount: 2, lastMessageAt: null, messagesLastFourWeeks: 0, now };
  expect(subscriptionObject(row, sub, facts)).toEqual({
    ...streamObject(row, facts),
    color: '#76ce90', is_muted: true, in_home_view: false, pin_to_top: false, desktop_notifications: null,
    email_notifications: false, push_notifications: true, audible_notifications: null, wildcard_mentions_notify: null,
  });
});

it('carries the subscriber list it is given, full or partial', () => {
  const facts = { systemGroups, subscriberCount: 2, lastMessageAt: null, messagesLastFourWeeks: null, now };
  expect(streamObject(row, facts)).not.toHaveProperty('subscribers');
  expect(streamObject(row, facts, { subscribers: [3, 9] })).toMatchObject({ subscribers: [3, 9] });
  const partial = subscriptionObject(row, sub, facts, { partial_subscribers: [9] });
  expect(partial).toMatchObject({ partial_subscribers: [9], color: '#76ce90' });
  expect(partial).not.toHaveProperty('subscribers');
});

it('fills null notification settings from the user\'s defaults for clients that take no null', () => {
  const facts = { systemGroups, subscriberCount: 2, lastMessageAt: null, messagesLastFourWeeks: null, now };
  const settings = { enable_stream_desktop_notifications: true, enable_stream_audible_notifications: false, wildcard_mentions_notify: true };
  expect(inheritNotificationSettings(subscriptionObject(row, sub, facts), settings)).toMatchObject({
    desktop_notifications: true, audible_notifications: false, email_notifications: false, push_notifications: true,
    wildcard_mentions_notify: null,
  });
});
