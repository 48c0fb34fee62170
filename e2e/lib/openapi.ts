/**
 * Validates our responses against the family's published OpenAPI description
 * (e2e/reference/family-openapi.yaml): given a method, a path template of that file, a status and
 * a JSON body, the body must match that operation's response schema.
 *
 * The file is OpenAPI 3.0, not JSON Schema, so its schemas are converted once before ajv sees
 * them: `nullable: true` becomes a union with null, `additionalProperties: false` is dropped
 * (we may send `svc_*` extras, and the family's own `allOf` compositions would otherwise reject
 * each other's keys), `oneOf` is read as `anyOf` (see convert), and `$ref`s into components point into one registered document.
 * Annotation keywords (`example`, `deprecated`, ...) are ignored by running ajv with strict off.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

type Node = Record<string, any>;

const FILE = path.resolve(__dirname, '../reference/family-openapi.yaml');
const DOC_ID = 'family-openapi';
export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface Operation {
  method: string;
  path: string;
  op: Node;
}

let loaded: { doc: Node; ajv: Ajv; cache: Map<string, ValidateFunction> } | undefined;

/** The raw document (as published). */
export function openapi(): Node {
  return load().doc;
}

/** Every operation of the document, as "METHOD /path" keys in file order. */
export function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [p, item] of Object.entries(openapi().paths as Node)) {
    for (const m of METHODS) if (item[m]) out.push({ method: m.toUpperCase(), path: p, op: item[m] });
  }
  return out;
}

function convert(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convert);
  if (!node || typeof node !== 'object') return node;
  const src = node as Node;
  const out: Node = {};
  for (const [k, v] of Object.entries(src)) {
    if (k === 'nullable' || k === 'example' || k === 'examples' || k === 'discriminator') continue;
    if (k === 'additionalProperties' && v === false) continue;
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/')) out.$ref = `${DOC_ID}${v}`;
    // Without additionalProperties: false, alternatives that differ only by which keys they
    // forbid would all match, and oneOf would reject a valid body: any one must match.
    else if (k === 'oneOf') out.anyOf = convert(v);
    else if (k === 'properties' || k === 'patternProperties') {
      out[k] = Object.fromEntries(Object.entries(v as Node).map(([name, s]) => [name, convert(s)]));
    } else out[k] = convert(v);
  }
  if (src.nullable === true) {
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    } else {
      return { anyOf: [out, { type: 'null' }] };
    }
  }
  return out;
}

function load() {
  if (loaded) return loaded;
  const doc = YAML.parse(readFileSync(FILE, 'utf8')) as Node;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: convert(doc.components) as Node });
  loaded = { doc, ajv, cache: new Map() };
  return loaded;
}

export function deref(node: Node): Node {
  const doc = openapi();
  while (typeof node.$ref === 'string') {
    node = node.$ref.slice(2).split('/').reduce((n: Node, key: string) => n[key], doc);
  }
  return node;
}

/** The JSON schema of a response (converted), or undefined when the file documents none. */
export function responseSchema(method: string, template: string, status: number): Node | undefined {
  const op = openapi().paths[template]?.[method.toLowerCase()];
  if (!op) throw new Error(`the OpenAPI file has no operation ${method} ${template}`);
  const response = op.responses[String(status)] ?? op.responses.default;
  if (!response) return undefined;
  const schema = deref(response).content?.['application/json']?.schema;
  return schema ? (convert(schema) as Node) : undefined;
}

/**
 * The schema errors of `body` as a response of `method template` with `status` (an empty list
 * when it conforms), each as "instancePath message".
 */
export function responseErrors(method: string, template: string, status: number, body: unknown): string[] {
  const { ajv, cache } = load();
  const key = `${method.toUpperCase()} ${template} ${status}`;
  let validate = cache.get(key);
  if (!validate) {
    const schema = responseSchema(method, template, status);
    if (!schema) throw new Error(`the OpenAPI file documents no JSON response for ${key}`);
    validate = ajv.compile(schema);
    cache.set(key, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
}

/** The values a schema allows for `field`, looked up through $refs and allOf (undefined: any). */
function allowedValues(node: Node, field: string): unknown[] | undefined {
  const enumOf = (n: Node): unknown[] | undefined => {
    const d = deref(n);
    return (d.enum as unknown[] | undefined) ?? ((d.allOf ?? []) as Node[]).map(enumOf).find(Boolean);
  };
  const s = deref(node);
  const own = s.properties?.[field] ? enumOf(s.properties[field]) : undefined;
  if (own) return own;
  for (const part of (s.allOf ?? []) as Node[]) {
    const found = allowedValues(part, field);
    if (found) return found;
  }
  return undefined;
}

/** The top-level property names a schema declares, through $refs and allOf. */
function declaredProperties(node: Node): Set<string> {
  const s = deref(node);
  const out = new Set<string>(Object.keys(s.properties ?? {}));
  for (const part of (s.allOf ?? []) as Node[]) for (const name of declaredProperties(part)) out.add(name);
  return out;
}

/**
 * The schema errors of one event as GET /events returns it, against the family's schema for its
 * type (and op, where the family has one schema per op): an empty list when it conforms. An
 * event of a type or op the file does not describe is an error too. The family's event schemas
 * mark no field required and forbid undeclared ones instead, so besides the types of the fields
 * present, every top-level field must be one the schema declares.
 */
export function eventErrors(event: Record<string, any>): string[] {
  const { ajv, cache } = load();
  const union = openapi().components.schemas.get_events_200_response_allOf_events_inner.oneOf as Node[];
  const candidates = union.filter((branch) => {
    const types = allowedValues(branch, 'type');
    const ops = allowedValues(branch, 'op');
    return types?.includes(event.type) && (ops === undefined || event.op === undefined || ops.includes(event.op));
  });
  if (!candidates.length) return [`the OpenAPI file describes no ${event.type} event${event.op ? ` with op ${String(event.op)}` : ''}`];
  const errors: string[] = [];
  for (const branch of candidates) {
    const key = `event ${String(branch.$ref)}`;
    let validate = cache.get(key);
    if (!validate) {
      validate = ajv.compile(convert(branch) as Node);
      cache.set(key, validate);
    }
    const undeclared = Object.keys(event).filter((k) => !declaredProperties(branch).has(k));
    if (validate(event) && !undeclared.length) return [];
    if (undeclared.length) errors.push(`${branch.$ref}: undeclared fields ${undeclared.join(', ')}`);
    errors.push(...(validate.errors ?? []).map((e) => `${branch.$ref}: ${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`));
  }
  return errors;
}
