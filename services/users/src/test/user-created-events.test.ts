import { startHarness, type Harness } from './support';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

async function addEvents(since: bigint) {
  return (await h.eventsSince(since)).filter((e) => e.type === 'realm_user' && e.event.op === 'add');
}

it('announces a new account to everyone, delivery_email as each viewer may see it', async () => {
  await h.as(h.realm.admin).patch('/realm/user_settings_defaults').send({ email_address_visibility: '3' }).expect(200);
  const since = await h.lastEventId();
  const res = await h.as(h.realm.admin).post('/users').send({ email: 'rosencrantz@chat.test', password: 'tall-quiet-harbor-42', full_name: 'Rosencrantz' }).expect(200);
  const events = await addEvents(since);
  const { owner, admin, moderator, member, member2, guest, bot } = h.realm;
  const seeing = events.find((e) => (e.users as number[]).includes(admin.id))!;
  const hidden = events.find((e) => (e.users as number[]).includes(member.id))!;
  expect(events).toHaveLength(2);
  expect([...(seeing.users as number[])].sort()).toEqual([owner.id, admin.id, res.body.user_id].sort());
  expect([...(hidden.users as number[])].sort()).toEqual([moderator.id, member.id, member2.id, guest.id, bot.id].sort());
  expect(seeing.event.person).toMatchObject({
    user_id: res.body.user_id, delivery_email: 'rosencrantz@chat.test', email: expect.stringMatching(/^user\d+@/), full_name: 'Rosencrantz',
    is_bot: false, role: 400, avatar_url: expect.any(String), profile_data: {}, is_imported_stub: false, is_active: true,
  });
  expect(hidden.event.person).toMatchObject({ user_id: res.body.user_id, delivery_email: null });
  // The role's group, then full members: the realm's waiting period is 0 days.
  const [joined, full, ...others] = (await h.eventsSince(since)).filter((e) => e.type === 'user_group');
  expect(others).toEqual([]);
  const members = await h.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name: 'role:members' } });
  const fullMembers = await h.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name: 'role:fullmembers' } });
  expect(joined!.event).toEqual({ type: 'user_group', op: 'add_members', group_id: members.id, user_ids: [res.body.user_id] });
  expect(full!.event).toEqual({ type: 'user_group', op: 'add_members', group_id: fullMembers.id, user_ids: [res.body.user_id] });
  expect(joined!.users).toEqual(expect.arrayContaining([guest.id, owner.id, res.body.user_id]));
  await h.as(h.realm.admin).patch('/realm/user_settings_defaults').send({ email_address_visibility: '1' }).expect(200);
});

it('leaves out guests who may not see everyone, and announces bots to all with their owner', async () => {
  const members = await h.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name: 'role:members' } });
  const everyone = await h.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name: 'role:everyone' } });
  await h.as(h.realm.owner).patch('/realm').send({ can_access_all_users_group: String(members.id) }).expect(200);
  try {
    let since = await h.lastEventId();
    const person = await h.as(h.realm.admin).post('/users').send({ email: 'guildenstern@chat.test', password: 'tall-quiet-harbor-42', full_name: 'Guildenstern' }).expect(200);
    const [added, ...more] = await addEvents(since);
    expect(more).toEqual([]);
    expect(added!.users).not.toContain(h.realm.guest.id);
    expect(added!.users).toContain(h.realm.member.id);
    expect(added!.event.person).toMatchObject({ user_id: person.body.user_id, delivery_email: 'guildenstern@chat.test' });

    since = await h.lastEventId();
    const bot = await h.as(h.realm.member).post('/bots').send({ full_name: 'Ghost', short_name: 'ghost' }).expect(200);
    const [botAdded] = await addEvents(since);
    expect(botAdded!.users).toContain(h.realm.guest.id);
    expect(botAdded!.event.person).toMatchObject({ user_id: bot.body.user_id, is_bot: true, bot_owner_id: h.realm.member.id, bot_type: 1 });
    expect(botAdded!.event.person).not.toHaveProperty('profile_data');
  } finally {
    await h.as(h.realm.owner).patch('/realm').send({ can_access_all_users_group: String(everyone.id) }).expect(200);
  }
});
