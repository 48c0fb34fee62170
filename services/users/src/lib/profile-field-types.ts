import { errors } from '@chat/contracts';
import { DEFAULT_EXTERNAL_ACCOUNTS } from '@chat/wire';

/** Custom profile field types, as clients of this API number them. */
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
export const FIELD_TYPES: readonly number[] = Object.values(FIELD_TYPE);

export const FIELD_NAME_MAX = 40;
export const FIELD_HINT_MAX = 80;
export const SHORT_VALUE_MAX = 50;
export const LONG_VALUE_MAX = 500;

/** Types whose values are Markdown and get a rendered_value. */
export const RENDERED_TYPES: readonly number[] = [FIELD_TYPE.SHORT_TEXT, FIELD_TYPE.LONG_TEXT];

/** Only these types may be shown in the profile summary, and at most this many fields. */
export const SUMMARY_TYPES_EXCLUDED: readonly number[] = [FIELD_TYPE.LONG_TEXT, FIELD_TYPE.USER];
export const MAX_SUMMARY_FIELDS = 2;

/** Built-in external account providers (register's realm_default_external_accounts). */
export const EXTERNAL_ACCOUNTS: Record<string, { name: string; url_pattern: string }> = DEFAULT_EXTERNAL_ACCOUNTS;

export type FieldData = Record<string, unknown>;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks field_data for a field type; returns what is stored. */
export function checkFieldData(fieldType: number, data: unknown): FieldData {
  if (!isPlainObject(data)) throw errors.badRequest('field_data is not a dict');
  if (fieldType === FIELD_TYPE.SELECT) {
    const entries = Object.entries(data);
    if (entries.length < 1) throw errors.badRequest('Field must have at least one choice.');
    const texts = new Set<string>();
    for (const [key, choice] of entries) {
      if (!isPlainObject(choice)) throw errors.badRequest(`field_data["${key}"] is not a dict`);
      for (const k of ['text', 'order']) {
        if (!(k in choice)) throw errors.badRequest(`${k} key is missing from field_data["${key}"]`);
        if (typeof choice[k] !== 'string') throw errors.badRequest(`field_data["${key}"]["${k}"] is not a string`);
      }
      if ((choice.text as string).trim() === '') throw errors.badRequest(`field_data["${key}"]["text"] cannot be blank.`);
      if (texts.has(choice.text as string)) throw errors.badRequest('Field must not have duplicate choices.');
      texts.add(choice.text as string);
    }
    return Object.fromEntries(entries.map(([k, c]) => [k, { text: (c as FieldData).text, order: (c as FieldData).order }]));
  }
  if (fieldType === FIELD_TYPE.EXTERNAL_ACCOUNT) {
    const subtype = data.subtype;
    if (typeof subtype !== 'string') throw errors.badRequest('subtype key is missing from field_data');
    if (subtype === 'custom') {
      const pattern = data.url_pattern;
      if (typeof pattern !== 'string' || pattern === '') throw errors.badRequest('Custom external account must define URL pattern');
      const uses = pattern.split('%(username)s').length - 1;
      if (uses !== 1 || !/^https?:\/\/\S+$/.test(pattern.replace('%(username)s', 'x'))) throw errors.badRequest('Malformed URL pattern.');
      return { subtype, url_pattern: pattern };
    }
    if (!EXTERNAL_ACCOUNTS[subtype]) throw errors.badRequest('Invalid external account type');
    return { subtype };
  }
  return {};
}

export interface FieldForValue {
  id: number;
  name: string;
  fieldType: number;
  fieldData: unknown;
}

/**
 * Checks one value against its field's type; returns it as stored (text, or a JSON list of
 * user ids). `realmUsers` finds the realm's users among ids, active or not.
 */
export async function checkFieldValue(
  field: FieldForValue,
  value: unknown,
  realmUsers: (ids: number[]) => Promise<Map<number, { isActive: boolean; isBot: boolean }>>,
): Promise<string> {
  const name = field.name;
  if (field.fieldType === FIELD_TYPE.USER) {
    if (!Array.isArray(value)) throw errors.badRequest(`${name} is not a list`);
    if (!value.every((v) => Number.isSafeInteger(v))) throw errors.badRequest(`${name}[0] is not an integer`);
    const ids = [...new Set(value as number[])];
    const found = await realmUsers(ids);
    // As the family: every unknown id named at once, then the first deactivated user or bot.
    const unknown = ids.filter((id) => !found.has(id));
    if (unknown.length) throw errors.badRequest(`Invalid user IDs: ${unknown.join(', ')}`);
    for (const id of ids) {
      const user = found.get(id)!;
      if (!user.isActive) throw errors.badRequest(`User with ID ${id} is deactivated`);
      if (user.isBot) throw errors.badRequest(`User with ID ${id} is a bot`);
    }
    return JSON.stringify(ids);
  }
  if (typeof value !== 'string') throw errors.badRequest(`${name} is not a string`);
  switch (field.fieldType) {
    case FIELD_TYPE.SHORT_TEXT:
    case FIELD_TYPE.PRONOUNS:
    case FIELD_TYPE.EXTERNAL_ACCOUNT:
      if ([...value].length > SHORT_VALUE_MAX) throw errors.badRequest(`${name} is too long (limit: ${SHORT_VALUE_MAX} characters)`);
      return value;
    case FIELD_TYPE.LONG_TEXT:
      if ([...value].length > LONG_VALUE_MAX) throw errors.badRequest(`${name} is too long (limit: ${LONG_VALUE_MAX} characters)`);
      return value;
    case FIELD_TYPE.SELECT: {
      const choices = (field.fieldData ?? {}) as FieldData;
      if (!Object.prototype.hasOwnProperty.call(choices, value)) {
        throw errors.badRequest(`'${value}' is not a valid choice for '${name}'.`);
      }
      return value;
    }
    case FIELD_TYPE.DATE: {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
      if (!d || d.toISOString().slice(0, 10) !== value) throw errors.badRequest(`${name} is not a date`);
      return value;
    }
    case FIELD_TYPE.URL: {
      let ok = false;
      try {
        const u = new URL(value);
        ok = (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
      } catch {
        ok = false;
      }
      if (!ok) throw errors.badRequest(`${name} is not a URL`);
      return value;
    }
    default:
      throw errors.badRequest('Invalid field type.');
  }
}
