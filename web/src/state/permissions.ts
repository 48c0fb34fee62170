/**
 * Who may do what, by the family's rules (its web app's settings_data.ts, message_edit.ts and
 * stream_data.ts), in one place for every view. A "group setting" is a group id or an anonymous
 * group `{direct_members, direct_subgroups}`; membership follows subgroups, and the system group
 * role:fullmembers also takes members whose account is older than the waiting period. Pure:
 * every function takes the snapshot (and `now` in seconds where time limits apply).
 *
 * Exports: GroupSetting, ROLE, isInGroup, isInGroupSetting, hasRealmPermission, isAdmin, isOwner,
 * isModerator, isGuest, isFullMember, canEditContent, canEditTopic, canMoveToChannel,
 * canResolveTopic, canDelete, canPostInChannel, canAdministerChannel, canSubscribeOthers,
 * canManageGroup, canCreateChannel, canInviteUsers, canAddCustomEmoji, canCreateGroups,
 * canCreateBots, canSendDirect, canMentionManyUsers, canSeeEditHistory, editSecondsLeft.
 */
import type { Message, RegisterState, Stream, User, UserGroup } from '@chat/client';

export type GroupSetting = number | { direct_members: number[]; direct_subgroups: number[] };

export const ROLE = { OWNER: 100, ADMIN: 200, MODERATOR: 300, MEMBER: 400, GUEST: 600 } as const;

const nowSeconds = () => Date.now() / 1000;

function userOf(reg: RegisterState, userId: number): User | undefined {
  return reg.realm_users.find((u) => u.user_id === userId) ?? reg.realm_non_active_users?.find((u) => u.user_id === userId);
}

function roleOf(reg: RegisterState, userId: number): number {
  if (userId === reg.user_id) return reg.role;
  return userOf(reg, userId)?.role ?? ROLE.GUEST;
}

/** Whether the account is old enough for role:fullmembers (the realm's waiting period, in days). */
export function isFullMember(reg: RegisterState, userId = reg.user_id, now = nowSeconds()): boolean {
  const role = roleOf(reg, userId);
  if (role > ROLE.MEMBER) return false;
  if (role < ROLE.MEMBER) return true;
  const days = Number(reg.realm_waiting_period_threshold ?? 0);
  const joined = Date.parse(String(userOf(reg, userId)?.date_joined ?? ''));
  if (!days || Number.isNaN(joined)) return true;
  return now - joined / 1000 >= days * 86400;
}

function groupsById(reg: RegisterState): Map<number, UserGroup> {
  return new Map((reg.realm_user_groups ?? []).map((g) => [g.id, g]));
}

/** Membership of a group, through its subgroups (deactivated groups hold nobody). */
export function isInGroup(reg: RegisterState, groupId: number, userId = reg.user_id, now = nowSeconds()): boolean {
  const groups = groupsById(reg);
  const seen = new Set<number>();
  const visit = (id: number): boolean => {
    if (seen.has(id)) return false;
    seen.add(id);
    const g = groups.get(id);
    if (!g || g.deactivated) return false;
    if (g.members.includes(userId)) return true;
    if (g.is_system_group && g.name === 'role:fullmembers' && isFullMember(reg, userId, now)) return true;
    return g.direct_subgroup_ids.some(visit);
  };
  return visit(groupId);
}

export function isInGroupSetting(reg: RegisterState, setting: GroupSetting | null | undefined, userId = reg.user_id, now = nowSeconds()): boolean {
  if (setting === null || setting === undefined) return false;
  if (typeof setting === 'number') return isInGroup(reg, setting, userId, now);
  return setting.direct_members.includes(userId) || setting.direct_subgroups.some((id) => isInGroup(reg, id, userId, now));
}

/** A realm group setting by its name without the realm_ prefix, e.g. 'can_invite_users_group'. */
export function hasRealmPermission(reg: RegisterState, setting: string, userId = reg.user_id, now = nowSeconds()): boolean {
  return isInGroupSetting(reg, reg[`realm_${setting}`] as GroupSetting | undefined, userId, now);
}

export const isOwner = (reg: RegisterState): boolean => reg.role === ROLE.OWNER;
export const isAdmin = (reg: RegisterState): boolean => reg.role <= ROLE.ADMIN;
export const isModerator = (reg: RegisterState): boolean => reg.role <= ROLE.MODERATOR;
export const isGuest = (reg: RegisterState): boolean => reg.role === ROLE.GUEST;

function channel(reg: RegisterState, id: number | undefined): Stream | undefined {
  if (id === undefined) return undefined;
  for (const key of ['subscriptions', 'unsubscribed', 'never_subscribed', 'streams']) {
    const list = reg[key];
    const found = Array.isArray(list) ? (list as Stream[]).find((s) => s.stream_id === id) : undefined;
    if (found) return found;
  }
  return undefined;
}

function channelSetting(reg: RegisterState, streamId: number | undefined, name: string, now: number): boolean {
  const s = channel(reg, streamId);
  return !!s && isInGroupSetting(reg, s[name] as GroupSetting | undefined, reg.user_id, now);
}

export function canAdministerChannel(reg: RegisterState, streamId: number, now = nowSeconds()): boolean {
  return isAdmin(reg) || channelSetting(reg, streamId, 'can_administer_channel_group', now);
}

function withinLimit(sentAt: number, limit: unknown, now: number, buffer = 0): boolean {
  if (limit === null || limit === undefined || limit === 0) return true;
  return sentAt + Number(limit) + buffer > now;
}

/** Seconds left to edit the content (Infinity without a limit, 0 when it may not be edited). */
export function editSecondsLeft(reg: RegisterState, m: Message, now = nowSeconds()): number {
  if (!canEditContent(reg, m, now)) return 0;
  const limit = reg.realm_message_content_edit_limit_seconds;
  if (limit === null || limit === undefined || limit === 0) return Infinity;
  return Math.max(0, m.timestamp + Number(limit) - now);
}

/** Editing a message's content: one's own, editing allowed, within the time limit, not a widget. */
export function canEditContent(reg: RegisterState, m: Message, now = nowSeconds(), buffer = 0): boolean {
  if (!reg.realm_allow_message_editing) return false;
  if (m.sender_id !== reg.user_id) return false;
  if ((m.submessages ?? []).length > 0) return false;
  return withinLimit(m.timestamp, reg.realm_message_content_edit_limit_seconds, now, buffer);
}

/** Moving a channel message to another topic (renaming its topic). */
export function canEditTopic(reg: RegisterState, m: Message, now = nowSeconds(), buffer = 0): boolean {
  if (m.type !== 'stream') return false;
  const allowed = hasRealmPermission(reg, 'can_move_messages_between_topics_group', reg.user_id, now)
    || channelSetting(reg, m.stream_id, 'can_move_messages_within_channel_group', now)
    || canAdministerChannel(reg, m.stream_id!, now);
  if (!allowed) return false;
  // Moderators and above are not held to the time limit.
  if (isModerator(reg)) return true;
  return withinLimit(m.timestamp, reg.realm_move_messages_within_stream_limit_seconds, now, buffer);
}

/** Moving a channel message to another channel. */
export function canMoveToChannel(reg: RegisterState, m: Message, now = nowSeconds(), buffer = 0): boolean {
  if (m.type !== 'stream') return false;
  const allowed = hasRealmPermission(reg, 'can_move_messages_between_channels_group', reg.user_id, now)
    || channelSetting(reg, m.stream_id, 'can_move_messages_out_of_channel_group', now)
    || canAdministerChannel(reg, m.stream_id!, now);
  if (!allowed) return false;
  if (isModerator(reg)) return true;
  return withinLimit(m.timestamp, reg.realm_move_messages_between_streams_limit_seconds, now, buffer);
}

/** Marking a topic resolved or unresolved (the `✔ ` prefix), which is not held to time limits. */
export function canResolveTopic(reg: RegisterState, streamId: number, now = nowSeconds()): boolean {
  return hasRealmPermission(reg, 'can_resolve_topics_group', reg.user_id, now) || channelSetting(reg, streamId, 'can_resolve_topics_group', now) || canAdministerChannel(reg, streamId, now);
}

export function canDelete(reg: RegisterState, m: Message, now = nowSeconds()): boolean {
  if (hasRealmPermission(reg, 'can_delete_any_message_group', reg.user_id, now)) return true;
  if (m.type === 'stream' && channelSetting(reg, m.stream_id, 'can_delete_any_message_group', now)) return true;
  if (m.sender_id !== reg.user_id) return false;
  const own = hasRealmPermission(reg, 'can_delete_own_message_group', reg.user_id, now) || (m.type === 'stream' && channelSetting(reg, m.stream_id, 'can_delete_own_message_group', now));
  if (!own) return false;
  return withinLimit(m.timestamp, reg.realm_message_content_delete_limit_seconds, now);
}

export function canPostInChannel(reg: RegisterState, streamId: number, now = nowSeconds()): boolean {
  const s = channel(reg, streamId);
  if (!s || s.is_archived) return false;
  const setting = s.can_send_message_group as GroupSetting | undefined;
  return setting === undefined || isInGroupSetting(reg, setting, reg.user_id, now);
}

export function canSubscribeOthers(reg: RegisterState, streamId?: number, now = nowSeconds()): boolean {
  if (hasRealmPermission(reg, 'can_add_subscribers_group', reg.user_id, now)) return true;
  return streamId !== undefined && (channelSetting(reg, streamId, 'can_add_subscribers_group', now) || canAdministerChannel(reg, streamId, now));
}

/** Managing a user group: the group's own can_manage_group or the realm's can_manage_all_groups. */
export function canManageGroup(reg: RegisterState, groupId: number, now = nowSeconds()): boolean {
  const g = groupsById(reg).get(groupId);
  if (!g || g.is_system_group) return false;
  return hasRealmPermission(reg, 'can_manage_all_groups', reg.user_id, now) || isInGroupSetting(reg, g.can_manage_group as GroupSetting | undefined, reg.user_id, now);
}

export function canCreateChannel(reg: RegisterState, kind: 'public' | 'private' | 'web_public', now = nowSeconds()): boolean {
  if (kind === 'web_public' && !reg.realm_enable_spectator_access) return false;
  return hasRealmPermission(reg, `can_create_${kind}_channel_group`, reg.user_id, now);
}

export const canInviteUsers = (reg: RegisterState, now = nowSeconds()): boolean => hasRealmPermission(reg, 'can_invite_users_group', reg.user_id, now);
export const canAddCustomEmoji = (reg: RegisterState, now = nowSeconds()): boolean => hasRealmPermission(reg, 'can_add_custom_emoji_group', reg.user_id, now);
export const canCreateGroups = (reg: RegisterState, now = nowSeconds()): boolean => hasRealmPermission(reg, 'can_create_groups', reg.user_id, now);
export const canCreateBots = (reg: RegisterState, now = nowSeconds()): boolean => hasRealmPermission(reg, 'can_create_bots_group', reg.user_id, now) || hasRealmPermission(reg, 'can_create_write_only_bots_group', reg.user_id, now);
export const canMentionManyUsers = (reg: RegisterState, now = nowSeconds()): boolean => hasRealmPermission(reg, 'can_mention_many_users_group', reg.user_id, now);

/**
 * Sending a direct message to `recipients` (others): everyone in the conversation must be in
 * direct_message_permission_group, and starting one needs direct_message_initiator_group.
 */
export function canSendDirect(reg: RegisterState, recipients: number[], now = nowSeconds()): boolean {
  const everyone = [reg.user_id, ...recipients];
  const bots = new Set(reg.realm_users.filter((u) => u.is_bot).map((u) => u.user_id));
  // Bots may always be written to.
  if (recipients.length && recipients.every((id) => bots.has(id))) return true;
  const permission = reg.realm_direct_message_permission_group as GroupSetting | undefined;
  if (permission !== undefined && !everyone.some((id) => isInGroupSetting(reg, permission, id, now))) return false;
  const initiator = reg.realm_direct_message_initiator_group as GroupSetting | undefined;
  return initiator === undefined || isInGroupSetting(reg, initiator, reg.user_id, now);
}

export function canSeeEditHistory(reg: RegisterState): boolean {
  const policy = reg.realm_message_edit_history_visibility_policy;
  if (policy !== undefined) return policy !== 'none';
  return reg.realm_allow_edit_history !== false;
}
