/**
 * Members who become full members by waiting alone: their account reached the realm's
 * waiting_period_threshold, with no change anyone made. Membership is computed when read
 * (ADR 0047), so nothing is written; what a running client would miss is the announcement,
 * which the family's daily promote_new_full_members job sends. The full-members job
 * (workers/full-members.ts) calls this for the time since its last run.
 */
import { recordEvent } from '@chat/bus';
import { ROLE, SYSTEM_GROUPS } from '@chat/contracts';
import type { Db } from '@chat/db';
import { isDirectSystemMember, realmPolicies, systemGroupIds } from '@chat/realm';
import { activeUserIds } from '../lib/audience';

export const FULL_MEMBERS_RUN_JOB = 'full-members-run';

const DAY_MS = 86_400_000;

/**
 * Announces, per realm, an `add_members` of "role:fullmembers" for the active people who were
 * not full members at `since` and are at `until` by the one rule of @chat/realm. Answers how
 * many were announced.
 */
export async function doAnnounceNewFullMembers(db: Db, since: Date, until: Date): Promise<number> {
  const realms = await db.realm.findMany({ where: { deactivated: false }, select: { id: true, settings: true } });
  let announced = 0;
  for (const realm of realms) {
    const days = Number(realmPolicies(realm.settings).waiting_period_threshold) || 0;
    // Without a waiting period a member is a full member from the start (announced at sign-up).
    if (days <= 0) continue;
    // Those whose waiting period ends within the window, a day either side; the rule decides.
    const candidates = await db.user.findMany({
      where: {
        realmId: realm.id,
        isActive: true,
        role: ROLE.MEMBER,
        dateJoined: { gt: new Date(since.getTime() - (days + 1) * DAY_MS), lte: new Date(until.getTime() - (days - 1) * DAY_MS) },
      },
      select: { id: true, role: true, dateJoined: true },
      orderBy: { id: 'asc' },
    });
    const full = SYSTEM_GROUPS.fullMembers;
    const promoted = candidates
      .filter((u) => isDirectSystemMember(full, u, days, until.getTime()) && !isDirectSystemMember(full, u, days, since.getTime()))
      .map((u) => u.id);
    if (!promoted.length) continue;
    await db.$transaction(async (tx) => {
      const groupId = (await systemGroupIds(tx, realm.id)).get(full)!;
      const everyone = await activeUserIds(tx, realm.id);
      await recordEvent(tx, { realmId: realm.id, type: 'user_group', users: everyone, event: { type: 'user_group', op: 'add_members', group_id: groupId, user_ids: promoted } });
    });
    announced += promoted.length;
  }
  return announced;
}
