import type { Db, Tx } from '@chat/db';
import { groupPredicate, realmGroupSettings, type GroupSettingValue, type Member } from '@chat/realm';

type Reader = Db | Tx;

/** Ids of the realm's system groups by name ("role:members" -> 12). */
export async function systemGroupIds(db: Reader, realmId: number): Promise<Map<string, number>> {
  const groups = await db.userGroup.findMany({ where: { realmId, isSystemGroup: true }, select: { id: true, name: true } });
  return new Map(groups.map((g) => [g.name, g.id]));
}

/** The realm's value of a group-setting policy (e.g. can_invite_users_group), defaults resolved. */
export async function realmGroupSetting(db: Reader, realmId: number, setting: string): Promise<GroupSettingValue> {
  const realm = await db.realm.findUniqueOrThrow({ where: { id: realmId }, select: { settings: true } });
  const values = realmGroupSettings(realm.settings, await systemGroupIds(db, realmId));
  const v = values[setting];
  if (v === undefined) throw new Error(`unknown realm group setting ${setting}`);
  return v;
}

/** Whether `user` holds the realm permission `setting`. */
export async function hasRealmPermission(db: Reader, realmId: number, setting: string, user: Member): Promise<boolean> {
  const test = await groupPredicate(db, realmId, await realmGroupSetting(db, realmId, setting));
  return test(user);
}
