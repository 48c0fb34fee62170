import { recordEvent } from '@chat/bus';
import { errors, checkAdmin, type Actor } from '@chat/contracts';
import type { Tx } from '@chat/db';
import { realmPlaygroundList } from '@chat/wire';
import type { Services } from '../context';
import { activeUserIds } from '../lib/audience';
import { parseUriTemplate } from '../lib/uri-template';

/** Code playgrounds: where a code block of a language can be opened, one template each. */
export const MAX_PYGMENTS_LANGUAGE_LENGTH = 40;
// Languages are not limited to known lexers (custom ones get playgrounds too), only to the
// characters a code block's language tag may hold.
const PYGMENTS_LANGUAGE = /^[ a-zA-Z0-9_+\-./#]*$/;

export interface PlaygroundInput {
  name: string;
  pygmentsLanguage: string;
  urlTemplate: string;
}

/** A model-level refusal: the message, and every field's messages as `errors`. */
function invalid(field: string, msg: string) {
  return errors.badRequest(msg, { errors: { [field]: [msg] } });
}

/** Validates a playground as the family's server does, in its order; returns what is stored. */
export function checkPlayground(input: PlaygroundInput): PlaygroundInput {
  if (input.pygmentsLanguage.length > MAX_PYGMENTS_LANGUAGE_LENGTH) {
    throw errors.badRequest(`pygments_language is too long (limit: ${MAX_PYGMENTS_LANGUAGE_LENGTH} characters)`);
  }
  if (!PYGMENTS_LANGUAGE.test(input.pygmentsLanguage)) throw errors.badRequest('Invalid characters in pygments language');
  const data = { name: input.name.trim(), pygmentsLanguage: input.pygmentsLanguage.trim(), urlTemplate: input.urlTemplate.trim() };
  const template = parseUriTemplate(data.urlTemplate);
  if (!template || !data.urlTemplate) throw invalid('url_template', 'Invalid URL template.');
  if (!data.name) throw invalid('name', 'This field cannot be blank.');
  if (!data.pygmentsLanguage) throw invalid('pygments_language', 'This field cannot be blank.');
  if (!template.variables.includes('code')) throw invalid('__all__', 'Missing the required variable "code" in the URL template');
  if (template.variables.length !== 1) throw invalid('__all__', '"code" should be the only variable present in the URL template');
  return data;
}

export async function listPlaygrounds(db: Services['db'] | Tx, realmId: number) {
  return realmPlaygroundList(await db.realmPlayground.findMany({ where: { realmId } }));
}

/** Every active user hears the whole new list (the event has no op). */
async function announce(tx: Tx, realmId: number) {
  await recordEvent(tx, {
    realmId,
    type: 'realm_playgrounds',
    users: await activeUserIds(tx, realmId),
    event: { type: 'realm_playgrounds', realm_playgrounds: await listPlaygrounds(tx, realmId) },
  });
}

export async function doAddPlayground(services: Services, actor: Actor, input: () => PlaygroundInput): Promise<number> {
  checkAdmin(actor);
  const data = checkPlayground(input());
  return services.db.$transaction(async (tx) => {
    // Two admins adding the same one at once: the second waits here and then finds the first.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('realm_playgrounds'), ${actor.realmId})`;
    const clash = await tx.realmPlayground.findFirst({ where: { realmId: actor.realmId, name: data.name, pygmentsLanguage: data.pygmentsLanguage } });
    if (clash) throw invalid('__all__', 'Realm playground with this Realm, Pygments language and Name already exists.');
    const row = await tx.realmPlayground.create({ data: { realmId: actor.realmId, ...data } });
    await announce(tx, actor.realmId);
    return row.id;
  });
}

/** Ids are 32-bit: a larger one names nothing (and the database would refuse to compare it). */
const MAX_ID = 2 ** 31 - 1;

async function accessPlayground(tx: Tx, realmId: number, id: number) {
  const row = id <= MAX_ID ? await tx.realmPlayground.findFirst({ where: { id, realmId } }) : null;
  if (!row) throw errors.badRequest('Invalid playground');
  return row;
}

export async function doRemovePlayground(services: Services, actor: Actor, id: number): Promise<void> {
  checkAdmin(actor);
  await services.db.$transaction(async (tx) => {
    const row = await accessPlayground(tx, actor.realmId, id);
    await tx.realmPlayground.delete({ where: { id: row.id } });
    await announce(tx, actor.realmId);
  });
}
