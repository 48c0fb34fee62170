/**
 * The realm's custom profile fields (register's `custom_profile_fields`) and how a person's
 * values are read and sent: PATCH /users/me/profile_data takes `[{id, value}]`, a list of user
 * ids for a user field and a string otherwise; an emptied field is removed instead.
 */
export const FIELD_TYPE = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  SELECT: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;

export interface ProfileField {
  id: number;
  type: number;
  name: string;
  hint?: string;
  field_data?: string;
  order?: number;
  required?: boolean;
  editable_by_user?: boolean;
  display_in_profile_summary?: boolean;
}

export interface FieldChoice {
  key: string;
  text: string;
}

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A choice field's options, `{"0": {"text": "Red", "order": "1"}, ...}`, in their order. */
export function fieldChoices(field: ProfileField): FieldChoice[] {
  const data = parseJson(field.field_data);
  if (!data || typeof data !== 'object') return [];
  return Object.entries(data as Record<string, { text?: string; order?: string | number }>)
    .map(([key, v]) => ({ key, text: String(v?.text ?? key), order: Number(v?.order ?? 0) }))
    .sort((a, b) => a.order - b.order)
    .map(({ key, text }) => ({ key, text }));
}

/** An external account field's kind (`github`, `twitter`, `custom`) and its profile URL pattern. */
export function externalAccount(field: ProfileField, defaults: Record<string, { name?: string; url_pattern?: string }> = {}): { subtype: string; urlPattern?: string; name?: string } {
  const data = (parseJson(field.field_data) ?? {}) as { subtype?: string; url_pattern?: string };
  const subtype = data.subtype ?? 'custom';
  const known = defaults[subtype];
  return { subtype, urlPattern: data.url_pattern ?? known?.url_pattern, name: known?.name };
}

/** The ids a user field holds (its value is a JSON list). */
export function userIds(value: string | undefined): number[] {
  const list = parseJson(value);
  return Array.isArray(list) ? list.filter((x): x is number => typeof x === 'number') : [];
}

export type ProfileChange = { op: 'set'; id: number; value: string | number[] } | { op: 'remove'; id: number };

/** What to send for a field given what the person entered (text, or ids for a user field). */
export function profileChange(field: ProfileField, entered: string | number[]): ProfileChange {
  if (Array.isArray(entered)) return entered.length ? { op: 'set', id: field.id, value: entered } : { op: 'remove', id: field.id };
  const text = field.type === FIELD_TYPE.LONG_TEXT ? entered : entered.trim();
  return text === '' ? { op: 'remove', id: field.id } : { op: 'set', id: field.id, value: text };
}

export type FieldProblem = 'bad_url' | 'bad_date';

/** A check made before sending, so an obvious mistake is named at once. */
export function checkFieldValue(field: ProfileField, entered: string): FieldProblem | undefined {
  const text = entered.trim();
  if (!text) return undefined;
  if (field.type === FIELD_TYPE.URL) {
    try {
      const url = new URL(text);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'bad_url';
    } catch {
      return 'bad_url';
    }
  }
  if (field.type === FIELD_TYPE.DATE && !/^\d{4}-\d{2}-\d{2}$/.test(text)) return 'bad_date';
  return undefined;
}

/** Whether the store now holds what was sent (the realm_user event has arrived). */
export function profileValueMatches(current: string | undefined, change: ProfileChange): boolean {
  if (change.op === 'remove') return current === undefined || current === '' || current === '[]';
  if (Array.isArray(change.value)) {
    const now = userIds(current);
    return now.length === change.value.length && now.every((id, i) => id === (change.value as number[])[i]);
  }
  return current === change.value;
}
