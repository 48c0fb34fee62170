/** Presence and status of one person, read from the snapshot (kept current by events). */
import type { RegisterState, User } from '@chat/client';
import { useAppState } from '../state/store';
import { useNow } from '../ui/time';
import { userSetting } from '../ui/settings';
import { DEFAULT_OFFLINE_THRESHOLD, presenceOf, presenceStatus, type PresenceStatus } from './presence';

export interface UserStatus {
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

export function statusOf(reg: RegisterState | null, userId: number): UserStatus | undefined {
  return reg?.user_status?.[String(userId)];
}

export function offlineThreshold(reg: RegisterState | null): number {
  return Number(reg?.server_presence_offline_threshold_seconds) || DEFAULT_OFFLINE_THRESHOLD;
}

/**
 * A person's dot. Bots have none (undefined); someone who has turned presence sharing off, or
 * marked themselves away, shows as offline, and so do you if you have.
 */
export function statusFor(reg: RegisterState | null, user: User | undefined, now: number): PresenceStatus | undefined {
  if (!reg || !user || user.is_bot) return undefined;
  if (user.user_id === reg.user_id && !userSetting(reg, 'presence_enabled', true)) return 'offline';
  if (user.presence_enabled === false) return 'offline';
  if (statusOf(reg, user.user_id)?.away) return 'offline';
  return presenceStatus(presenceOf(reg.presences, user.user_id, user.email), now, offlineThreshold(reg));
}

export function usePresence(userId: number): PresenceStatus | undefined {
  const now = useNow();
  return useAppState((s) => statusFor(s.reg, s.users.get(userId), now));
}

export function useUserStatus(userId: number): UserStatus | undefined {
  return useAppState((s) => statusOf(s.reg, userId));
}

export function useUser(userId: number): User | undefined {
  return useAppState((s) => s.users.get(userId));
}

export function isMutedUser(reg: RegisterState | null, userId: number): boolean {
  return !!reg?.muted_users?.some((m) => m.id === userId);
}
