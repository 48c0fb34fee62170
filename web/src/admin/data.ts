/**
 * What the organization screens read from the store: the viewer's role, the groups, every
 * channel (subscribed or not), the people, and what each group setting accepts. All of it
 * comes from the register snapshot, kept current by events.
 */
import { useMemo } from 'react';
import type { RegisterState, Stream, Subscription, User, UserGroup } from '@chat/client';
import { useAppState, useReg } from '../state/store';
import { settingIncludes, systemGroupId, type GroupSettingValue, type PermissionConfig } from './groupSetting';
import type { Viewer } from './sections';

export const ROLE = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 } as const;

export function useGroups(): UserGroup[] {
  return useAppState((s) => s.reg?.realm_user_groups) ?? EMPTY_GROUPS;
}
const EMPTY_GROUPS: UserGroup[] = [];

export function useGroupMap(): Map<number, UserGroup> {
  const groups = useGroups();
  return useMemo(() => new Map(groups.map((g) => [g.id, g])), [groups]);
}

export function useNobodyId(): number {
  const groups = useGroups();
  return useMemo(() => systemGroupId(groups, 'role:nobody'), [groups]);
}

/** Whether the viewer is granted what a realm group setting grants. */
export function useRealmPermission(name: string): boolean {
  const reg = useReg();
  const groups = useGroupMap();
  return settingIncludes(reg[`realm_${name}`] as GroupSettingValue | undefined, reg.user_id, groups);
}

export function viewerOf(reg: RegisterState, groups: Map<number, UserGroup>): Viewer {
  const role = reg.role ?? (reg.is_owner ? ROLE.owner : reg.is_admin ? ROLE.admin : ROLE.member);
  const isAdmin = reg.is_admin || role <= ROLE.admin;
  return {
    isOwner: reg.is_owner || role === ROLE.owner,
    isAdmin,
    isGuest: role === ROLE.guest,
    canInvite: isAdmin || settingIncludes(reg.realm_can_invite_users_group as GroupSettingValue | undefined, reg.user_id, groups),
  };
}

export function useViewer(): Viewer {
  const reg = useReg();
  const groups = useGroupMap();
  return useMemo(() => viewerOf(reg, groups), [reg, groups]);
}

type SupportedSettings = Record<'realm' | 'stream' | 'group', Record<string, PermissionConfig>>;

export function usePermissionConfig(kind: 'realm' | 'stream' | 'group', name: string): PermissionConfig | undefined {
  const all = useAppState((s) => s.reg?.server_supported_permission_settings as SupportedSettings | undefined);
  return all?.[kind]?.[name];
}

/** A channel as the admin screens list it: the channel's own properties and whether the viewer is in it. */
export type AdminChannel = Stream & Partial<Subscription> & { subscribed: boolean };

export function allChannels(reg: RegisterState): AdminChannel[] {
  const byId = new Map<number, AdminChannel>();
  for (const s of reg.streams ?? []) byId.set(s.stream_id, { ...s, subscribed: false });
  for (const s of reg.never_subscribed ?? []) byId.set(s.stream_id, { ...byId.get(s.stream_id), ...s, subscribed: false });
  for (const s of reg.unsubscribed ?? []) byId.set(s.stream_id, { ...byId.get(s.stream_id), ...s, subscribed: false });
  for (const s of reg.subscriptions) byId.set(s.stream_id, { ...byId.get(s.stream_id), ...s, subscribed: true });
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export function useAllChannels(): AdminChannel[] {
  const reg = useReg();
  return useMemo(() => allChannels(reg), [reg]);
}

/** Active people (not bots), by name. */
export function useHumans(): User[] {
  const users = useAppState((s) => s.users);
  return useMemo(() => [...users.values()].filter((u) => u.is_active && !u.is_bot).sort((a, b) => a.full_name.localeCompare(b.full_name)), [users]);
}

export function useUserMap(): Map<number, User> {
  return useAppState((s) => s.users);
}
