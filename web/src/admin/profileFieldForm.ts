/** Custom profile fields: the add/edit form's values as POST and PATCH /realm/profile_fields take them. */
import type { StringKey } from '../i18n';

export const FIELD_TYPE_LABELS: ReadonlyArray<{ value: number; label: StringKey }> = [
  { value: 1, label: 'admin.pf.type.short' },
  { value: 2, label: 'admin.pf.type.long' },
  { value: 3, label: 'admin.pf.type.select' },
  { value: 4, label: 'admin.pf.type.date' },
  { value: 5, label: 'admin.pf.type.url' },
  { value: 6, label: 'admin.pf.type.user' },
  { value: 7, label: 'admin.pf.type.external' },
  { value: 8, label: 'admin.pf.type.pronouns' },
];

export interface ProfileFieldForm {
  name: string;
  hint: string;
  type: number;
  /** For a choice field: the choices in order, each with its key (people's values refer to the keys, so they stay). */
  choices: Choice[];
  /** For an external account: github, twitter or custom (with its URL pattern). */
  subtype: string;
  urlPattern: string;
  displayInSummary: boolean;
  required: boolean;
  editableByUser: boolean;
}

export interface Choice {
  key: string;
  text: string;
}

/** A key no choice has yet. */
export function nextChoiceKey(choices: readonly Choice[]): string {
  return String(choices.reduce((max, c) => Math.max(max, Number(c.key) || 0), -1) + 1);
}

export const EMPTY_FIELD: ProfileFieldForm = { name: '', hint: '', type: 1, choices: [{ key: '0', text: '' }, { key: '1', text: '' }], subtype: 'github', urlPattern: '', displayInSummary: false, required: false, editableByUser: true };

/** field_data of a choice field: `{"0": {"text": "…", "order": "0"}, …}` (empty choices left out). */
export function choicesData(choices: readonly Choice[]): Record<string, { text: string; order: string }> {
  const out: Record<string, { text: string; order: string }> = {};
  choices
    .map((c) => ({ key: c.key, text: c.text.trim() }))
    .filter((c) => c.text)
    .forEach((c, i) => (out[c.key] = { text: c.text, order: String(i) }));
  return out;
}

export function fieldData(f: ProfileFieldForm): Record<string, unknown> | undefined {
  if (f.type === 3) return choicesData(f.choices);
  if (f.type === 7) return f.subtype === 'custom' ? { subtype: 'custom', url_pattern: f.urlPattern.trim() } : { subtype: f.subtype };
  return undefined;
}

/** POST /realm/profile_fields. */
export function createFieldParams(f: ProfileFieldForm): Record<string, unknown> {
  const data = fieldData(f);
  return {
    name: f.name.trim(),
    hint: f.hint.trim(),
    field_type: f.type,
    ...(data ? { field_data: data } : {}),
    display_in_profile_summary: f.displayInSummary,
    required: f.required,
    editable_by_user: f.editableByUser,
  };
}

/** PATCH /realm/profile_fields/{id}: the type cannot change. */
export function updateFieldParams(f: ProfileFieldForm): Record<string, unknown> {
  const { field_type: _type, ...rest } = createFieldParams(f);
  return rest;
}

/** The form for an existing field (its field_data read back into choices or an account kind). */
export function formOf(field: { name: string; hint?: string; type: number; field_data?: string; display_in_profile_summary?: boolean; required?: boolean; editable_by_user?: boolean }): ProfileFieldForm {
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(field.field_data || '{}') as Record<string, unknown>;
  } catch {
    data = {};
  }
  const choices =
    field.type === 3
      ? Object.entries(data as Record<string, { text?: string; order?: string }>)
          .sort(([, a], [, b]) => Number(a.order ?? 0) - Number(b.order ?? 0))
          .map(([key, c]) => ({ key, text: String(c.text ?? '') }))
      : EMPTY_FIELD.choices;
  return {
    name: field.name,
    hint: field.hint ?? '',
    type: field.type,
    choices,
    subtype: typeof data.subtype === 'string' ? data.subtype : 'github',
    urlPattern: typeof data.url_pattern === 'string' ? data.url_pattern : '',
    displayInSummary: field.display_in_profile_summary === true,
    required: field.required === true,
    editableByUser: field.editable_by_user !== false,
  };
}
