import type { Request } from 'express';
import type { z } from 'zod';
import { errors } from '@chat/contracts';
import { assertNoNulDeep, hasNul, nulArgument } from './guards';

/**
 * Request parameters read the way clients of this API send them: query string on every
 * method, form-encoded or multipart bodies, lists and objects JSON-encoded, booleans as
 * JSON `true`/`false`. Every name read is remembered so the response can report the rest
 * in `ignored_parameters_unsupported`.
 */
export class Params {
  private readonly used = new Set<string>();

  constructor(
    private readonly values: Record<string, unknown>,
    private readonly pathValues: Record<string, string> = {},
  ) {}

  static fromRequest(req: Request): Params {
    const query = (req.query ?? {}) as Record<string, unknown>;
    const body = req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? req.body : {};
    return new Params({ ...query, ...(body as Record<string, unknown>) }, req.params as Record<string, string>);
  }

  has(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.values, name);
  }

  /** The raw value, marking the name as supported. Repeated keys keep their last value. */
  raw(name: string): unknown {
    this.used.add(name);
    const v = this.values[name];
    return Array.isArray(v) && typeof v[0] === 'string' ? v[v.length - 1] : v;
  }

  /** Marks names as supported without reading them (accepted for compatibility). */
  accept(...names: string[]): void {
    for (const n of names) this.used.add(n);
  }

  str(name: string): string | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (typeof v === 'string') {
      if (hasNul(v)) throw nulArgument(name);
      return v;
    }
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    throw errors.invalidArgument(name, `${name} is not a string`);
  }

  /**
   * A string whose NUL characters the action refuses itself, with the message the family's
   * server gives for that parameter; it must not reach a query unchecked.
   */
  strNulChecked(name: string): string | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (typeof v === 'string') return v;
    return this.str(name);
  }

  reqStrNulChecked(name: string): string {
    const v = this.strNulChecked(name);
    if (v === undefined) throw errors.missingArgument(name);
    return v;
  }

  reqStr(name: string): string {
    const v = this.str(name);
    if (v === undefined) throw errors.missingArgument(name);
    return v;
  }

  int(name: string): number | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    return toInt(name, v);
  }

  reqInt(name: string): number {
    const v = this.int(name);
    if (v === undefined) throw errors.missingArgument(name);
    return v;
  }

  bool(name: string): boolean | undefined;
  bool(name: string, fallback: boolean): boolean;
  bool(name: string, fallback?: boolean): boolean | undefined {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    if (typeof v === 'boolean') return v;
    if (v === 'true') return true;
    if (v === 'false') return false;
    throw errors.invalidArgument(name, `${name} is not a boolean`);
  }

  /** A JSON-encoded value (or an already structured one from a JSON body), checked by `schema`. */
  json<T>(name: string, schema: z.ZodType<T>): T | undefined {
    return this.decodeJson(name, schema, true);
  }

  /** json(), leaving NUL characters in its strings for the action to refuse in its own words. */
  jsonNulChecked<T>(name: string, schema: z.ZodType<T>): T | undefined {
    return this.decodeJson(name, schema, false);
  }

  private decodeJson<T>(name: string, schema: z.ZodType<T>, refuseNul: boolean): T | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    let decoded: unknown = v;
    if (typeof v === 'string') {
      try {
        decoded = JSON.parse(v);
      } catch {
        throw errors.invalidJson(name);
      }
    }
    if (refuseNul) assertNoNulDeep(name, decoded);
    const parsed = schema.safeParse(decoded);
    if (!parsed.success) throw errors.invalidArgument(name, describeIssue(name, parsed.error.issues[0]));
    return parsed.data;
  }

  reqJson<T>(name: string, schema: z.ZodType<T>): T {
    const v = this.json(name, schema);
    if (v === undefined) throw errors.missingArgument(name);
    return v;
  }

  reqJsonNulChecked<T>(name: string, schema: z.ZodType<T>): T {
    const v = this.jsonNulChecked(name, schema);
    if (v === undefined) throw errors.missingArgument(name);
    return v;
  }

  pathStr(name: string): string {
    const v = this.pathValues[name];
    if (v === undefined) throw errors.missingArgument(name);
    if (hasNul(v)) throw nulArgument(name);
    return v;
  }

  pathInt(name: string): number {
    return toInt(name, this.pathStr(name));
  }

  /** Names the client sent that no reader asked for. */
  unsupported(): string[] {
    return Object.keys(this.values).filter((k) => !this.used.has(k));
  }
}

function toInt(name: string, v: unknown): number {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) {
    const n = Number(v.trim());
    if (Number.isSafeInteger(n)) return n;
  }
  throw errors.invalidArgument(name, `${name} is not an integer`);
}

function describeIssue(name: string, issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return `Invalid ${name}`;
  const where = issue.path.length ? `${name}[${issue.path.map(String).join('][')}]` : name;
  switch (issue.code) {
    case 'invalid_type':
      return `${where} is not ${article(issue.expected)}`;
    default:
      return `Invalid ${where}`;
  }
}

function article(expected: string): string {
  const nouns: Record<string, string> = {
    string: 'a string', number: 'a number', int: 'an integer', boolean: 'a boolean',
    array: 'a list', object: 'a dict',
  };
  return nouns[expected] ?? `a ${expected}`;
}
