/**
 * Reading a provider's JSON without trusting it. Every integration reads its payload through a
 * `Payload`: a field that is missing or of the wrong type ends the request with the envelope's
 * error naming the field (the family's words: `payload["repository"] is missing`), never with a
 * 500 and never with "undefined" in a message.
 */
import { errors } from '@chat/contracts';

export class Payload {
  constructor(
    readonly value: unknown,
    /** How the family names the place of the value: `payload["a"]["b"]`. */
    readonly path = 'payload',
  ) {}

  /** The field `key`, which may be missing (then reads of it fail, and `exists` is false). */
  get(key: string | number): Payload {
    const v = this.value;
    const child = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
    return new Payload(child, `${this.path}[${JSON.stringify(key)}]`);
  }

  /** `get` over a dotted path: `p.at('repository.owner.login')`. */
  at(path: string): Payload {
    return path.split('.').reduce<Payload>((p, k) => p.get(k), this);
  }

  get exists(): boolean {
    return this.value !== undefined && this.value !== null;
  }

  private fail(what: string): never {
    throw errors.badRequest(this.value === undefined ? `${this.path} is missing` : `${this.path} is not ${what}`);
  }

  str(): string {
    return typeof this.value === 'string' ? this.value : this.fail('a string');
  }

  num(): number {
    return typeof this.value === 'number' && Number.isFinite(this.value) ? this.value : this.fail('a number');
  }

  bool(): boolean {
    return typeof this.value === 'boolean' ? this.value : this.fail('a boolean');
  }

  /** A string, or a number shown as text (ids some providers send either way). */
  text(): string {
    return typeof this.value === 'number' ? String(this.value) : this.str();
  }

  list(): Payload[] {
    return Array.isArray(this.value) ? this.value.map((v, i) => new Payload(v, `${this.path}[${i}]`)) : this.fail('a list');
  }

  /** The object's own entries, as [key, value] pairs. */
  entries(): Array<[string, Payload]> {
    const v = this.value;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return this.fail('a dict');
    return Object.keys(v).map((k) => [k, this.get(k)]);
  }

  /** The value when present (not missing, not null), else undefined: for optional fields. */
  optStr(): string | undefined {
    return this.exists ? this.str() : undefined;
  }

  optNum(): number | undefined {
    return this.exists ? this.num() : undefined;
  }

  optList(): Payload[] {
    return this.exists ? this.list() : [];
  }
}
