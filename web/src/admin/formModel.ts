/**
 * The settings forms' model, kept apart from the components so it can be tested: which fields
 * a subsection has, their current values (read from the register snapshot), what the person
 * changed, and the request that saves those changes.
 */
import type { StringKey } from '../i18n';
import { sameSetting, settingUpdate, type GroupSettingValue } from './groupSetting';

export type FieldKind =
  | 'bool'
  | 'text'
  | 'textarea'
  | 'select'
  | 'group'
  /** Seconds, null for "any time" (message edit, move and delete limits). */
  | 'timeLimit'
  /** Days, -1 for "forever" (message retention). */
  | 'retention'
  /** A whole number of days, 0 for none (waiting period). */
  | 'days'
  /** A channel id, -1 for none (announcement channels). */
  | 'channel';

export interface Option {
  value: string | number;
  label: StringKey;
}

export interface FieldDef {
  /** The property's API name: the PATCH parameter and, with the section's prefix, the snapshot's key. */
  name: string;
  kind: FieldKind;
  label: StringKey;
  hint?: StringKey;
  options?: readonly Option[];
  /** Choices whose words are data (folder names), already in the reader's language. */
  choices?: ReadonlyArray<{ value: string | number; label: string }>;
  /** The value may be null (for a channel's retention: the organization's default). */
  nullable?: boolean;
  /** Only organization owners may change it (the family's rule). */
  ownerOnly?: boolean;
  /** Reads a value that is not one snapshot key (e.g. two booleans shown as one choice). */
  read?: (source: Record<string, unknown>) => unknown;
  /** The parameters a changed value is saved as, when not `{[name]: value}`. */
  write?: (value: unknown) => Record<string, unknown>;
  /** For group settings: the key of server_supported_permission_settings (realm, stream, group). */
  permissionKind?: 'realm' | 'stream' | 'group';
}

export type Values = Record<string, unknown>;

/** Each field's current value: `prefix + name` in the source, or what `read` makes of it. */
export function readValues(fields: readonly FieldDef[], source: Record<string, unknown>, prefix = ''): Values {
  const out: Values = {};
  for (const f of fields) out[f.name] = f.read ? f.read(source) : source[prefix + f.name];
  return out;
}

export function sameValue(kind: FieldKind, a: unknown, b: unknown): boolean {
  if (kind === 'group') return sameSetting(a as GroupSettingValue | undefined, b as GroupSettingValue | undefined);
  if (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b)) return true;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The fields whose draft differs from the current value, with the draft's value. */
export function changedValues(fields: readonly FieldDef[], current: Values, draft: Values): Values {
  const out: Values = {};
  for (const f of fields) {
    if (!(f.name in draft)) continue;
    if (!sameValue(f.kind, current[f.name], draft[f.name])) out[f.name] = draft[f.name];
  }
  return out;
}

/** A field's problem before anything is sent (the server checks again), or null. */
export function invalidReason(field: FieldDef, value: unknown): StringKey | null {
  switch (field.kind) {
    case 'timeLimit':
      return value === null || (typeof value === 'number' && Number.isInteger(value) && value > 0) ? null : 'admin.invalid.minutes';
    case 'retention':
      return (value === null && field.nullable) || value === -1 || (typeof value === 'number' && Number.isInteger(value) && value > 0) ? null : 'admin.invalid.days';
    case 'days':
      return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? null : 'admin.invalid.days';
    case 'text':
      return field.name === 'name' && typeof value === 'string' && !value.trim() ? 'admin.invalid.required' : null;
    default:
      return null;
  }
}

/** The parameters of the request saving `changes` (group settings as an update, {new}). */
export function toParams(fields: readonly FieldDef[], changes: Values): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const f of fields) {
    if (!(f.name in changes)) continue;
    const value = changes[f.name];
    if (f.write) Object.assign(params, f.write(value));
    else if (f.kind === 'group') params[f.name] = settingUpdate(value as GroupSettingValue);
    else params[f.name] = value;
  }
  return params;
}

/** Draft entries that the current values have caught up with (the event arrived) are dropped. */
export function settledDraft(fields: readonly FieldDef[], current: Values, draft: Values): Values {
  const out: Values = {};
  for (const f of fields) {
    if (f.name in draft && !sameValue(f.kind, current[f.name], draft[f.name])) out[f.name] = draft[f.name];
  }
  return out;
}

// --- Time limits ---------------------------------------------------------------------------

/** The choices the family offers for edit, move and delete limits, in seconds (null: any time). */
export const TIME_LIMIT_CHOICES: ReadonlyArray<{ seconds: number | null; label: StringKey }> = [
  { seconds: null, label: 'admin.time.any' },
  { seconds: 2 * 60, label: 'admin.time.2m' },
  { seconds: 10 * 60, label: 'admin.time.10m' },
  { seconds: 60 * 60, label: 'admin.time.1h' },
  { seconds: 24 * 60 * 60, label: 'admin.time.1d' },
  { seconds: 7 * 24 * 60 * 60, label: 'admin.time.1w' },
];

/** Which choice a value is: its index among the choices, or "custom". */
export function timeLimitChoice(seconds: number | null): string {
  const i = TIME_LIMIT_CHOICES.findIndex((c) => c.seconds === seconds);
  return i >= 0 ? String(i) : 'custom';
}

/** Minutes typed into the custom box, as seconds (NaN when they are not a whole positive number). */
export function minutesToSeconds(text: string): number {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return NaN;
  const minutes = Number(trimmed);
  return minutes > 0 ? minutes * 60 : NaN;
}

/** Whole days typed into a box (NaN when not a whole number ≥ min). */
export function parseDays(text: string, min = 1): number {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return NaN;
  const n = Number(trimmed);
  return n >= min ? n : NaN;
}
