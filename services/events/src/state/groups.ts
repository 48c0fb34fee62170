/** realm_user_groups: every group with its direct members and subgroups. */
import type { Db } from '@chat/db';
import { SYSTEM_GROUPS } from '@chat/realm';
import type { StateOptions } from '.';

export async function userGroupsSection(db: Db, opts: StateOptions): Promise<Record<string, unknown>> {
  const includeDeactivated = opts.clientCapabilities.include_deactivated_groups === true;
  const groups = await db.userGroup.findMany({
    where: { realmId: opts.realm.id, ...(includeDeactivated ? {} : { deactivated: false }) },
    include: { members: { select: { userId: true } }, subgroups: { select: { subgroupId: true } } },
    orderBy: { id: 'asc' },
  });
  const byName = new Map(groups.filter((g) => g.isSystemGroup).map((g) => [g.name, g.id]));
  const nobody = byName.get(SYSTEM_GROUPS.nobody) ?? null;
  const everyone = byName.get(SYSTEM_GROUPS.everyone) ?? null;
  const admins = byName.get(SYSTEM_GROUPS.administrators) ?? null;
  return {
    realm_user_groups: groups.map((g) => ({
      id: g.id,
      name: g.name,
      description: g.description,
      members: g.members.map((m) => m.userId).sort((a, b) => a - b),
      direct_subgroup_ids: g.subgroups.map((s) => s.subgroupId).sort((a, b) => a - b),
      is_system_group: g.isSystemGroup,
      date_created: g.isSystemGroup ? null : Math.floor(g.dateCreated.getTime() / 1000),
      creator_id: g.creatorId,
      deactivated: g.deactivated,
      can_add_members_group: g.isSystemGroup ? nobody : admins,
      can_join_group: nobody,
      can_leave_group: g.isSystemGroup ? nobody : everyone,
      can_manage_group: g.isSystemGroup ? nobody : admins,
      can_mention_group: g.isSystemGroup ? nobody : everyone,
      can_remove_members_group: g.isSystemGroup ? nobody : admins,
    })),
  };
}
