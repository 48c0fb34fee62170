/**
 * The person's settings, read where the snapshot keeps them: `user_settings` (the
 * user_settings_object capability) or, from older servers, top-level fields.
 */
import type { RegisterState } from '@chat/client';
import { useAppState } from '../state/store';

export function userSetting<T>(reg: RegisterState | null | undefined, name: string, fallback: T): T {
  if (!reg) return fallback;
  const v = reg.user_settings?.[name] ?? reg[name];
  return v === undefined || v === null ? fallback : (v as T);
}

export function useUserSetting<T>(name: string, fallback: T): T {
  return useAppState((s) => userSetting(s.reg, name, fallback));
}
