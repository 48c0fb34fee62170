/** Names shown for system groups and roles, in the family's words. */
import type { UserGroup } from '@chat/client';
import { t, type StringKey } from '../i18n';

const SYSTEM_GROUP_LABELS: Record<string, StringKey> = {
  'role:nobody': 'admin.group.nobody',
  'role:owners': 'admin.group.owners',
  'role:administrators': 'admin.group.administrators',
  'role:moderators': 'admin.group.moderators',
  'role:fullmembers': 'admin.group.fullmembers',
  'role:members': 'admin.group.members',
  'role:everyone': 'admin.group.everyone',
  'role:internet': 'admin.group.internet',
};

export function groupLabel(group: Pick<UserGroup, 'name' | 'is_system_group'> | undefined): string {
  if (!group) return t('admin.group.unknown');
  const key = group.is_system_group ? SYSTEM_GROUP_LABELS[group.name] : undefined;
  return key ? t(key) : group.name;
}

export const ROLE_LABELS: ReadonlyArray<{ value: number; label: StringKey }> = [
  { value: 100, label: 'admin.role.owner' },
  { value: 200, label: 'admin.role.admin' },
  { value: 300, label: 'admin.role.moderator' },
  { value: 400, label: 'admin.role.member' },
  { value: 600, label: 'admin.role.guest' },
];

export function roleLabel(role: number): string {
  const found = ROLE_LABELS.find((r) => r.value === role);
  return found ? t(found.label) : String(role);
}
