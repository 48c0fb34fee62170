/**
 * The checks of a direct message (check.ts): who its recipients are, and whether the realm's
 * direct-message policies let the sender write to them.
 */
import type { User } from '@chat/db';
import { errors } from '@chat/contracts';
import { hasRealmPermission, isInGroupSetting, realmGroupSetting, type MemberRef } from '@chat/realm';
import type { Services } from '../../context';
import type { LoadedActor } from '../../lib/caller';
import { parseDirectTargets } from '../../lib/recipients';

/** A direct message's recipient, with what the permission checks and its object read. */
export type DirectRecipient = Pick<User, 'id' | 'email' | 'fullName' | 'isActive' | 'realmId' | 'role' | 'dateJoined' | 'isBot'>;

/** `actor`: the sender's realm and id (the caller's identity will do: this runs beside its row's read). */
export async function resolveDirectRecipients(db: Services['db'], actor: { realmId: number; userId: number }, to: unknown): Promise<DirectRecipient[]> {
  const parsed = parseDirectTargets(to);
  const select = { id: true, email: true, fullName: true, isActive: true, realmId: true, role: true, dateJoined: true, isBot: true } as const;
  let users: DirectRecipient[];
  if ('ids' in parsed) {
    users = await db.user.findMany({ where: { id: { in: parsed.ids }, realmId: actor.realmId }, select });
    const found = new Set(users.map((u) => u.id));
    const missing = parsed.ids.find((id) => !found.has(id));
    if (missing !== undefined) throw errors.badRequest(`Invalid user ID ${missing}`);
  } else {
    users = await db.user.findMany({
      where: { realmId: actor.realmId, email: { in: parsed.emails, mode: 'insensitive' } },
      select,
    });
    const found = new Set(users.map((u) => u.email.toLowerCase()));
    const missing = parsed.emails.find((e) => !found.has(e.toLowerCase()));
    if (missing !== undefined) throw errors.badRequest(`Invalid email '${missing}'`);
  }
  const inactive = users.find((u) => !u.isActive && u.id !== actor.userId);
  if (inactive) throw errors.badRequest(`'${inactive.email}' is no longer a member of this organization.`);
  // The sender may be listed; only a message to oneself keeps them as the sole recipient.
  return users.filter((u) => u.id !== actor.userId);
}

/**
 * Realm direct-message policies: starting a conversation needs direct_message_initiator_group;
 * any conversation needs a participant in direct_message_permission_group. Conversations with
 * oneself or with a bot are always allowed. The recipients' rows (and the sender's, when read)
 * carry what the group settings test, and the setting and the conversation are read side by side.
 */
export async function checkDirectMessageAllowed(db: Services['db'], actor: LoadedActor, sender: MemberRef, recipients: DirectRecipient[]): Promise<void> {
  if (!recipients.length || actor.isBot) return;
  if (recipients.some((r) => r.isBot)) return;
  const memberKey = [...new Set([actor.userId, ...recipients.map((r) => r.id)])].sort((a, b) => a - b).join(',');
  const [permission, exists] = await Promise.all([
    realmGroupSetting(db, actor.realmId, 'direct_message_permission_group'),
    db.directConversation.findUnique({ where: { realmId_memberKey: { realmId: actor.realmId, memberKey } }, select: { id: true } }),
  ]);
  const authorizers = await Promise.all([sender, ...recipients].map((m) => isInGroupSetting(db, actor.realmId, permission, m)));
  if (!authorizers.some(Boolean)) throw errors.badRequest('This conversation does not include any users who can authorize it.');
  if (!exists && !(await hasRealmPermission(db, actor.realmId, 'direct_message_initiator_group', sender))) {
    throw errors.badRequest('You do not have permission to initiate direct message conversations.');
  }
}
