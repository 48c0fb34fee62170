/** Reading the person's own settings and user record from the store, and saving a setting. */
import type { User } from '@chat/client';
import { useAppState, type AppState } from '../../state/store';
import { useSave, type SaveHandle } from '../controls';
import { patchSettings } from './calls';
import type { SettingValue } from './values';

const NONE: Record<string, unknown> = {};

/** The settings object (`user_settings`), or the top-level fields of an older snapshot. */
export function settingsOf(s: AppState): Record<string, unknown> {
  return s.reg?.user_settings ?? (s.reg as Record<string, unknown> | null) ?? NONE;
}

export function useUserSettings(): Record<string, unknown> {
  return useAppState(settingsOf);
}

export function useMe(): User | undefined {
  return useAppState((s) => (s.reg ? s.users.get(s.reg.user_id) : undefined));
}

export interface SettingHandle extends SaveHandle<SettingValue | undefined> {
  /** Whether the server's snapshot has this setting at all. */
  known: boolean;
  set: (value: SettingValue) => void;
}

/** One setting: its value (the one being saved while "Saving…"), and `set` to PATCH it. */
export function useUserSetting(name: string): SettingHandle {
  const current = useAppState((s) => settingsOf(s)[name]) as SettingValue | undefined;
  const handle = useSave<SettingValue | undefined>(current);
  return { ...handle, known: current !== undefined, set: (value) => handle.save(() => patchSettings({ [name]: value }), value) };
}
