/** realm_user_groups: every group with its direct members and subgroups, kept per replica (kept.ts). */
import type { Db } from '@chat/db';
import { userGroupObjects } from '@chat/wire';
import { builtOnce, fingerprintSql, keptRows } from './kept';
import type { StateOptions } from '.';

const FINGERPRINT = [
  fingerprintSql('user_groups r', 'r.realm_id = $1', ['r.id']),
  fingerprintSql('user_group_members r JOIN user_groups g ON g.id = r.group_id', 'g.realm_id = $1', ['r.group_id', 'r.user_id']),
  fingerprintSql('user_group_subgroups r JOIN user_groups g ON g.id = r.supergroup_id', 'g.realm_id = $1', ['r.supergroup_id', 'r.subgroup_id']),
];

export async function userGroupsSection(db: Db, opts: StateOptions): Promise<Record<string, unknown>> {
  const realmId = opts.realm.id;
  const kept = await keptRows(db, 'groups', realmId, FINGERPRINT, () =>
    db.userGroup.findMany({
      where: { realmId },
      include: { members: { select: { userId: true } }, subgroups: { select: { subgroupId: true } } },
      orderBy: { id: 'asc' },
    }),
  );
  const includeDeactivated = opts.clientCapabilities.include_deactivated_groups === true;
  const groups = builtOnce(kept, includeDeactivated ? 'all' : 'active', () =>
    userGroupObjects(includeDeactivated ? kept.rows : kept.rows.filter((g) => !g.deactivated)),
  );
  return { realm_user_groups: groups };
}
