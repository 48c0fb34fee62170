/**
 * Reads of people when the realm narrows can_access_all_users_group: a guest outside it sees
 * only bots, themselves and the people they share a channel or a direct conversation with;
 * everyone else is a placeholder in lists and `Insufficient permission` when named.
 */
import { ROLE } from '@chat/contracts';
import type { SeededUser } from '@chat/testing';
import { makeUser, ROLE_NAMES, startHarness, userOf, type Harness } from './support';

let h: Harness;
let everyoneGroup: number;
let membersGroup: number;
// `hidden` shares nothing with the guest; `channelMate` a channel; `dmPartner` a direct conversation.
let hidden: SeededUser;
let channelMate: SeededUser;
let dmPartner: SeededUser;
let formerMate: SeededUser;
let fieldId: number;

beforeAll(async () => {
  h = await startHarness();
  const group = (name: string) => h.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name } });
  everyoneGroup = (await group('role:everyone')).id;
  membersGroup = (await group('role:members')).id;
  hidden = await makeUser(h, ROLE.MEMBER, { name: 'Rosencrantz Hidden' });
  channelMate = await makeUser(h, ROLE.MEMBER, { name: 'Horatio Mate' });
  dmPartner = await makeUser(h, ROLE.MEMBER, { name: 'Ophelia Partner' });
  formerMate = await makeUser(h, ROLE.MEMBER, { name: 'Laertes Former' });
  const stream = await h.db.stream.create({ data: { realmId: h.realm.realmId, name: 'Guests welcome', nameKey: 'guests welcome' } });
  await h.db.subscription.createMany({
    data: [
      { userId: h.realm.guest.id, streamId: stream.id },
      { userId: channelMate.id, streamId: stream.id },
      // Left the channel: sharing it no longer counts.
      { userId: formerMate.id, streamId: stream.id, active: false },
    ],
  });
  const pair = [h.realm.guest.id, dmPartner.id].sort((a, b) => a - b);
  await h.db.directConversation.create({ data: { realmId: h.realm.realmId, memberKey: pair.join(','), memberIds: pair } });
  fieldId = (await h.as(h.realm.admin).post('/realm/profile_fields').send({ name: 'Desk', field_type: 1 }).expect(200)).body.id;
  for (const person of [hidden, channelMate]) {
    await h.as(h.realm.admin).patch(`/users/${person.id}`).send({ profile_data: JSON.stringify([{ id: fieldId, value: `desk of ${person.fullName}` }]) }).expect(200);
  }
  await h.db.userStatus.create({ data: { userId: hidden.id, realmId: h.realm.realmId, statusText: 'away in Wittenberg' } });
});
afterAll(() => h?.close());

const restrict = (value: unknown) => h.as(h.realm.owner).patch('/realm').send({ can_access_all_users_group: JSON.stringify(value) }).expect(200);

type Person = Record<string, unknown> & { user_id: number };
const byId = (members: Person[]) => new Map(members.map((m) => [m.user_id, m]));

const placeholder = (id: number) => ({
  user_id: id,
  delivery_email: null,
  email: `user${id}@chat.test`,
  full_name: 'Unknown user',
  date_joined: '1970-01-01T00:00:00+00:00',
  is_active: true,
  is_owner: false,
  is_admin: false,
  is_guest: false,
  is_bot: false,
  bot_type: null,
  bot_owner_id: null,
  role: ROLE.MEMBER,
  timezone: '',
  avatar_url: expect.stringMatching(/^https:\/\//),
  avatar_version: 1,
  is_imported_stub: false,
  profile_data: {},
});

describe('a guest outside can_access_all_users_group', () => {
  beforeAll(() => restrict(membersGroup));
  afterAll(() => restrict(everyoneGroup));

  it('GET /users: real objects for bots, themselves and the people they share something with, placeholders for the rest', async () => {
    const res = await h.as(h.realm.guest).get('/users?include_custom_profile_fields=true').expect(200);
    const members = res.body.members as Person[];
    const people = byId(members);
    // Every account is still listed (ids only), in id order.
    const all = await h.db.user.findMany({ where: { realmId: h.realm.realmId }, select: { id: true }, orderBy: { id: 'asc' } });
    expect(members.map((m) => m.user_id)).toEqual(all.map((u) => u.id));
    expect(people.get(h.realm.guest.id)).toMatchObject({ full_name: h.realm.guest.fullName, is_guest: true });
    expect(people.get(h.realm.bot.id)).toMatchObject({ full_name: h.realm.bot.fullName, is_bot: true, bot_owner_id: h.realm.member.id });
    expect(people.get(channelMate.id)).toMatchObject({ full_name: 'Horatio Mate', profile_data: { [fieldId]: { value: 'desk of Horatio Mate' } } });
    expect(people.get(dmPartner.id)).toMatchObject({ full_name: 'Ophelia Partner' });
    for (const id of [hidden.id, formerMate.id, h.realm.owner.id, h.realm.admin.id, h.realm.member.id]) {
      expect(people.get(id)).toEqual(placeholder(id));
    }
    // Nothing about the hidden person leaks anywhere in the answer.
    const text = JSON.stringify(res.body);
    for (const secret of ['Rosencrantz', hidden.email, 'desk of Rosencrantz', h.realm.owner.fullName]) expect(text).not.toContain(secret);
  });

  it('GET /users?user_ids: the same rule for the ids asked for; unknown ids are still an error', async () => {
    const res = await h.as(h.realm.guest).get(`/users?user_ids=${JSON.stringify([hidden.id, channelMate.id])}`).expect(200);
    expect(res.body.members).toEqual([placeholder(hidden.id), expect.objectContaining({ user_id: channelMate.id, full_name: 'Horatio Mate' })]);
    const bad = await h.as(h.realm.guest).get('/users?user_ids=[999999]');
    expect(bad.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid user ID' });
  });

  it('GET /users/{user_id}: Insufficient permission for someone they may not access', async () => {
    const res = await h.as(h.realm.guest).get(`/users/${hidden.id}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    expect((await h.as(h.realm.guest).get(`/users/${h.realm.owner.id}`)).body.msg).toBe('Insufficient permission');
    for (const ok of [channelMate, dmPartner, h.realm.bot, h.realm.guest]) {
      const seen = await h.as(h.realm.guest).get(`/users/${ok.id}`).expect(200);
      expect(seen.body.user).toMatchObject({ user_id: ok.id, full_name: ok.fullName });
    }
    // A missing id is still "No such user": only existing, inaccessible people are refused.
    expect((await h.as(h.realm.guest).get('/users/999999')).body.msg).toBe('No such user');
  });

  it('GET /users/{email}: the same answer by address', async () => {
    const res = await h.as(h.realm.guest).get(`/users/${encodeURIComponent(hidden.email)}`);
    expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    const seen = await h.as(h.realm.guest).get(`/users/${encodeURIComponent(channelMate.email)}`).expect(200);
    expect(seen.body.user).toMatchObject({ user_id: channelMate.id });
  });

  it('GET /users/{user_id}/status and /presence: Insufficient permission for someone they may not access', async () => {
    const status = await h.as(h.realm.guest).get(`/users/${hidden.id}/status`);
    expect(status.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    expect((await h.as(h.realm.guest).get(`/users/${channelMate.id}/status`).expect(200)).body.status).toEqual({});
    const presence = await h.as(h.realm.guest).get(`/users/${hidden.id}/presence`);
    expect(presence.body.msg).toBe('Insufficient permission');
  });

  it('GET /users/me still answers with their own full profile', async () => {
    const me = await h.as(h.realm.guest).get('/users/me').expect(200);
    expect(me.body).toMatchObject({ user_id: h.realm.guest.id, full_name: h.realm.guest.fullName, is_guest: true });
  });

  it.each(ROLE_NAMES.filter((n) => n !== 'guest'))('leaves the %s unaffected', async (name) => {
    const viewer = userOf(h.realm, name);
    const list = byId((await h.as(viewer).get('/users').expect(200)).body.members);
    expect(list.get(hidden.id)).toMatchObject({ full_name: 'Rosencrantz Hidden' });
    expect(list.get(h.realm.guest.id)).toMatchObject({ full_name: h.realm.guest.fullName });
    expect((await h.as(viewer).get(`/users/${hidden.id}`).expect(200)).body.user.full_name).toBe('Rosencrantz Hidden');
    expect((await h.as(viewer).get(`/users/${hidden.id}/status`).expect(200)).body.status).toEqual({ status_text: 'away in Wittenberg' });
  });

  it('sees everyone once the group includes them, directly or through a subgroup', async () => {
    const guestGroup = await h.db.userGroup.create({ data: { realmId: h.realm.realmId, name: 'Trusted guests', description: '' } });
    await h.db.userGroupMember.create({ data: { groupId: guestGroup.id, userId: h.realm.guest.id } });
    // The API takes only "everyone" or "members" here, as the family's does; a value stored
    // before that limit (written directly below) is still honoured.
    const refused = await h.as(h.realm.owner).patch('/realm').send({ can_access_all_users_group: JSON.stringify({ direct_members: [h.realm.guest.id], direct_subgroups: [membersGroup] }) });
    expect(refused.body.msg).toBe("'can_access_all_users_group' must be a system user group.");
    const store = async (value: unknown) => {
      const realm = await h.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
      await h.db.realm.update({ where: { id: realm.id }, data: { settings: { ...(realm.settings as object), can_access_all_users_group: value as object } } });
    };
    try {
      for (const value of [{ direct_members: [h.realm.guest.id], direct_subgroups: [membersGroup] }, { direct_members: [], direct_subgroups: [membersGroup, guestGroup.id] }]) {
        await store(value);
        const list = byId((await h.as(h.realm.guest).get('/users').expect(200)).body.members);
        expect(list.get(hidden.id)).toMatchObject({ full_name: 'Rosencrantz Hidden' });
        await h.as(h.realm.guest).get(`/users/${hidden.id}`).expect(200);
      }
    } finally {
      await restrict(membersGroup);
      await h.db.userGroup.delete({ where: { id: guestGroup.id } });
    }
  });
});

describe('a guest in a realm that lets guests see everyone', () => {
  it('gets every real User object and may read anyone', async () => {
    const list = byId((await h.as(h.realm.guest).get('/users').expect(200)).body.members);
    expect(list.get(hidden.id)).toMatchObject({ full_name: 'Rosencrantz Hidden', email: hidden.email });
    expect(list.get(h.realm.owner.id)).toMatchObject({ full_name: h.realm.owner.fullName, is_owner: true });
    expect((await h.as(h.realm.guest).get(`/users/${hidden.id}`).expect(200)).body.user.full_name).toBe('Rosencrantz Hidden');
    expect((await h.as(h.realm.guest).get(`/users/${hidden.id}/status`).expect(200)).body.status).toEqual({ status_text: 'away in Wittenberg' });
  });
});
