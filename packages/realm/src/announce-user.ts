import type { Tx, User } from '@chat/db';
import { recordEvent } from '@chat/bus';
import { canSeeDeliveryEmail, emailVisibilityOf, userObject } from '@chat/wire';
import { directSystemGroupIds } from './group-membership';

export interface Announcement {
  /** Active users who may access the new account: they get realm_user add. */
  audience: number[];
  /** Realm URL, for avatar URLs that go through this server. */
  realmUrl: string;
  /**
   * How the account came to be, for consumers that react to new accounts (routing only):
   * `invited_by`, `notify_referrer_on_join`, `welcome_message_custom_text` of the invitation used.
   */
  signup?: { invited_by: number; notify_referrer_on_join: boolean; welcome_message_custom_text: string | null };
}

/**
 * Announces a new account, in the caller's transaction: realm_user add with the User object to
 * `audience`, one event per distinct view (delivery_email as each viewer may see it); then its
 * membership of its system groups (its role's, and full members' when the realm has no waiting
 * period) to every active user, as user_group add_members, as for a role change. Every way of
 * creating an account ends here, so clients see one shape.
 */
export async function announceNewUser(tx: Tx, user: User, { audience, realmUrl, signup }: Announcement): Promise<void> {
  // Marks these realm_user add events as the creation of the account (a consumer's cue for
  // onboarding messages), as opposed to any later add, e.g. a guest gaining access.
  const routing = { new_user: { user_id: user.id, is_bot: user.isBot, realm_url: realmUrl, ...signup } };
  const viewers = await tx.user.findMany({ where: { id: { in: audience } }, select: { id: true, role: true }, orderBy: { id: 'asc' } });
  const target = { id: user.id, isBot: user.isBot, visibility: emailVisibilityOf(user) };
  const seeing = viewers.filter((v) => canSeeDeliveryEmail(v, target));
  const notSeeing = viewers.filter((v) => !canSeeDeliveryEmail(v, target));
  for (const group of [seeing, notSeeing]) {
    if (!group.length) continue;
    // A brand-new person has no custom profile data yet: {} rather than leaving it out.
    const person = userObject(user, group[0]!, { realmUrl, clientGravatar: false, profileData: user.isBot ? undefined : {} });
    await recordEvent(tx, { realmId: user.realmId, type: 'realm_user', users: group.map((v) => v.id), event: { type: 'realm_user', op: 'add', person }, routing });
  }
  const [groupIds, active] = await Promise.all([
    directSystemGroupIds(tx, user.realmId, user),
    tx.user.findMany({ where: { realmId: user.realmId, isActive: true }, select: { id: true }, orderBy: { id: 'asc' } }),
  ]);
  for (const groupId of groupIds) {
    await recordEvent(tx, {
      realmId: user.realmId,
      type: 'user_group',
      users: active.map((u) => u.id),
      event: { type: 'user_group', op: 'add_members', group_id: groupId, user_ids: [user.id] },
    });
  }
}
