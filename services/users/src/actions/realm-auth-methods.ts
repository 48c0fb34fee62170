import { recordEvent } from '@chat/bus';
import { errors, type Actor, checkOwner } from '@chat/contracts';
import { realmAuthenticationMethods } from '@chat/wire';
import type { Services } from '../context';
import { activeUserIds } from '../lib/audience';

/** Backends this server runs, under the API family's names: what a realm may switch. */
function serverBackends(services: Services): string[] {
  return services.config.NODE_ENV === 'production' ? ['Email'] : ['Email', 'Dev'];
}

/**
 * Checks PATCH /realm's `authentication_methods` (a JSON object of backend name to on/off) and
 * returns what to store; nothing is written, so a later refusal of another parameter leaves the
 * realm as it was. Owners only; the messages are the API family's.
 */
export async function checkRealmAuthenticationMethods(services: Services, actor: Actor, raw: unknown): Promise<Record<string, boolean>> {
  checkOwner(actor);
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw errors.invalidJson('authentication_methods');
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw errors.invalidArgument('authentication_methods', 'authentication_methods is not a dict');
  const backends = serverBackends(services);
  for (const [name, enabled] of Object.entries(value)) {
    if (typeof enabled !== 'boolean') throw errors.invalidArgument('authentication_methods', `authentication_methods["${name}"] is not a boolean`);
    if (!backends.includes(name)) throw errors.badRequest(`Invalid authentication method: ${name}`);
  }
  const realm = await services.db.realm.findUniqueOrThrow({ where: { id: actor.realmId } });
  const current = realmAuthenticationMethods(true, realm.settings);
  const next = Object.fromEntries(backends.map((name) => [name, (value as Record<string, boolean>)[name] ?? current[name]?.enabled === true]));
  if (!Object.values(next).includes(true)) throw errors.badRequest('At least one authentication method must be enabled.');
  return next;
}

/** Stores the checked methods and tells everyone in the realm (register's realm_authentication_methods). */
export async function doSetRealmAuthenticationMethods(services: Services, actor: Actor, methods: Record<string, boolean>): Promise<void> {
  await services.db.$transaction(async (tx) => {
    await tx.$queryRawUnsafe('SELECT 1 FROM realms WHERE id = $1 FOR UPDATE', actor.realmId);
    const realm = await tx.realm.findUniqueOrThrow({ where: { id: actor.realmId } });
    const settings = { ...((realm.settings ?? {}) as Record<string, unknown>), authentication_methods: methods };
    if (JSON.stringify((realm.settings as Record<string, unknown> | null)?.authentication_methods) === JSON.stringify(methods)) return;
    await tx.realm.update({ where: { id: realm.id }, data: { settings } });
    await recordEvent(tx, {
      realmId: realm.id,
      type: 'realm',
      users: await activeUserIds(tx, realm.id),
      event: {
        type: 'realm', op: 'update_dict', property: 'default',
        data: { authentication_methods: realmAuthenticationMethods(services.config.NODE_ENV !== 'production', settings) },
      },
    });
  });
}
