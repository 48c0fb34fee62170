import { randomBytes } from 'node:crypto';
import type { Db, Tx } from '@chat/db';
import { ROLE } from '@chat/contracts';
import { announceNewUser } from './announce-user';
import { SYSTEM_GROUPS, SYSTEM_GROUP_NESTING } from './groups';
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
   * false: the caller announces the account itself (announceNewUser, to those who may access
   * it). Default true: announced to every active user of the realm.
   */
  announce?: boolean;
  /**
   * Realm URL for the announced User object's avatar_url. A new account's avatar is its
   * Gravatar, which needs none, so callers without one may leave it out.
   */
  realmUrl?: string;
  /** 'U' for an account made with an uploaded avatar (a bot created with one); default the Gravatar. */
  avatarSource?: 'G' | 'U';
}

/**
 * Creates a user (or bot) with the realm's default settings and system-group membership, and
 * announces it to the realm (announceNewUser), all in the caller's transaction.
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
      ...(input.avatarSource ? { avatarSource: input.avatarSource } : {}),
    },
  });
  const visibility = (created.settings as Record<string, unknown>).email_address_visibility;
  const user =
    input.fakeEmailDomain && !created.isBot && visibility !== undefined && visibility !== 1
      ? await tx.user.update({ where: { id: created.id }, data: { email: `user${created.id}@${input.fakeEmailDomain}` } })
      : created;
  // System-group membership follows from the role (system-group-members.ts): no row to write.
  if (input.announce === false) return user;
  const active = await tx.user.findMany({ where: { realmId: input.realmId, isActive: true }, select: { id: true } });
  await announceNewUser(tx, user, { audience: active.map((u) => u.id), realmUrl: input.realmUrl ?? '' });
  return user;
}

export async function doCreateUser(db: Db, input: NewUser) {
  return db.$transaction((tx) => doCreateUserInTx(tx, input));
}
