import { checkNotBot, errors, type Actor } from '@chat/contracts';
import type { Services } from '../context';
import { doEnqueueLegacySync, doMarkLegacyPending } from './legacy-registration';
import { bumpDeviceVersion } from '../lib/device-holders';

/**
 * The deprecated plaintext registrations (before end-to-end encrypted push). Clients still
 * register and unregister them; a later E2EE registration of the same token removes them.
 *
 * The relay delivers only to tokens it holds, so each change also goes to the relay, from a
 * `legacy-sync` job (workers/legacy-registration.ts): the request succeeds while the relay is
 * away, and the job is retried until the relay has the change. The token is marked pending
 * before its row changes, so no notification lists it before the relay knows it.
 */
export type LegacyKind = 'apns' | 'fcm';

const MAX_TOKEN_LENGTH = 4096;

export function checkLegacyToken(actor: Actor, token: string, kind: LegacyKind): void {
  checkNotBot(actor);
  if (token === '' || token.length > MAX_TOKEN_LENGTH) throw errors.badRequest('Empty or invalid length token');
  // APNs device tokens travel as hex; anything else cannot be a token APNs issued.
  if (kind === 'apns' && !/^(?:[0-9a-fA-F]{2})+$/.test(token)) throw errors.badRequest('Invalid APNS token');
}

export function checkAppId(appId: string): void {
  if (!/^[.a-zA-Z0-9-]+$/.test(appId)) throw errors.invalidArgument('appid', 'Invalid app ID');
}

export async function doAddLegacyToken(
  services: Services,
  actor: Actor,
  token: string,
  kind: LegacyKind,
  iosAppId: string | null,
): Promise<void> {
  await doMarkLegacyPending(services, actor.userId, { kind, token });
  await services.db.pushDeviceToken.upsert({
    where: { userId_kind_token: { userId: actor.userId, kind, token } },
    create: { realmId: actor.realmId, userId: actor.userId, kind, token, iosAppId },
    update: { lastUpdated: new Date(), iosAppId },
  });
  await bumpDeviceVersion(services);
  // Sent again every time: the client re-registers to repair a relay that lost the token.
  await doEnqueueLegacySync(services, { realmId: actor.realmId, userId: actor.userId, kind, token });
}

export async function doRemoveLegacyToken(services: Services, actor: Actor, token: string, kind: LegacyKind): Promise<void> {
  const removed = await services.db.pushDeviceToken.deleteMany({ where: { userId: actor.userId, kind, token } });
  if (removed.count === 0) throw errors.badRequest('Token does not exist');
  await bumpDeviceVersion(services);
  await doMarkLegacyPending(services, actor.userId, { kind, token });
  await doEnqueueLegacySync(services, { realmId: actor.realmId, userId: actor.userId, kind, token });
}
