/** realm_user: the people of the realm as this viewer may see them, and the viewer's own facts. */
import type { Db, User } from '@chat/db';
import { ROLE, isAdmin, isGuest, isOwner, type UserObject } from '@chat/contracts';
import {
  accessibleUserIds, fakeEmailDomain, groupPermissionConfig, groupPredicate, guestMayHold, inaccessibleUserObject, isSystemBot, realmGroupSettings, realmPolicies, systemGroupIds,
} from '@chat/realm';
import { avatarUrl, userObject, type Viewer } from '@chat/wire';
import { builtOnce, type Kept } from './kept';
import { realmPeople, type RealmPeople } from './realm-people';
import type { StateOptions, Want } from '.';

export async function realmUsersSection(db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  if (!want('realm_user')) return {};
  const { userId, role } = opts.identity;
  // Spectators (no user) see what a viewer with no rights would.
  const viewer: Viewer | null = userId !== undefined && role !== undefined ? { id: userId, role } : null;
  const [kept, allowed] = await Promise.all([
    realmPeople(db, opts),
    viewer ? accessibleUserIds(db, opts.realm.id, viewer) : null,
  ]);
  const people = kept.rows;
  const { users } = people;
  const others = othersObjects(kept, viewer, opts);
  // The User object of GET /users, with every person's custom profile data; the viewer's own
  // differs from what others see of it (their real address), so it is built for them alone.
  const person = (u: User, i: number): UserObject =>
    u.id === userId
      ? userObject(u, viewer, { realmUrl: opts.identity.realmUrl, clientGravatar: opts.clientGravatar, profileData: people.profiles.get(u.id) ?? {} })
      : others[i]!;
  // A guest outside can_access_all_users_group gets, for each person they may not see, a
  // placeholder that gives away only the id, as GET /users does; or nothing at all for clients
  // that declare they cope with an incomplete user list.
  const hidden = (u: User) => allowed !== null && !u.isBot && !allowed.has(u.id);
  const hiddenDomain = fakeEmailDomain(opts.identity.realmUrl);
  const placeholders = opts.clientCapabilities.user_list_incomplete === true ? [] : users.filter(hidden).map((u) => inaccessibleUserObject(u.id, hiddenDomain));
  const active: UserObject[] = [];
  const nonActive: UserObject[] = [];
  const systemBots: UserObject[] = [];
  users.forEach((u, i) => {
    // The system bots are listed once, as cross_realm_bots, where clients look for them.
    if (isSystemBot(u)) systemBots.push({ ...person(u, i), is_system_bot: true });
    else if (!hidden(u)) (u.isActive ? active : nonActive).push(person(u, i));
  });
  const out: Record<string, unknown> = {
    realm_users: placeholders.length ? [...active, ...placeholders].sort((a, b) => Number(a.user_id) - Number(b.user_id)) : active,
    realm_non_active_users: nonActive,
    cross_realm_bots: systemBots,
  };
  const me = users.find((u) => u.id === opts.identity.userId);
  if (me) {
    Object.assign(out, {
      user_id: me.id,
      email: me.email,
      delivery_email: me.deliveryEmail,
      full_name: me.fullName,
      is_owner: isOwner(me),
      is_admin: isAdmin(me),
      // Exactly a moderator here, unlike isModerator (moderators and above).
      is_moderator: me.role === ROLE.MODERATOR,
      is_guest: isGuest(me),
      // No is_billing_admin (gone at feature level 363), and no top-level role or avatar_version:
      // the family's register never had them at this level; both are in one's own user object.
      avatar_source: me.avatarSource,
      avatar_url: avatarUrl(me, opts.identity.realmUrl),
      avatar_url_medium: avatarUrl(me, opts.identity.realmUrl, true),
      ...(await viewerPermissions(db, opts, me)),
    });
  }
  return out;
}

/**
 * Every user's object as any viewer of this role sees it, aligned with `people.users`, built once
 * per kept copy of the rows. What a viewer sees of others depends only on their role (who may
 * read real addresses), the realm's URL and client_gravatar; their own object is built apart.
 */
function othersObjects(kept: Kept<RealmPeople>, viewer: Viewer | null, opts: StateOptions): UserObject[] {
  const { realmUrl } = opts.identity;
  return builtOnce(kept, `${viewer?.role ?? 'spectator'} ${opts.clientGravatar} ${realmUrl}`, () => {
    // No user has id 0: this viewer is nobody in particular, of the viewer's role.
    const anyone: Viewer | null = viewer ? { id: 0, role: viewer.role } : null;
    return kept.rows.users.map((u) =>
      userObject(u, anyone, { realmUrl, clientGravatar: opts.clientGravatar, profileData: kept.rows.profiles.get(u.id) ?? {} }),
    );
  });
}

/** What the viewer may do, from the realm's group settings, as the family's clients read it at start. */
async function viewerPermissions(db: Db, opts: StateOptions, me: User): Promise<Record<string, boolean>> {
  const realmId = opts.realm.id;
  const settings = realmGroupSettings(opts.realm.settings, await systemGroupIds(db, realmId));
  const allowed = async (setting: string) => guestMayHold(groupPermissionConfig('realm', setting), me) && (await groupPredicate(db, realmId, settings[setting]))(me);
  const [pub, priv, webPublic, subscribe, invite] = await Promise.all([
    allowed('can_create_public_channel_group'),
    allowed('can_create_private_channel_group'),
    allowed('can_create_web_public_channel_group'),
    allowed('can_add_subscribers_group'),
    allowed('can_invite_users_group'),
  ]);
  const spectators = realmPolicies(opts.realm.settings).enable_spectator_access === true;
  return {
    can_create_public_streams: pub,
    can_create_private_streams: priv,
    can_create_web_public_streams: webPublic && spectators,
    can_create_streams: pub || priv,
    can_subscribe_other_users: subscribe,
    can_invite_others_to_realm: invite,
  };
}
