import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { listUserGroups, userGroupMembers } from '../actions/user-groups';

export function userGroupRoutes(router: Router, services: Services): void {
  router.get(
    '/user_groups',
    endpoint(async ({ p, identity }) => ({
      user_groups: await listUserGroups(services, identity.realmId, p.bool('include_deactivated_groups', false)),
    })),
  );
  router.get(
    '/user_groups/:group_id/members',
    endpoint(async ({ p, identity }) => ({
      members: await userGroupMembers(services, identity.realmId, p.pathInt('group_id'), p.bool('direct_member_only', false)),
    })),
  );
}
