import { randomBytes } from 'node:crypto';
import type { Db, Tx } from '@chat/db';
import { recordEvent } from '@chat/bus';
import { ROLE } from '@chat/contracts';
import { directGroupForRole, SYSTEM_GROUPS, SYSTEM_GROUP_NESTING } from './groups';
import { initialUserSettings } from './settings';

const API_KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** 32 alphanumeric characters: the API key shape clients of this API family store. */
export function generateApiKey(): string {
  const bytes = randomBytes(32);
  let key = '';
  for (const b of bytes) key += API_KEY_ALPHABET[b % API_KEY_ALPHABET.length];
  return key;
}

export interface NewRealm {
  stringId: string;
  name: string;
  description?: string;
}

/** Creates a realm with its system groups, in one transaction. */
export async function doCreateRealm(db: Db, input: NewRealm) {
  return db.$transaction(async (tx) => {
    const realm = await tx.realm.create({
      data: { stringId: input.stringId, name: input.name, description: input.description ?? '' },
    });
    const groups = new Map<string, number>();
    for (const name of Object.values(SYSTEM_GROUPS)) {
      const g = await tx.userGroup.create({ data: { realmId: realm.id, name, isSystemGroup: true } });
      groups.set(name, g.id);
    }
    await tx.userGroupSubgroup.createMany({
      data: SYSTEM_GROUP_NESTING.map(([sup, sub]) => ({ supergroupId: groups.get(sup)!, subgroupId: groups.get(sub)! })),
    });
    return realm;
  });
}

export interface NewUser {
  realmId: number;
  email: string;
  fullName: string;
  role?: number;
  deliveryEmail?: string;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
  timezone?: string;
  apiKey?: string;
  /**
   * Host of placeholder API addresses (`user<id>@<host>`), used when the realm's default
   * email_address_visibility hides the real address from others. Without it the API address
   * is the real one.
   */
  fakeEmailDomain?: string;
  /**
   * false: the caller records the realm_user add event itself (per-viewer fields such as
   * delivery_email, and only to those who may access the new user). Default true: one event
   * to the whole realm.
   */
  announce?: boolean;
}

/**
 * Creates a user (or bot) with the realm's default settings and system-group membership, and
 * announces it to the realm, all in the caller's transaction.
 */
export async function doCreateUserInTx(tx: Tx, input: NewUser) {
  const realm = await tx.realm.findUniqueOrThrow({ where: { id: input.realmId } });
  const role = input.role ?? ROLE.MEMBER;
  const created = await tx.user.create({
    data: {
      realmId: input.realmId,
      email: input.email,
      deliveryEmail: input.deliveryEmail ?? input.email,
      fullName: input.fullName,
      role,
      isBot: input.isBot ?? false,
      botType: input.isBot ? (input.botType ?? 1) : null,
      botOwnerId: input.botOwnerId ?? null,
      timezone: input.timezone ?? '',
      apiKey: input.apiKey ?? generateApiKey(),
      settings: initialUserSettings(realm.settings),
    },
  });
  const visibility = (created.settings as Record<string, unknown>).email_address_visibility;
  const user =
    input.fakeEmailDomain && !created.isBot && visibility !== undefined && visibility !== 1
      ? await tx.user.update({ where: { id: created.id }, data: { email: `user${created.id}@${input.fakeEmailDomain}` } })
      : created;
  const group = await tx.userGroup.findFirstOrThrow({ where: { realmId: input.realmId, name: directGroupForRole(role) } });
  await tx.userGroupMember.create({ data: { groupId: group.id, userId: user.id } });
  if (input.announce === false) return user;
  await recordEvent(tx, {
    realmId: input.realmId,
    type: 'realm_user',
    users: 'realm',
    event: {
      type: 'realm_user',
      op: 'add',
      person: {
        user_id: user.id,
        email: user.email,
        full_name: user.fullName,
        role: user.role,
        is_admin: role <= ROLE.ADMINISTRATOR,
        is_owner: role === ROLE.OWNER,
        is_guest: role === ROLE.GUEST,
        is_bot: user.isBot,
        bot_type: user.botType,
        bot_owner_id: user.botOwnerId,
        is_active: true,
        timezone: user.timezone,
        date_joined: user.dateJoined.toISOString(),
        avatar_version: user.avatarVersion,
      },
    },
  });
  return user;
}

export async function doCreateUser(db: Db, input: NewUser) {
  return db.$transaction((tx) => doCreateUserInTx(tx, input));
}
