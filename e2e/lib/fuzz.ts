/**
 * Malformed requests for every operation of the family's OpenAPI description, as fast-check
 * arbitraries: each operation's own parameter names (and some it does not know) filled with
 * wrong types, broken JSON, huge numbers, NUL bytes, odd Unicode and very long strings,
 * repeated or left out, sent form-encoded, as JSON, as multipart or in the query string, with
 * path parameters out of range or undecodable.
 */
import fc from 'fast-check';
import { deref, openapi, operations } from './openapi';

type Node = Record<string, any>;

export interface FuzzOperation {
  method: string;
  template: string;
  pathParams: string[];
  params: string[];
}

/**
 * Left out: operations that would end the fuzzing user's session for every later request
 * (they are covered by their own tests).
 */
const SKIPPED = new Set(['DELETE /users/me', 'POST /users/me/api_key/regenerate', 'POST /fetch_api_key', 'POST /dev_fetch_api_key']);

function bodyParams(op: Node): string[] {
  const content = op.requestBody ? deref(op.requestBody).content ?? {} : {};
  const names = new Set<string>();
  for (const media of Object.values(content) as Node[]) {
    const collect = (schema: Node | undefined) => {
      if (!schema) return;
      const s = deref(schema);
      for (const k of Object.keys(s.properties ?? {})) names.add(k);
      for (const part of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])]) collect(part);
    };
    collect(media.schema);
  }
  return [...names];
}

export function fuzzOperations(): FuzzOperation[] {
  return operations()
    .filter((o) => !SKIPPED.has(`${o.method} ${o.path}`))
    .map((o) => {
      const declared = ((o.op.parameters ?? []) as Node[]).map(deref);
      return {
        method: o.method,
        template: o.path,
        pathParams: declared.filter((p) => p.in === 'path').map((p) => p.name as string),
        params: [...new Set([...declared.filter((p) => p.in === 'query').map((p) => p.name as string), ...bodyParams(o.op)])],
      };
    });
}

/** Strings that break naive parsers and databases. */
const nasty = fc.constantFrom(
  '', ' ', '\0', 'a\0b', '%00', '\u0000\u0000', '\ud800', '\udfff', '\ufeff', '\u202e', '\u200b', '👩‍👩‍👧‍👦',
  'ǅ', 'ß', 'İ', '\r\n', '\\', '"', "'", '<script>', '${x}', '../../etc/passwd', 'null', 'undefined', 'true', 'NaN',
  '-1', '0', '-0', '1e308', '-1e308', '2147483648', '-2147483649', '9007199254740993', '99999999999999999999999999',
  '0x10', '1.5', '[', ']', '{', '}', '{"a":', '[1,2', '[]', '{}', '[null]', '[[[[[[[[[[]]]]]]]]]]', '{"":{"":{"":0}}}',
  '["\\u0000"]', '{"\\u0000":1}', '[9999999999999999999]', '[-1,-2]', '[{"operator":"stream","operand":"\\u0000"}]',
);

const jsonish = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v));

export const badValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: nasty },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: jsonish },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })).map(([a, b]) => `${a}\0${b}`) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 20000 }).map((n) => 'x'.repeat(n)) },
);

/** Path segment as sent (already percent-encoded where it should be). */
export const badPathValue: fc.Arbitrary<string> = fc.oneof(
  fc.nat({ max: 50 }).map(String),
  fc.constantFrom('0', '-1', '2147483648', '99999999999999999999', '1e3', '1.5', 'abc', '%00', '1%00', '%ff', '%', '%E2%80%AE', '%F0%9F%92%A9', 'me', '..', '%2e%2e'),
  // Bounded so a URL stays under the server's header limit: past it Node closes the socket
  // while the client is still sending the body (an oversized URL has its own hardening test).
  badValue.map((v) => encodeURIComponent(v.replace(/[\ud800-\udfff]/g, '')).slice(0, 3000)),
);

export type Encoding = 'form' | 'json' | 'multipart' | 'query' | 'broken-json';

export interface FuzzCase {
  op: number;
  path: string[];
  /** [name, value]; a name may repeat. */
  fields: Array<[string, string]>;
  encoding: Encoding;
}

export function fuzzCase(ops: FuzzOperation[]): fc.Arbitrary<FuzzCase> {
  return fc.nat({ max: ops.length - 1 }).chain((op) => {
    const o = ops[op]!;
    const names = o.params.length ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...o.params) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }) : fc.string({ maxLength: 12 });
    return fc.record({
      op: fc.constant(op),
      path: fc.array(badPathValue, { minLength: o.pathParams.length, maxLength: o.pathParams.length }),
      fields: fc.array(fc.tuple(names, badValue), { maxLength: 6 }),
      encoding: fc.constantFrom<Encoding>('form', 'form', 'json', 'multipart', 'query', 'broken-json'),
    });
  });
}

export interface BuiltRequest {
  method: string;
  url: string;
  init: RequestInit;
}

export function buildRequest(base: string, ops: FuzzOperation[], c: FuzzCase, authorization: string): BuiltRequest {
  const o = ops[c.op]!;
  let i = 0;
  const path = o.template.replace(/\{[^}]+\}/g, () => c.path[i++] ?? '1');
  const headers: Record<string, string> = { authorization };
  const form = new URLSearchParams(c.fields);
  let url = `${base}/api/v1${path}`;
  let body: BodyInit | undefined;
  const bodyless = o.method === 'GET';
  if (bodyless || c.encoding === 'query') {
    if (c.fields.length) url += `?${form}`;
  } else if (c.encoding === 'form') {
    body = form;
  } else if (c.encoding === 'json') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(Object.fromEntries(c.fields.map(([k, v]) => [k, tryJson(v)])));
  } else if (c.encoding === 'broken-json') {
    headers['content-type'] = 'application/json';
    body = `{"${c.fields[0]?.[0] ?? 'x'}": ${c.fields[0]?.[1] ?? ''}`;
  } else {
    const multipart = new FormData();
    for (const [k, v] of c.fields) multipart.append(k, v);
    body = multipart;
  }
  return { method: o.method, url, init: { method: o.method, headers, body } };
}

function tryJson(v: string): unknown {
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** What every answer must be: below 500, and the envelope whenever it is an error or JSON. */
export function envelopeProblem(status: number, contentType: string | null, text: string): string | null {
  if (status >= 500) return `status ${status}: ${text.slice(0, 300)}`;
  const json = (contentType ?? '').includes('json');
  if (!json && status < 400) return null;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text);
  } catch {
    return `status ${status} without a JSON body: ${text.slice(0, 200)}`;
  }
  if (status >= 400) {
    if (body.result !== 'error' || typeof body.msg !== 'string' || typeof body.code !== 'string') return `not an error envelope: ${text.slice(0, 300)}`;
    if (/\bat .+:\d+:\d+\)?/.test(text) || /node_modules|\.ts:\d+/.test(text)) return `stack trace in answer: ${text.slice(0, 300)}`;
  } else if (body.result !== 'success') {
    return `status ${status} but result ${String(body.result)}`;
  }
  return null;
}

export { openapi };
