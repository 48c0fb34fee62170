/** realm_user_groups: every group with its direct members and subgroups, kept per replica (kept.ts). */
import type { Db } from '@chat/db';
import { directMemberIdsByGroup, directMembershipSql } from '@chat/realm';
import { userGroupObjects } from '@chat/wire';
import { builtOnce, fingerprintSql, keptRows } from './kept';
import type { StateOptions } from '.';

/**
 * Members are @chat/realm's rule (rows for user groups; role, account age and the realm's waiting
 * period for system groups), so the fingerprint is of the memberships the rule gives, not of
 * rows: a member who becomes a full member by waiting changes it without any write.
 */
const FINGERPRINT = [
  fingerprintSql('user_groups r', 'r.realm_id = $1', ['r.id']),
  `(SELECT count(*)::text || ':' || coalesce(sum(hashtextextended(d.group_id::text || ':' || d.user_id::text, 0)), 0)::text FROM (${directMembershipSql(1)}) d)`,
  fingerprintSql('user_group_subgroups r JOIN user_groups g ON g.id = r.supergroup_id', 'g.realm_id = $1', ['r.supergroup_id', 'r.subgroup_id']),
];

export async function userGroupsSection(db: Db, opts: StateOptions): Promise<Record<string, unknown>> {
  const realmId = opts.realm.id;
  const kept = await keptRows(db, 'groups', realmId, FINGERPRINT, async () => {
    const [groups, members] = await Promise.all([
      db.userGroup.findMany({ where: { realmId }, include: { subgroups: { select: { subgroupId: true } } }, orderBy: { id: 'asc' } }),
      directMemberIdsByGroup(db, realmId),
    ]);
    return groups.map((g) => ({ ...g, members: (members.get(g.id) ?? []).map((userId) => ({ userId })) }));
  });
  const includeDeactivated = opts.clientCapabilities.include_deactivated_groups === true;
  const groups = builtOnce(kept, includeDeactivated ? 'all' : 'active', () =>
    userGroupObjects(includeDeactivated ? kept.rows : kept.rows.filter((g) => !g.deactivated)),
  );
  return { realm_user_groups: groups };
}
