import request from 'supertest';
import { identityHeaders, startService, type SeededUser, type ServiceProcess } from '@chat/testing';
import { ROLE_NAMES, startHarness, userOf, type Harness } from './support';

let h: Harness;
let sys: Record<string, number>;
let everyoneIds: number[];
beforeAll(async () => {
  h = await startHarness();
  const groups = (await h.as(h.realm.owner).get('/user_groups')).body.user_groups as Array<{ id: number; name: string }>;
  sys = Object.fromEntries(groups.map((g) => [g.name.replace('role:', ''), g.id]));
  everyoneIds = Object.values(h.realm).filter((u): u is SeededUser => typeof u === 'object').map((u) => u.id).sort((a, b) => a - b);
});
afterAll(() => h?.close());

const j = JSON.stringify;
let counter = 0;

async function create(user: SeededUser, extra: Record<string, string> = {}) {
  counter += 1;
  return h.as(user).post('/user_groups/create').send({ name: `group ${counter}`, description: 'a group', members: j([h.realm.member.id]), ...extra });
}

/** A fresh group made by the member (who therefore manages it), with the member in it. */
async function memberGroup(extra: Record<string, string> = {}): Promise<number> {
  const res = await create(h.realm.member, extra);
  expect(res.body).toMatchObject({ result: 'success' });
  return res.body.group_id as number;
}

async function groupById(id: number, includeDeactivated = true) {
  const res = await h.as(h.realm.member).get(`/user_groups?include_deactivated_groups=${includeDeactivated}`);
  return (res.body.user_groups as Array<Record<string, unknown>>).find((g) => g.id === id);
}

async function setRealm(setting: string, value: unknown) {
  const res = await h.as(h.realm.owner).patch('/realm').send({ [setting]: j(value) });
  expect(res.body.result).toBe('success');
}

const groupCount = () => h.db.userGroup.count({ where: { realmId: h.realm.realmId } });

describe('POST /user_groups/create', () => {
  it.each(ROLE_NAMES)('as the %s follows can_create_groups (default: members)', async (name) => {
    const before = await groupCount();
    const res = await create(userOf(h.realm, name));
    if (name === 'guest') {
      expect(res.body).toMatchObject({ result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' });
      expect(await groupCount()).toBe(before);
    } else {
      expect(res.body).toMatchObject({ result: 'success', group_id: expect.any(Number) });
      expect(await groupCount()).toBe(before + 1);
    }
  });

  it('follows a changed can_create_groups', async () => {
    await setRealm('can_create_groups', sys.administrators);
    try {
      expect((await create(h.realm.member)).body.msg).toBe('Insufficient permission');
      expect((await create(h.realm.moderator)).body.msg).toBe('Insufficient permission');
      expect((await create(h.realm.admin)).body.result).toBe('success');
      await setRealm('can_create_groups', { direct_members: [h.realm.member.id], direct_subgroups: [] });
      expect((await create(h.realm.member)).body.result).toBe('success');
      expect((await create(h.realm.member2)).body.msg).toBe('Insufficient permission');
    } finally {
      await setRealm('can_create_groups', sys.members);
    }
  });

  it('makes the group with its members, subgroups and default settings, and tells everyone', async () => {
    const sub = await memberGroup();
    const since = await h.lastEventId();
    const res = await h.as(h.realm.member).post('/user_groups/create').send({
      name: 'Support team', description: 'Answers questions', members: j([h.realm.member2.id, h.realm.bot.id]), subgroups: j([sub, sys.moderators]),
    });
    expect(res.body.result).toBe('success');
    const group = await groupById(res.body.group_id);
    const creator = { direct_members: [h.realm.member.id], direct_subgroups: [] };
    expect(group).toEqual({
      id: res.body.group_id,
      name: 'Support team',
      description: 'Answers questions',
      members: [h.realm.member2.id, h.realm.bot.id].sort((a, b) => a - b),
      direct_subgroup_ids: [sub, sys.moderators].sort((a, b) => a - b),
      is_system_group: false,
      date_created: expect.any(Number),
      creator_id: h.realm.member.id,
      deactivated: false,
      can_add_members_group: creator,
      can_join_group: sys.nobody,
      can_leave_group: sys.everyone,
      can_manage_group: creator,
      can_mention_group: sys.everyone,
      can_remove_members_group: sys.nobody,
    });
    expect(Math.abs((group!.date_created as number) - Date.now() / 1000)).toBeLessThan(60);
    const events = await h.eventsSince(since);
    expect(events).toEqual([expect.objectContaining({ type: 'user_group', users: everyoneIds, event: { type: 'user_group', op: 'add', group } })]);
  });

  it('takes the group settings it is given; an anonymous group of one subgroup is stored as that group', async () => {
    const id = await memberGroup({
      can_mention_group: j(sys.moderators),
      can_manage_group: j({ direct_members: [], direct_subgroups: [sys.administrators] }),
      can_join_group: j({ direct_members: [h.realm.member2.id], direct_subgroups: [sys.moderators] }),
      can_leave_group: j(sys.nobody),
      can_add_members_group: j(sys.members),
      can_remove_members_group: j(sys.moderators),
    });
    expect(await groupById(id)).toMatchObject({
      can_mention_group: sys.moderators,
      can_manage_group: sys.administrators,
      can_join_group: { direct_members: [h.realm.member2.id], direct_subgroups: [sys.moderators] },
      can_leave_group: sys.nobody,
      can_add_members_group: sys.members,
      can_remove_members_group: sys.moderators,
    });
  });

  it.each([
    [{ name: undefined }, "Missing 'name' argument"],
    [{ description: undefined }, "Missing 'description' argument"],
    [{ members: undefined }, "Missing 'members' argument"],
    [{ members: 'nope' }, 'Argument "members" is not valid JSON.'],
    [{ members: j(['x']) }, 'members[0] is not a number'],
    [{ name: '   ' }, "User group name can't be empty!"],
    [{ name: 'x'.repeat(101) }, 'User group name cannot exceed 100 characters.'],
    [{ name: '@team' }, "User group name cannot start with '@'."],
    [{ name: 'role:managers' }, "User group name cannot start with 'role:'."],
    [{ name: 'role:everyone' }, "User group name cannot start with 'role:'."],
    [{ name: 'user:1' }, "User group name cannot start with 'user:'."],
    [{ name: 'stream:1' }, "User group name cannot start with 'stream:'."],
    [{ name: 'channel:1' }, "User group name cannot start with 'channel:'."],
    [{ members: j([999999]) }, 'Invalid user ID: 999999'],
    [{ subgroups: j([999999]) }, 'Invalid user group ID: 999999'],
    [{ can_manage_group: j(999999) }, 'Invalid user group'],
    [{ can_manage_group: j({ direct_members: [999999], direct_subgroups: [] }) }, 'Invalid user ID: 999999'],
    [{ can_mention_group: j('admins') }, 'Invalid can_mention_group'],
  ])('refuses %j: %s, writing nothing', async (params, msg) => {
    const before = await groupCount();
    const body: Record<string, unknown> = { name: `bad ${counter++}`, description: 'd', members: j([h.realm.member.id]), ...params };
    for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
    const res = await h.as(h.realm.member).post('/user_groups/create').send(body);
    expect(res.body).toMatchObject({ result: 'error', msg });
    expect(await groupCount()).toBe(before);
  });

  it.each(['can_add_members_group', 'can_join_group', 'can_manage_group', 'can_remove_members_group'])('%s may not be everyone; no setting may be internet', async (setting) => {
    expect((await create(h.realm.member, { [setting]: j(sys.everyone) })).body.msg).toBe(`'${setting}' setting cannot be set to 'role:everyone' group.`);
    expect((await create(h.realm.member, { [setting]: j(sys.internet) })).body.msg).toBe(`'${setting}' setting cannot be set to 'role:internet' group.`);
    expect((await create(h.realm.member, { can_mention_group: j(sys.internet) })).body.msg).toBe("'can_mention_group' setting cannot be set to 'role:internet' group.");
  });

  it('refuses a name in use (system group names included) and a deactivated subgroup', async () => {
    await h.as(h.realm.member).post('/user_groups/create').send({ name: 'Taken', description: '', members: '[]' });
    const before = await groupCount();
    expect((await h.as(h.realm.admin).post('/user_groups/create').send({ name: 'Taken', description: '', members: '[]' })).body.msg).toBe("User group 'Taken' already exists.");
    const gone = await memberGroup();
    expect((await h.as(h.realm.member).post(`/user_groups/${gone}/deactivate`)).body.result).toBe('success');
    expect((await create(h.realm.member, { subgroups: j([gone]) })).body.msg).toBe('User group is deactivated.');
    expect((await create(h.realm.member, { can_mention_group: j(gone) })).body.msg).toBe('User group is deactivated.');
    expect(await groupCount()).toBe(before + 1);
  });
});

describe('PATCH /user_groups/{id}', () => {
  it('changes name, description and settings for those who manage the group, one update event each', async () => {
    const id = await memberGroup();
    const since = await h.lastEventId();
    const res = await h.as(h.realm.member).patch(`/user_groups/${id}`).send({ name: 'Renamed', description: 'New words', can_mention_group: j(sys.members) });
    expect(res.body.result).toBe('success');
    expect(await groupById(id)).toMatchObject({ name: 'Renamed', description: 'New words', can_mention_group: sys.members });
    const events = (await h.eventsSince(since)).map((e) => e.event);
    expect(events).toEqual([
      { type: 'user_group', op: 'update', group_id: id, data: { name: 'Renamed' } },
      { type: 'user_group', op: 'update', group_id: id, data: { description: 'New words' } },
      { type: 'user_group', op: 'update', group_id: id, data: { can_mention_group: sys.members } },
    ]);
    expect((await h.eventsSince(since))[0]!.users).toEqual(everyoneIds);
    // The same values again change nothing and say nothing.
    const again = await h.lastEventId();
    expect((await h.as(h.realm.member).patch(`/user_groups/${id}`).send({ name: 'Renamed', can_mention_group: j(sys.members) })).body.result).toBe('success');
    expect(await h.eventsSince(again)).toEqual([]);
  });

  it.each(ROLE_NAMES)('as the %s: only the group\'s managers and can_manage_all_groups (default: owners) may', async (name) => {
    const id = await memberGroup();
    const res = await h.as(userOf(h.realm, name)).patch(`/user_groups/${id}`).send({ description: `by ${name}` });
    // The member made it, so manages it; the owner holds can_manage_all_groups.
    if (name === 'owner' || name === 'member') expect(res.body.result).toBe('success');
    else expect(res.body).toMatchObject({ result: 'error', msg: 'Insufficient permission' });
  });

  it('follows can_manage_all_groups and the group\'s can_manage_group', async () => {
    const id = await memberGroup();
    await setRealm('can_manage_all_groups', sys.moderators);
    try {
      expect((await h.as(h.realm.moderator).patch(`/user_groups/${id}`).send({ description: 'mod' })).body.result).toBe('success');
      expect((await h.as(h.realm.member2).patch(`/user_groups/${id}`).send({ description: 'm2' })).body.msg).toBe('Insufficient permission');
    } finally {
      await setRealm('can_manage_all_groups', sys.owners);
    }
    expect((await h.as(h.realm.member).patch(`/user_groups/${id}`).send({ can_manage_group: j({ direct_members: [h.realm.member2.id], direct_subgroups: [] }) })).body.result).toBe('success');
    expect((await h.as(h.realm.member2).patch(`/user_groups/${id}`).send({ description: 'm2' })).body.result).toBe('success');
    expect((await h.as(h.realm.member).patch(`/user_groups/${id}`).send({ description: 'lost it' })).body.msg).toBe('Insufficient permission');
  });

  it('refuses system groups, unknown groups, empty requests, bad names and a stale old value', async () => {
    const id = await memberGroup();
    const other = (await h.as(h.realm.member).post('/user_groups/create').send({ name: 'Other name', description: '', members: '[]' })).body.group_id as number;
    expect(other).toEqual(expect.any(Number));
    const patch = (gid: number, body: Record<string, string>) => h.as(h.realm.owner).patch(`/user_groups/${gid}`).send(body);
    expect((await patch(sys.members, { description: 'x' })).body.msg).toBe('Insufficient permission');
    expect((await patch(999999, { description: 'x' })).body.msg).toBe('Invalid user group');
    expect((await patch(id, {})).body.msg).toBe('No new data supplied');
    expect((await patch(id, { name: 'Other name' })).body.msg).toBe("User group 'Other name' already exists.");
    expect((await patch(id, { name: 'role:x' })).body.msg).toBe("User group name cannot start with 'role:'.");
    expect((await patch(id, { name: '' })).body.msg).toBe("User group name can't be empty!");
    expect((await patch(id, { can_manage_group: j(sys.everyone) })).body.msg).toBe("'can_manage_group' setting cannot be set to 'role:everyone' group.");
    expect((await patch(id, { can_mention_group: j({ new: sys.members, old: sys.moderators }) })).body.msg).toBe("'old' value does not match the expected value.");
    expect((await patch(id, { can_mention_group: j({ new: sys.members, old: sys.everyone }) })).body.result).toBe('success');
    // A refused request changes nothing, not even the parts before the error.
    expect((await patch(id, { description: 'half', can_join_group: j(999999) })).body.msg).toBe('Invalid user group');
    expect(await groupById(id)).toMatchObject({ description: 'a group', can_mention_group: sys.members });
  });
});

describe('POST /user_groups/{id}/members', () => {
  const members = (id: number, user: SeededUser, body: Record<string, unknown>) =>
    h.as(user).post(`/user_groups/${id}/members`).send(Object.fromEntries(Object.entries(body).map(([k, v]) => [k, j(v)])));

  it('adds and removes members, with add_members and remove_members events', async () => {
    const id = await memberGroup();
    const since = await h.lastEventId();
    expect((await members(id, h.realm.member, { add: [h.realm.member2.id, h.realm.guest.id] })).body.result).toBe('success');
    expect((await members(id, h.realm.member, { delete: [h.realm.guest.id] })).body.result).toBe('success');
    expect((await groupById(id))!.members).toEqual([h.realm.member.id, h.realm.member2.id]);
    const events = await h.eventsSince(since);
    expect(events.map((e) => e.event)).toEqual([
      { type: 'user_group', op: 'add_members', group_id: id, user_ids: [h.realm.member2.id, h.realm.guest.id] },
      { type: 'user_group', op: 'remove_members', group_id: id, user_ids: [h.realm.guest.id] },
    ]);
    expect(events.every((e) => j(e.users) === j(everyoneIds))).toBe(true);
  });

  it('lets people join by can_join_group and leave by can_leave_group', async () => {
    const id = await memberGroup();
    expect((await members(id, h.realm.member2, { add: [h.realm.member2.id] })).body.msg).toBe('Insufficient permission');
    expect((await members(id, h.realm.member, { can_join_group: sys.members } as never)).body.msg).toBe(
      'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".',
    );
    await h.as(h.realm.member).patch(`/user_groups/${id}`).send({ can_join_group: j(sys.members) });
    expect((await members(id, h.realm.member2, { add: [h.realm.member2.id] })).body.result).toBe('success');
    expect((await members(id, h.realm.guest, { add: [h.realm.guest.id] })).body.msg).toBe('Insufficient permission');
    // Joining is for oneself only.
    expect((await members(id, h.realm.member2, { add: [h.realm.moderator.id] })).body.msg).toBe('Insufficient permission');
    expect((await members(id, h.realm.member2, { delete: [h.realm.member2.id] })).body.result).toBe('success');
    await h.as(h.realm.member).patch(`/user_groups/${id}`).send({ can_leave_group: j(sys.nobody) });
    await members(id, h.realm.member, { add: [h.realm.member2.id] });
    expect((await members(id, h.realm.member2, { delete: [h.realm.member2.id] })).body.msg).toBe('Insufficient permission');
  });

  it.each(ROLE_NAMES)('as the %s: can_add_members_group and can_remove_members_group decide about others', async (name) => {
    const id = await memberGroup({ can_add_members_group: j(sys.moderators), can_remove_members_group: j(sys.administrators) });
    const actor = userOf(h.realm, name);
    const add = await members(id, actor, { add: [h.realm.member2.id] });
    // The member made the group, and so manages it: that allows everything.
    const mayAdd = ['owner', 'administrator', 'moderator', 'member'].includes(name);
    expect(add.body.result).toBe(mayAdd ? 'success' : 'error');
    if (!mayAdd) {
      expect(add.body.msg).toBe('Insufficient permission');
      await members(id, h.realm.member, { add: [h.realm.member2.id] });
    }
    const remove = await members(id, actor, { delete: [h.realm.member2.id] });
    const mayRemove = ['owner', 'administrator', 'member'].includes(name);
    expect(remove.body.result).toBe(mayRemove ? 'success' : 'error');
    if (!mayRemove) expect(remove.body.msg).toBe('Insufficient permission');
  });

  it('refuses bad members, system groups, and keeps a refused request whole', async () => {
    const id = await memberGroup();
    expect((await members(id, h.realm.member, {})).body.msg).toBe('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
    expect((await members(id, h.realm.member, { add: [h.realm.member.id] })).body.msg).toBe(`User ${h.realm.member.id} is already a member of this group`);
    expect((await members(id, h.realm.member, { add: [999999] })).body.msg).toBe('Invalid user ID: 999999');
    expect((await members(id, h.realm.member, { delete: [h.realm.owner.id] })).body.msg).toBe(`There is no member '${h.realm.owner.id}' in this user group`);
    expect((await members(999999, h.realm.member, { add: [h.realm.owner.id] })).body.msg).toBe('Invalid user group');
    expect((await members(sys.members, h.realm.owner, { add: [h.realm.guest.id] })).body.msg).toBe('Insufficient permission');
    expect((await h.as(h.realm.member).post(`/user_groups/${id}/members`).send({ add: 'x' })).body.msg).toBe('Argument "add" is not valid JSON.');
    const since = await h.lastEventId();
    expect((await members(id, h.realm.member, { add: [h.realm.member2.id], delete: [h.realm.owner.id] })).body.result).toBe('error');
    expect((await groupById(id))!.members).toEqual([h.realm.member.id]);
    expect(await h.eventsSince(since)).toEqual([]);
  });

  it('changes subgroups too (add_subgroups, delete_subgroups)', async () => {
    const id = await memberGroup();
    const sub = await memberGroup();
    const since = await h.lastEventId();
    expect((await members(id, h.realm.member, { add: [h.realm.member2.id], add_subgroups: [sub] })).body.result).toBe('success');
    expect(await groupById(id)).toMatchObject({ members: [h.realm.member.id, h.realm.member2.id], direct_subgroup_ids: [sub] });
    expect((await members(id, h.realm.member, { delete_subgroups: [sub] })).body.result).toBe('success');
    expect((await h.eventsSince(since)).map((e) => e.event.op)).toEqual(['add_members', 'add_subgroups', 'remove_subgroups']);
  });
});

describe('POST /user_groups/{id}/subgroups', () => {
  const subgroups = (id: number, user: SeededUser, body: Record<string, number[]>) =>
    h.as(user).post(`/user_groups/${id}/subgroups`).send(Object.fromEntries(Object.entries(body).map(([k, v]) => [k, j(v)])));

  it('adds and removes subgroups with events; members follow through subgroups', async () => {
    const top = await memberGroup();
    const sub = await memberGroup({ members: j([h.realm.member2.id]) });
    const since = await h.lastEventId();
    expect((await subgroups(top, h.realm.member, { add: [sub, sys.moderators] })).body).toMatchObject({ result: 'success' });
    const all = (await h.as(h.realm.member).get(`/user_groups/${top}/members`)).body.members as number[];
    expect(all).toEqual([h.realm.owner.id, h.realm.admin.id, h.realm.moderator.id, h.realm.member.id, h.realm.member2.id].sort((a, b) => a - b));
    expect((await subgroups(top, h.realm.member, { delete: [sys.moderators] })).body.result).toBe('success');
    expect((await groupById(top))!.direct_subgroup_ids).toEqual([sub]);
    expect((await h.eventsSince(since)).map((e) => e.event)).toEqual([
      { type: 'user_group', op: 'add_subgroups', group_id: top, direct_subgroup_ids: [sub, sys.moderators] },
      { type: 'user_group', op: 'remove_subgroups', group_id: top, direct_subgroup_ids: [sys.moderators] },
    ]);
  });

  it('refuses cycles, repeats, strangers, and those who do not manage the group', async () => {
    const a = await memberGroup();
    const b = await memberGroup();
    const c = await memberGroup();
    expect((await subgroups(a, h.realm.member, { add: [b] })).body.result).toBe('success');
    expect((await subgroups(b, h.realm.member, { add: [c] })).body.result).toBe('success');
    expect((await subgroups(c, h.realm.member, { add: [a] })).body.msg).toBe(`User group ${c} is already a subgroup of one of the passed subgroups.`);
    expect((await subgroups(a, h.realm.member, { add: [a] })).body.msg).toBe(`User group ${a} is already a subgroup of one of the passed subgroups.`);
    expect((await subgroups(a, h.realm.member, { add: [b] })).body.msg).toBe(`User group ${b} is already a subgroup of this group.`);
    expect((await subgroups(a, h.realm.member, { delete: [c] })).body.msg).toBe(`User group ${c} is not a subgroup of this group.`);
    expect((await subgroups(a, h.realm.member, { add: [999999] })).body.msg).toBe('Invalid user group ID: 999999');
    expect((await subgroups(a, h.realm.member, { delete: [999999] })).body.msg).toBe('Invalid user group ID: 999999');
    expect((await subgroups(a, h.realm.member, {})).body.msg).toBe('Nothing to do. Specify at least one of "add" or "delete".');
    expect((await subgroups(a, h.realm.member2, { add: [c] })).body.msg).toBe('Insufficient permission');
    expect((await subgroups(sys.moderators, h.realm.owner, { add: [c] })).body.msg).toBe('Insufficient permission');
    // can_add_members_group is about people: it does not let anyone change subgroups.
    await h.as(h.realm.member).patch(`/user_groups/${a}`).send({ can_add_members_group: j(sys.members) });
    expect((await subgroups(a, h.realm.member2, { add: [c] })).body.msg).toBe('Insufficient permission');
    expect((await groupById(a))!.direct_subgroup_ids).toEqual([b]);
  });
});

describe('deactivation', () => {
  it('deactivates an unused group: update for clients that know deactivated groups, remove for the others', async () => {
    const id = await memberGroup();
    expect((await h.as(h.realm.member2).post(`/user_groups/${id}/deactivate`)).body.msg).toBe('Insufficient permission');
    const since = await h.lastEventId();
    expect((await h.as(h.realm.member).post(`/user_groups/${id}/deactivate`)).body.result).toBe('success');
    const [event] = await h.eventsSince(since);
    expect(event).toMatchObject({
      type: 'user_group',
      users: everyoneIds,
      event: { type: 'user_group', op: 'update', group_id: id, data: { deactivated: true } },
      capability: 'include_deactivated_groups',
      fallback_event: { type: 'user_group', op: 'remove', group_id: id },
    });
    expect(await groupById(id, false)).toBeUndefined();
    expect(await groupById(id, true)).toMatchObject({ deactivated: true });
    expect((await h.as(h.realm.member).post(`/user_groups/${id}/members`).send({ add: j([h.realm.member2.id]) })).body.msg).toBe('User group is deactivated.');
    expect((await h.as(h.realm.member).post(`/user_groups/${id}/deactivate`)).body.msg).toBe('User group is deactivated.');
    expect((await h.as(h.realm.member).post(`/user_groups/${sys.members}/deactivate`)).body.msg).toBe('Insufficient permission');
    // PATCH deactivated=false brings it back, told as an add to clients that never saw it go.
    const back = await h.lastEventId();
    expect((await h.as(h.realm.member).patch(`/user_groups/${id}`).send({ deactivated: 'false' })).body.result).toBe('success');
    const [reactivated] = await h.eventsSince(back);
    expect(reactivated).toMatchObject({
      event: { op: 'update', group_id: id, data: { deactivated: false } },
      fallback_event: { type: 'user_group', op: 'add', group: await groupById(id) },
    });
    expect((await h.as(h.realm.member).patch(`/user_groups/${id}`).send({ deactivated: 'true' })).body.result).toBe('success');
    expect(await groupById(id)).toMatchObject({ deactivated: true });
  });

  it('refuses a group in use: as a subgroup, in a group setting, a channel setting or a realm setting', async () => {
    const used = await memberGroup();
    const parent = await memberGroup({ subgroups: j([used]), can_mention_group: j({ direct_members: [], direct_subgroups: [used, sys.moderators] }) });
    const channel = await h.db.stream.create({ data: { realmId: h.realm.realmId, name: 'grouped', nameKey: 'grouped', canSendMessageGroup: used } });
    await setRealm('can_create_groups', { direct_members: [], direct_subgroups: [sys.members, used] });
    try {
      const res = await h.as(h.realm.member).post(`/user_groups/${used}/deactivate`);
      expect(res.body).toEqual({
        result: 'error',
        code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
        msg: 'Cannot deactivate user group in use.',
        objections: [
          { type: 'subgroup', supergroup_ids: [parent] },
          { type: 'channel', channel_id: channel.id, settings: ['can_send_message_group'] },
          { type: 'user_group', group_id: parent, settings: ['can_mention_group'] },
          { type: 'realm', settings: ['can_create_groups'] },
        ],
      });
      expect(await groupById(used)).toMatchObject({ deactivated: false });
    } finally {
      await setRealm('can_create_groups', sys.members);
      await h.db.stream.delete({ where: { id: channel.id } });
    }
  });
});

describe("register's realm_user_groups", () => {
  let events: ServiceProcess;
  beforeAll(async () => {
    events = await startService('events', h.env.env);
  }, 60_000);
  afterAll(() => events?.stop());

  const register = (user: SeededUser, capabilities: Record<string, boolean> = {}) =>
    request(events.url).post('/api/v1/register').set(identityHeaders(h.realm.realmId, user)).type('form')
      .send({ event_types: j(['user_group']), client_capabilities: j(capabilities) });

  it('gives a created group with every field, as GET /user_groups does; deactivated ones only to clients that ask', async () => {
    const id = await memberGroup({ subgroups: j([sys.moderators]), can_mention_group: j({ direct_members: [h.realm.member2.id], direct_subgroups: [] }) });
    const gone = await memberGroup();
    await h.as(h.realm.member).post(`/user_groups/${gone}/deactivate`);
    const res = await register(h.realm.guest);
    expect(res.body.result).toBe('success');
    const listed = (await h.as(h.realm.guest).get('/user_groups')).body.user_groups as Array<{ id: number }>;
    expect(res.body.realm_user_groups).toEqual(listed);
    expect((res.body.realm_user_groups as Array<{ id: number }>).find((g) => g.id === id)).toEqual(await groupById(id));
    expect((res.body.realm_user_groups as Array<{ id: number }>).some((g) => g.id === gone)).toBe(false);
    const withDeactivated = await register(h.realm.member, { include_deactivated_groups: true });
    expect((withDeactivated.body.realm_user_groups as Array<{ id: number }>).find((g) => g.id === gone)).toEqual(await groupById(gone));
  });
});
