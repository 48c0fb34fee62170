/** realm_user: the people of the realm as this viewer may see them, and the viewer's own facts. */
import type { Db } from '@chat/db';
import { ROLE } from '@chat/contracts';
import type { StateOptions, Want } from '.';
import { avatarUrl } from './avatar';

/** email_address_visibility values and the lowest role (numerically highest) that sees the address. */
const VISIBILITY_MAX_ROLE: Record<number, number> = {
  1: ROLE.GUEST, // everyone
  2: ROLE.MEMBER, // members
  3: ROLE.ADMINISTRATOR, // administrators
  4: 0, // nobody
  5: ROLE.MODERATOR, // moderators
};

export function canSeeDeliveryEmail(viewer: { id?: number; role?: number }, target: { id: number; settings: unknown }): boolean {
  if (viewer.id === target.id) return true;
  if (viewer.role === undefined) return false;
  const visibility = Number((target.settings as Record<string, unknown> | null)?.email_address_visibility ?? 1);
  return viewer.role <= (VISIBILITY_MAX_ROLE[visibility] ?? 0);
}

type UserRow = Awaited<ReturnType<Db['user']['findMany']>>[number];

type ProfileData = Record<string, { value: string; rendered_value?: string }>;

export function personObject(u: UserRow, opts: StateOptions, profile: ProfileData = {}): Record<string, unknown> {
  const viewer = { id: opts.identity.userId, role: opts.identity.role };
  const person: Record<string, unknown> = {
    user_id: u.id,
    email: u.email,
    delivery_email: canSeeDeliveryEmail(viewer, u) ? u.deliveryEmail : null,
    full_name: u.fullName,
    date_joined: u.dateJoined.toISOString(),
    is_active: u.isActive,
    is_owner: u.role === ROLE.OWNER,
    is_admin: u.role <= ROLE.ADMINISTRATOR,
    is_guest: u.role === ROLE.GUEST,
    is_billing_admin: false,
    role: u.role,
    is_bot: u.isBot,
    timezone: u.timezone,
    avatar_version: u.avatarVersion,
    avatar_url: avatarUrl(u, opts.identity.realmUrl, opts.clientGravatar),
    is_imported_stub: u.isImportedStub,
  };
  if (u.isBot) {
    person.bot_type = u.botType;
    person.bot_owner_id = u.botOwnerId;
  } else {
    person.profile_data = profile;
  }
  return person;
}

export async function realmUsersSection(db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  if (!want('realm_user')) return {};
  const [users, values] = await Promise.all([
    db.user.findMany({ where: { realmId: opts.realm.id }, orderBy: { id: 'asc' } }),
    db.customProfileFieldValue.findMany({ where: { field: { realmId: opts.realm.id } } }),
  ]);
  const profiles = new Map<number, ProfileData>();
  for (const v of values) {
    const data = profiles.get(v.userId) ?? {};
    data[String(v.fieldId)] = { value: v.value, ...(v.renderedValue !== null ? { rendered_value: v.renderedValue } : {}) };
    profiles.set(v.userId, data);
  }
  const person = (u: UserRow) => personObject(u, opts, profiles.get(u.id));
  const out: Record<string, unknown> = {
    realm_users: users.filter((u) => u.isActive).map(person),
    realm_non_active_users: users.filter((u) => !u.isActive).map(person),
    cross_realm_bots: [],
  };
  const me = users.find((u) => u.id === opts.identity.userId);
  if (me) {
    Object.assign(out, {
      user_id: me.id,
      email: me.email,
      delivery_email: me.deliveryEmail,
      full_name: me.fullName,
      is_owner: me.role === ROLE.OWNER,
      is_admin: me.role <= ROLE.ADMINISTRATOR,
      is_moderator: me.role === ROLE.MODERATOR,
      is_guest: me.role === ROLE.GUEST,
      is_billing_admin: false,
      role: me.role,
      avatar_source: me.avatarSource,
      avatar_url: avatarUrl(me, opts.identity.realmUrl, false),
      avatar_url_medium: avatarUrl(me, opts.identity.realmUrl, false),
      avatar_version: me.avatarVersion,
      can_create_streams: me.role <= ROLE.MEMBER,
      can_subscribe_other_users: me.role <= ROLE.MEMBER,
      can_invite_others_to_realm: me.role <= ROLE.MEMBER,
    });
  }
  return out;
}
