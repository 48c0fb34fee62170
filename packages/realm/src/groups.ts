import { SYSTEM_GROUPS } from '@chat/contracts';

/**
 * System groups back every group-setting value ("who may do X"). Each role group contains the
 * roles above it through subgroups, the way clients of this API expect to see them. Their names
 * are part of the API, so they are defined in @chat/contracts (and re-exported here).
 */
export { SYSTEM_GROUPS };

/** [supergroup, subgroup] pairs: owners ⊂ administrators ⊂ moderators ⊂ fullmembers ⊂ members ⊂ everyone ⊂ internet. */
export const SYSTEM_GROUP_NESTING: Array<[string, string]> = [
  [SYSTEM_GROUPS.administrators, SYSTEM_GROUPS.owners],
  [SYSTEM_GROUPS.moderators, SYSTEM_GROUPS.administrators],
  [SYSTEM_GROUPS.fullMembers, SYSTEM_GROUPS.moderators],
  [SYSTEM_GROUPS.members, SYSTEM_GROUPS.fullMembers],
  [SYSTEM_GROUPS.everyone, SYSTEM_GROUPS.members],
  [SYSTEM_GROUPS.internet, SYSTEM_GROUPS.everyone],
];
