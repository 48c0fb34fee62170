/**
 * A personal setting bound to the store: shown only where the server's snapshot carries it,
 * saved with PATCH /settings on change, and showing the new value once its event arrives.
 */
import type { ReactNode } from 'react';
import { t, type StringKey } from '../i18n';
import { Select, Toggle, type Choice } from './controls';
import { useUserSetting } from './lib/hooks';
import { CHOICES, fromChoice, toChoice } from './lib/values';

export function UserToggle({ name, label, hint, disabled }: { name: string; label: StringKey; hint?: ReactNode; disabled?: boolean }) {
  const s = useUserSetting(name);
  if (!s.known) return null;
  return <Toggle name={name} label={t(label)} hint={hint} disabled={disabled} checked={s.value === true} status={s.status} onChange={(v) => s.set(v)} />;
}

export function UserSelect({ name, label, choices, hint, disabled }: { name: string; label: StringKey; choices?: ReadonlyArray<Choice<string | number>>; hint?: ReactNode; disabled?: boolean }) {
  const s = useUserSetting(name);
  if (!s.known || s.value === undefined) return null;
  const current = s.value;
  const list = choices ?? (CHOICES[name] ?? []).map((c) => ({ value: c.value, label: t(c.label) }));
  return (
    <Select
      name={name}
      label={t(label)}
      hint={hint}
      disabled={disabled}
      value={toChoice(current)}
      choices={list}
      status={s.status}
      onChange={(v) => s.set(fromChoice(name, v, current))}
    />
  );
}
