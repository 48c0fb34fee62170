import { actorFromIdentity } from '@chat/contracts';
import type { Router } from 'express';
import { z } from 'zod';
import { endpoint, type Params } from '@chat/kit';
import type { Services } from '../context';
import { listUserGroups, userGroupMembers } from '../actions/user-groups';
import { accessIsGroupMember, accessSubgroupIds } from '../actions/user-group-queries';
import { toSettingRequest, type SettingRequest } from '../actions/user-group-access';
import { doCreateUserGroup, doDeactivateUserGroup, doUpdateGroupMembers, doUpdateSubgroups, doUpdateUserGroup, GROUP_SETTING_NAMES } from '../actions/user-groups-edit';

const ids = z.array(z.number().int());
const value = z.union([z.number().int(), z.object({ direct_members: ids, direct_subgroups: ids })]);
const change = z.union([value, z.object({ new: value, old: value.optional() })]);

function settingParams(p: Params) {
  const out: Record<string, SettingRequest> = {};
  for (const name of GROUP_SETTING_NAMES) {
    const raw = p.json(name, change);
    if (raw !== undefined) out[name] = toSettingRequest(raw);
  }
  return out;
}

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
  router.get(
    '/user_groups/:group_id/members/:user_id',
    endpoint(async ({ p, identity }) => ({
      is_user_group_member: await accessIsGroupMember(
        services,
        actorFromIdentity(identity),
        p.pathInt('group_id'),
        p.pathInt('user_id'),
        p.bool('direct_member_only', false),
      ),
    })),
  );
  router.get(
    '/user_groups/:group_id/subgroups',
    endpoint(async ({ p, identity }) => ({
      subgroups: await accessSubgroupIds(services, actorFromIdentity(identity), p.pathInt('group_id'), p.bool('direct_subgroup_only', false)),
    })),
  );
  // The family's server replaced deleting a group by deactivating it (feature level 294); the
  // Python bindings' remove_user_group still sends DELETE, so it deactivates: the group's
  // history (permissions it held, mentions of it) stays, as with POST .../deactivate.
  router.delete(
    '/user_groups/:group_id',
    endpoint(async ({ p, identity }) => {
      await doDeactivateUserGroup(services, actorFromIdentity(identity), p.pathInt('group_id'));
      return {};
    }),
  );
  router.post(
    '/user_groups/create',
    endpoint(async ({ p, identity }) => {
      const name = p.reqStr('name');
      const members = p.reqJson('members', ids);
      const description = p.reqStr('description');
      const subgroups = p.json('subgroups', ids) ?? [];
      const settings = Object.fromEntries(Object.entries(settingParams(p)).map(([k, v]) => [k, v.new]));
      return { group_id: await doCreateUserGroup(services, actorFromIdentity(identity), { name, description, members, subgroups, settings }) };
    }),
  );
  router.patch(
    '/user_groups/:group_id',
    endpoint(async ({ p, identity }) => {
      await doUpdateUserGroup(services, actorFromIdentity(identity), p.pathInt('group_id'), {
        name: p.str('name'),
        description: p.str('description'),
        deactivated: p.bool('deactivated'),
        settings: settingParams(p),
      });
      return {};
    }),
  );
  router.post(
    '/user_groups/:group_id/members',
    endpoint(async ({ p, identity }) => {
      await doUpdateGroupMembers(services, actorFromIdentity(identity), p.pathInt('group_id'), {
        add: p.json('add', ids) ?? [],
        delete: p.json('delete', ids) ?? [],
        addSubgroups: p.json('add_subgroups', ids) ?? [],
        deleteSubgroups: p.json('delete_subgroups', ids) ?? [],
      });
      return {};
    }),
  );
  router.post(
    '/user_groups/:group_id/subgroups',
    endpoint(async ({ p, identity }) => {
      await doUpdateSubgroups(services, actorFromIdentity(identity), p.pathInt('group_id'), p.json('add', ids) ?? [], p.json('delete', ids) ?? []);
      return {};
    }),
  );
  router.post(
    '/user_groups/:group_id/deactivate',
    endpoint(async ({ p, identity }) => {
      await doDeactivateUserGroup(services, actorFromIdentity(identity), p.pathInt('group_id'));
      return {};
    }),
  );
}
