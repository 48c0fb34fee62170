/** Pure helpers of the users screens: filtering, and what may be done to whom (the family's rules). */
import type { User } from '@chat/client';

/** People whose name, email or id contains the query (case-insensitive). */
export function filterUsers(users: readonly User[], query: string): User[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...users];
  return users.filter((u) => u.full_name.toLowerCase().includes(q) || (u.delivery_email ?? u.email).toLowerCase().includes(q) || u.email.toLowerCase().includes(q) || String(u.user_id) === q);
}

export interface Actor {
  userId: number;
  isOwner: boolean;
  isAdmin: boolean;
}

/** Only owners change an owner, or make someone an owner; administrators change everyone else. */
export function canChangeRole(actor: Actor, target: Pick<User, 'role' | 'user_id' | 'is_bot'>): boolean {
  if (!actor.isAdmin) return false;
  if (target.role === 100 && !actor.isOwner) return false;
  return true;
}

/** The roles an actor may give. */
export function assignableRoles(actor: Actor): number[] {
  return actor.isOwner ? [100, 200, 300, 400, 600] : [200, 300, 400, 600];
}

export function canDeactivate(actor: Actor, target: Pick<User, 'role' | 'user_id'>): boolean {
  if (!actor.isAdmin || target.user_id === actor.userId) return false;
  return target.role !== 100 || actor.isOwner;
}

/** The profile_data entry of PATCH /users/{id}: a list of ids for a person field, text otherwise; empty removes. */
export function profileEntry(fieldId: number, fieldType: number, entered: string | number[]): { id: number; value: string | number[] | null } {
  if (Array.isArray(entered)) return { id: fieldId, value: entered.length ? entered : null };
  const text = fieldType === 2 ? entered : entered.trim();
  return { id: fieldId, value: text === '' ? null : text };
}

/** The ids a person field holds (its value is a JSON list). */
export function parseUserIds(value: string | undefined): number[] {
  if (!value) return [];
  try {
    const list: unknown = JSON.parse(value);
    return Array.isArray(list) ? list.filter((x): x is number => typeof x === 'number') : [];
  } catch {
    return [];
  }
}

/** At most `limit` rows are drawn at once; a search narrows the rest. */
export const PAGE = 100;
