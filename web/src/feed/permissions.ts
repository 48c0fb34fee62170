/**
 * What the viewer may do to a message, decided from the /register snapshot with the server's
 * own rules, so the actions offered are the ones the server accepts: group-setting policies
 * ("who may delete any message"), with system groups decided by role as the server decides
 * them, and the realm's time limits. The server checks again; this only hides what it refuses.
 */
import type { Message, RegisterState, UserGroup } from '@chat/client';
import { ROLE, SYSTEM_GROUPS } from '@chat/contracts/src/constants';

/** A group-setting value: a group id, or an anonymous group of people and subgroups. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export interface Viewer {
  userId: number;
  role: number;
  /** Seconds since the epoch the account was created (for "full members"). */
  dateJoined?: number;
}

/** A system group's membership by role, as the server decides it (rows could lag a role change). */
function inSystemGroup(name: string, viewer: Viewer, waitingPeriodDays: number, now: number): boolean {
  switch (name) {
    case SYSTEM_GROUPS.owners:
      return viewer.role <= ROLE.OWNER;
    case SYSTEM_GROUPS.administrators:
      return viewer.role <= ROLE.ADMINISTRATOR;
    case SYSTEM_GROUPS.moderators:
      return viewer.role <= ROLE.MODERATOR;
    case SYSTEM_GROUPS.fullMembers:
      if (viewer.role <= ROLE.MODERATOR) return true;
      if (viewer.role !== ROLE.MEMBER) return false;
      return viewer.dateJoined === undefined || (now - viewer.dateJoined) / 86_400 >= waitingPeriodDays;
    case SYSTEM_GROUPS.members:
      return viewer.role <= ROLE.MEMBER;
    case SYSTEM_GROUPS.everyone:
    case SYSTEM_GROUPS.internet:
      return true;
    default:
      return false;
  }
}

/** Whether the viewer is in a group-setting value, following subgroups (cycles are harmless). */
export function inGroupSetting(value: GroupSettingValue | undefined | null, viewer: Viewer, groups: readonly UserGroup[], waitingPeriodDays = 0, now = Date.now() / 1000): boolean {
  if (value === undefined || value === null) return false;
  const byId = new Map(groups.map((g) => [g.id, g]));
  const seen = new Set<number>();
  const visit = (id: number): boolean => {
    if (seen.has(id)) return false;
    seen.add(id);
    const g = byId.get(id);
    if (!g || g.deactivated) return false;
    if (g.is_system_group) return inSystemGroup(g.name, viewer, waitingPeriodDays, now);
    return g.members.includes(viewer.userId) || g.direct_subgroup_ids.some(visit);
  };
  if (typeof value === 'number') return visit(value);
  return value.direct_members.includes(viewer.userId) || value.direct_subgroups.some(visit);
}

/** The snapshot's facts the rules read, gathered once per render. */
export interface PermissionContext {
  viewer: Viewer;
  groups: readonly UserGroup[];
  allowEditing: boolean;
  /** null (or 0) means no limit, as the server reads it. */
  editLimit: number | null;
  deleteLimit: number | null;
  moveWithinLimit: number | null;
  moveBetweenLimit: number | null;
  waitingPeriodDays: number;
  settings: Record<string, GroupSettingValue | undefined>;
  archivedChannels: ReadonlySet<number>;
  allowEditHistory: boolean;
  readReceipts: boolean;
}

function limitOf(v: unknown, fallback: number | null): number | null {
  if (v === null) return null;
  return typeof v === 'number' ? v : fallback;
}

export function permissionContext(reg: RegisterState): PermissionContext {
  const me = reg.realm_users.find((u) => u.user_id === reg.user_id);
  const joined = me?.date_joined ? Date.parse(me.date_joined) / 1000 : undefined;
  const settings: Record<string, GroupSettingValue | undefined> = {};
  for (const key of ['can_delete_any_message_group', 'can_delete_own_message_group', 'can_move_messages_between_topics_group', 'can_move_messages_between_channels_group', 'can_resolve_topics_group']) {
    settings[key] = reg[`realm_${key}`] as GroupSettingValue | undefined;
  }
  const archived = new Set<number>();
  for (const s of [...reg.subscriptions, ...(reg.unsubscribed ?? []), ...(reg.never_subscribed ?? [])]) if (s.is_archived) archived.add(s.stream_id);
  return {
    viewer: { userId: reg.user_id, role: reg.role, ...(joined !== undefined && !Number.isNaN(joined) ? { dateJoined: joined } : {}) },
    groups: reg.realm_user_groups ?? [],
    allowEditing: reg.realm_allow_message_editing !== false,
    editLimit: limitOf(reg.realm_message_content_edit_limit_seconds, 600),
    deleteLimit: limitOf(reg.realm_message_content_delete_limit_seconds, null),
    moveWithinLimit: limitOf(reg.realm_move_messages_within_stream_limit_seconds, 604800),
    moveBetweenLimit: limitOf(reg.realm_move_messages_between_streams_limit_seconds, 604800),
    waitingPeriodDays: Number(reg.realm_waiting_period_threshold ?? 0) || 0,
    settings,
    archivedChannels: archived,
    allowEditHistory: reg.realm_allow_edit_history !== false,
    readReceipts: reg.realm_enable_read_receipts !== false,
  };
}

type Msg = Pick<Message, 'id' | 'type' | 'sender_id' | 'timestamp' | 'stream_id' | 'submessages'>;

function has(ctx: PermissionContext, setting: string, now: number): boolean {
  return inGroupSetting(ctx.settings[setting], ctx.viewer, ctx.groups, ctx.waitingPeriodDays, now);
}

const isModerator = (ctx: PermissionContext) => ctx.viewer.role <= ROLE.MODERATOR;
const archived = (ctx: PermissionContext, m: Msg) => m.type === 'stream' && ctx.archivedChannels.has(m.stream_id!);

/** Seconds left before `limit` runs out for the message; Infinity without a limit. */
export function secondsLeft(m: Msg, limit: number | null, now: number): number {
  if (limit === null || limit <= 0) return Infinity;
  return Math.floor(m.timestamp + limit - now);
}

/** Seconds left to edit the content: Infinity without a limit, at most 0 when not editable at all. */
export function editSecondsLeft(ctx: PermissionContext, m: Msg, now = Date.now() / 1000): number {
  if (!ctx.allowEditing || m.sender_id !== ctx.viewer.userId || archived(ctx, m)) return 0;
  // A poll's or a to-do list's question lives in its submessages: the family never edits those.
  if (m.submessages.length > 0) return 0;
  return secondsLeft(m, ctx.editLimit, now);
}

export function canEditContent(ctx: PermissionContext, m: Msg, now = Date.now() / 1000): boolean {
  return editSecondsLeft(ctx, m, now) > 0;
}

/** Changing the topic (within the channel). */
export function canEditTopic(ctx: PermissionContext, m: Msg, now = Date.now() / 1000): boolean {
  if (m.type !== 'stream' || archived(ctx, m) || !has(ctx, 'can_move_messages_between_topics_group', now)) return false;
  return isModerator(ctx) || secondsLeft(m, ctx.moveWithinLimit, now) > 0;
}

/** Moving to another channel. */
export function canMoveChannel(ctx: PermissionContext, m: Msg, now = Date.now() / 1000): boolean {
  if (m.type !== 'stream' || archived(ctx, m) || !has(ctx, 'can_move_messages_between_channels_group', now)) return false;
  return isModerator(ctx) || secondsLeft(m, ctx.moveBetweenLimit, now) > 0;
}

export function canMove(ctx: PermissionContext, m: Msg, now = Date.now() / 1000): boolean {
  return canEditTopic(ctx, m, now) || canMoveChannel(ctx, m, now);
}

/** Resolving has no time limit. */
export function canResolve(ctx: PermissionContext, m: Msg, now = Date.now() / 1000): boolean {
  return m.type === 'stream' && !archived(ctx, m) && has(ctx, 'can_resolve_topics_group', now);
}

export function canDelete(ctx: PermissionContext, m: Msg, now = Date.now() / 1000): boolean {
  if (archived(ctx, m)) return false;
  if (has(ctx, 'can_delete_any_message_group', now)) return true;
  if (m.sender_id !== ctx.viewer.userId || !has(ctx, 'can_delete_own_message_group', now)) return false;
  // The server reads a delete limit of null as none, and any number (0 too) as a limit.
  return ctx.deleteLimit === null || m.timestamp + ctx.deleteLimit > now;
}

/** "3 min to edit", the family's countdown: whole minutes, then seconds in steps of five. */
export function editTimerParts(seconds: number): { minutes: number } | { seconds: number } {
  if (seconds >= 60) return { minutes: Math.floor(seconds / 60) };
  if (seconds >= 10) return { seconds: seconds - (seconds % 5) };
  return { seconds: Math.max(0, Math.floor(seconds)) };
}

export const RESOLVED_PREFIX = '✔ ';

export function isResolved(topic: string): boolean {
  return topic.startsWith(RESOLVED_PREFIX);
}

/** The topic after resolving or unresolving (the family strips repeated marks too). */
export function toggledResolved(topic: string): string {
  if (isResolved(topic)) return topic.replace(/^(✔ )+/, '');
  return RESOLVED_PREFIX + topic;
}
