import { recordEvent } from '@chat/bus';
import { errors, checkAdmin, type Actor } from '@chat/contracts';
import type { Tx } from '@chat/db';
import { linkifierObject } from '@chat/wire';
import type { Services } from '../context';
import { activeUserIds } from '../lib/audience';
import { expandUriTemplate, matchUriTemplate, parseUriTemplate } from '../lib/uri-template';

export async function listLinkifiers(db: Services['db'] | Tx, realmId: number) {
  const rows = await db.linkifier.findMany({ where: { realmId }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
  return rows.map(linkifierObject);
}

async function announce(tx: Tx, realmId: number) {
  await recordEvent(tx, {
    realmId,
    type: 'realm_linkifiers',
    users: await activeUserIds(tx, realmId),
    event: { type: 'realm_linkifiers', realm_linkifiers: await listLinkifiers(tx, realmId) },
  });
}

/**
 * Patterns are written with Python-style named groups, (?P<name>...), as clients of this API
 * send them; JavaScript spells those (?<name>...).
 */
export function compilePattern(pattern: string): { regex: RegExp; groups: string[] } {
  const source = pattern.replace(/\(\?P</g, '(?<');
  let regex: RegExp;
  try {
    regex = new RegExp(source, 'u');
  } catch (err) {
    throw errors.badRequest(`Bad regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`);
  }
  const groups = [...source.matchAll(/\(\?<([A-Za-z_][A-Za-z0-9_]*)>/g)].map((m) => m[1]!);
  return { regex, groups };
}

/** `{name}` placeholders, `{{` and `}}` for literal braces. */
function fillReverseTemplate(template: string, values: Record<string, string>): string | null {
  let missing = false;
  const out = template.replace(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string | undefined) => {
    if (whole === '{{') return '{';
    if (whole === '}}') return '}';
    if (!(name! in values)) missing = true;
    return values[name!] ?? '';
  });
  return missing ? null : out;
}

export interface LinkifierInput {
  pattern: string;
  urlTemplate: string;
  reverseTemplate?: string | null;
  alternativeUrlTemplates?: string[];
  exampleInput?: string | null;
}

/** Every rule a linkifier must satisfy; returns what is stored. */
export function checkLinkifier(input: LinkifierInput) {
  const { regex, groups } = compilePattern(input.pattern);
  const templates = [input.urlTemplate, ...(input.alternativeUrlTemplates ?? [])];
  for (const [i, template] of templates.entries()) {
    const parsed = parseUriTemplate(template);
    if (!parsed) throw errors.badRequest('Invalid URL template.');
    const missing = parsed.variables.filter((v) => !groups.includes(v)).sort();
    if (missing.length) throw errors.badRequest(`Group '${missing[0]}' in URL template is not present in linkifier pattern.`);
    const unused = groups.filter((g) => !parsed.variables.includes(g)).sort();
    // Alternative templates are for reverse linkification only and may use fewer groups.
    if (i === 0 && unused.length) throw errors.badRequest(`Group '${unused[0]}' in linkifier pattern is not present in URL template.`);
  }
  const reverseTemplate = input.reverseTemplate === '' ? null : (input.reverseTemplate ?? null);
  const exampleInput = input.exampleInput === '' ? null : (input.exampleInput ?? null);
  if (reverseTemplate !== null) {
    if (exampleInput === null) throw errors.badRequest('example_input is required to check reverse_template');
    const match = new RegExp(`^(?:${regex.source})$`, 'u').exec(exampleInput);
    if (!match) throw errors.badRequest('Example input does not match the linkifier pattern.');
    const values = Object.fromEntries(groups.map((g) => [g, match.groups?.[g] ?? '']));
    const url = expandUriTemplate(input.urlTemplate, values);
    const back = matchUriTemplate(input.urlTemplate, url);
    const rebuilt = back ? fillReverseTemplate(reverseTemplate, back) : null;
    if (rebuilt !== exampleInput) {
      throw errors.badRequest(`Reverse template does not round-trip: ${exampleInput} links to ${url}, which reverses to ${rebuilt ?? 'nothing'}.`);
    }
  }
  return {
    pattern: input.pattern,
    urlTemplate: input.urlTemplate,
    reverseTemplate,
    alternativeUrlTemplates: input.alternativeUrlTemplates ?? [],
    exampleInput,
  };
}

async function checkPatternFree(tx: Tx, realmId: number, pattern: string, exceptId?: number) {
  const clash = await tx.linkifier.findFirst({ where: { realmId, pattern, ...(exceptId ? { id: { not: exceptId } } : {}) } });
  if (clash) throw errors.badRequest('Linkifier with this Realm and Pattern already exists.');
}

export async function doAddLinkifier(services: Services, actor: Actor, input: () => LinkifierInput): Promise<number> {
  checkAdmin(actor);
  const data = checkLinkifier(input());
  return services.db.$transaction(async (tx) => {
    await checkPatternFree(tx, actor.realmId, data.pattern);
    const last = await tx.linkifier.aggregate({ where: { realmId: actor.realmId }, _max: { order: true } });
    const row = await tx.linkifier.create({ data: { realmId: actor.realmId, ...data, order: (last._max.order ?? 0) + 1 } });
    await announce(tx, actor.realmId);
    return row.id;
  });
}

async function accessLinkifier(tx: Tx, realmId: number, id: number) {
  const row = await tx.linkifier.findFirst({ where: { id, realmId } });
  if (!row) throw errors.badRequest('Linkifier not found.');
  return row;
}

export async function doUpdateLinkifier(services: Services, actor: Actor, id: number, input: () => LinkifierInput): Promise<void> {
  checkAdmin(actor);
  const data = checkLinkifier(input());
  await services.db.$transaction(async (tx) => {
    await accessLinkifier(tx, actor.realmId, id);
    await checkPatternFree(tx, actor.realmId, data.pattern, id);
    await tx.linkifier.update({ where: { id }, data });
    await announce(tx, actor.realmId);
  });
}

export async function doRemoveLinkifier(services: Services, actor: Actor, id: number): Promise<void> {
  checkAdmin(actor);
  await services.db.$transaction(async (tx) => {
    await accessLinkifier(tx, actor.realmId, id);
    await tx.linkifier.delete({ where: { id } });
    await announce(tx, actor.realmId);
  });
}

export async function doReorderLinkifiers(services: Services, actor: Actor, order: () => number[]): Promise<void> {
  checkAdmin(actor);
  const ids = order();
  await services.db.$transaction(async (tx) => {
    if (new Set(ids).size !== ids.length) throw errors.badRequest('The ordered list must not contain duplicated linkifiers');
    const existing = await tx.linkifier.findMany({ where: { realmId: actor.realmId }, select: { id: true } });
    const known = new Set(existing.map((l) => l.id));
    if (ids.length !== known.size || !ids.every((x) => known.has(x))) {
      throw errors.badRequest('The ordered list must enumerate all existing linkifiers exactly once');
    }
    for (const [i, id] of ids.entries()) await tx.linkifier.update({ where: { id }, data: { order: i + 1 } });
    await announce(tx, actor.realmId);
  });
}
