import { errors } from '@chat/contracts';
import type { Services } from '../context';
import { UNSUBSCRIBE_KINDS, isUnsubscribeKind, unsubscribeTokenUser } from '../lib/unsubscribe';
import { doUpdateOwnSettings } from './settings';

/**
 * A one-click unsubscribe link was followed (or POSTed by a mail program, RFC 8058): turns off
 * the setting of that kind of mail for the person the signed token names, as if they had changed
 * it themselves (their clients hear of it). Following it again changes nothing.
 */
export async function doUnsubscribe(services: Services, realm: { realmId: number; realmUrl: string }, kind: string, token: string): Promise<void> {
  const userId = isUnsubscribeKind(kind) ? unsubscribeTokenUser(services.config.INTERNAL_SECRET, realm.realmId, kind, token) : null;
  const user = userId === null ? null : await services.db.user.findFirst({ where: { id: userId, realmId: realm.realmId, isActive: true } });
  if (!user || !isUnsubscribeKind(kind)) throw errors.badRequest('Unknown email unsubscribe request');
  const actor = { realmId: realm.realmId, realmUrl: realm.realmUrl, userId: user.id, email: user.email, role: user.role, isBot: user.isBot };
  await doUpdateOwnSettings(services, actor, { settings: { [UNSUBSCRIBE_KINDS[kind]]: false } });
}
