/**
 * Checks a JSON value the way the family's mobile app parses it, from the key contract in
 * e2e/reference/mobile-contract.json (generated from the app's model classes): a REQUIRED key
 * absent or null, or any present key of the wrong type, is an error; nested classes are
 * checked recursively. Keys the app reads through a hand-written reader (`custom`, or a
 * `readValue` note) are left to explicit assertions in the tests, since their JSON shape
 * differs from the class field (e.g. a message's `conversation` is built from top-level keys).
 */
import contract from '../reference/mobile-contract.json';

interface Field {
  type: string;
  required: boolean;
  custom?: boolean;
  default?: string;
  note?: string;
}
type Classes = Record<string, { source: string; fields: Record<string, Field> }>;

export const CLASSES = (contract as unknown as { classes: Classes }).classes;
export const DISPATCH = (contract as unknown as { dispatch: Record<string, Record<string, string>> }).dispatch;

/** The class the app parses an event into (by type and op), or undefined for UnexpectedEvent. */
export function eventClass(e: { type: string; op?: string }): string | undefined {
  const ops = DISPATCH[e.type];
  if (!ops) return undefined;
  return ops[e.op ?? ''] ?? ops[''];
}

/** Whether a field's value is read by hand-written code rather than by its declared type. */
export function isCustom(f: Field): boolean {
  return !!f.custom || (f.note?.startsWith('readValue') ?? false);
}

/** The errors of `value` as type `type` at `at` (an empty list when the app accepts it). */
export function typeErrors(type: string, value: unknown, at: string): string[] {
  const t = type.trim();
  if (t === 'num') return typeof value === 'number' ? [] : [`${at}: expected a number, got ${JSON.stringify(value)}`];
  if (t === 'int') return Number.isInteger(value) ? [] : [`${at}: expected an integer, got ${JSON.stringify(value)}`];
  if (t === 'String') return typeof value === 'string' ? [] : [`${at}: expected a string, got ${JSON.stringify(value)}`];
  if (t === 'bool') return typeof value === 'boolean' ? [] : [`${at}: expected a boolean, got ${JSON.stringify(value)}`];
  if (t === 'enum(any non-null)') return value === null || value === undefined ? [`${at}: expected a value`] : [];
  const en = /^enum\[(.*)\]$/.exec(t);
  if (en) {
    const allowed = en[1]!.split(',').map((s) => s.trim()).map((s) => (s.startsWith("'") ? s.slice(1, -1) : Number(s)));
    return allowed.includes(value as never) ? [] : [`${at}: ${JSON.stringify(value)} is not one of ${en[1]}`];
  }
  const list = /^List<(.+)>$/.exec(t);
  if (list) {
    if (!Array.isArray(value)) return [`${at}: expected a list, got ${JSON.stringify(value)}`];
    return value.flatMap((v, i) => typeErrors(list[1]!, v, `${at}[${i}]`));
  }
  const map = /^Map<(str|int),(.+)>$/.exec(t);
  if (map) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return [`${at}: expected an object, got ${JSON.stringify(value)}`];
    return Object.entries(value).flatMap(([k, v]) => [
      ...(map[1] === 'int' && !/^-?\d+$/.test(k) ? [`${at}: key ${k} is not an integer`] : []),
      ...typeErrors(map[2]!, v, `${at}.${k}`),
    ]);
  }
  if (t === 'Message') {
    const m = value as { type?: string };
    return classErrors(m?.type === 'stream' ? 'StreamMessage' : 'DmMessage', value, at);
  }
  if (t === 'GroupSettingValue') {
    if (Number.isInteger(value)) return [];
    return classErrors('GroupSettingValueNameless', value, at);
  }
  if (CLASSES[t]) return classErrors(t, value, at);
  // A class the contract does not describe (e.g. UserStatusChange): an object is all we know.
  return value !== null && typeof value === 'object' ? [] : [`${at}: expected an object (${t}), got ${JSON.stringify(value)}`];
}

/** The errors of `value` as an instance of class `name`, every field checked. */
export function classErrors(name: string, value: unknown, at = name): string[] {
  const cls = CLASSES[name];
  if (!cls) throw new Error(`the mobile contract has no class ${name}`);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [`${at}: expected an object, got ${JSON.stringify(value)}`];
  return Object.keys(cls.fields).flatMap((key) => fieldErrors(name, key, value as Record<string, unknown>, at));
}

/** The errors of one field of class `name` in `obj`. */
export function fieldErrors(name: string, key: string, obj: Record<string, unknown>, at = name): string[] {
  const f = CLASSES[name]!.fields[key]!;
  if (isCustom(f)) return [];
  const v = obj[key];
  if (v === undefined || v === null) return f.required ? [`${at}.${key}: required, but ${v === null ? 'null' : 'absent'}`] : [];
  return typeErrors(f.type, v, `${at}.${key}`);
}
