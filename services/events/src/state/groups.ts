/** realm_user_groups: every group with its direct members and subgroups. */
import type { Db } from '@chat/db';
import { userGroupObjects } from '@chat/wire';
import type { StateOptions } from '.';

export async function userGroupsSection(db: Db, opts: StateOptions): Promise<Record<string, unknown>> {
  const includeDeactivated = opts.clientCapabilities.include_deactivated_groups === true;
  const groups = await db.userGroup.findMany({
    where: { realmId: opts.realm.id, ...(includeDeactivated ? {} : { deactivated: false }) },
    include: { members: { select: { userId: true } }, subgroups: { select: { subgroupId: true } } },
    orderBy: { id: 'asc' },
  });
  return { realm_user_groups: userGroupObjects(groups) };
}
