import { ROLE_NAMES, startHarness, userOf, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('PATCH /realm', () => {
  it.each(ROLE_NAMES)('name and description as the %s', async (name) => {
    const before = await h.lastEventId();
    const res = await h.as(userOf(h.realm, name)).patch('/realm').send({ name: `Org by ${name}`, description: `About ${name}` });
    const realm = await h.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
    if (name === 'owner' || name === 'administrator') {
      expect(res.body).toEqual({ result: 'success', msg: '', name: `Org by ${name}`, description: `About ${name}` });
      expect(realm.name).toBe(`Org by ${name}`);
      const events = await h.eventsSince(before);
      expect(events.map((e) => e.event)).toEqual([
        { type: 'realm', op: 'update', property: 'name', value: `Org by ${name}` },
        { type: 'realm', op: 'update', property: 'description', value: `About ${name}` },
      ]);
      const active = await h.db.user.count({ where: { realmId: h.realm.realmId, isActive: true } });
      expect((events[0]!.users as number[]).length).toBe(active);
      // server_settings reflects the change.
      const settings = (await h.as().get('/server_settings')).body;
      expect(settings).toMatchObject({ realm_name: `Org by ${name}`, realm_description: `<p>About ${name}</p>` });
    } else {
      expect(res.body).toEqual({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
      expect(await h.eventsSince(before)).toEqual([]);
    }
  });

  it('changes policies other services rely on, and group settings', async () => {
    const moderators = await h.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name: 'role:moderators' } });
    const before = await h.lastEventId();
    const res = await h.as(h.realm.admin).patch('/realm').send({
      allow_message_editing: 'false',
      message_content_edit_limit_seconds: '"unlimited"',
      topics_policy: 'disable_empty_topic',
      can_delete_any_message_group: JSON.stringify({ new: moderators.id }),
      can_mention_many_users_group: JSON.stringify({ new: { direct_members: [h.realm.member.id], direct_subgroups: [moderators.id] } }),
    });
    expect(res.body.result).toBe('success');
    const realm = await h.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
    expect(realm.topicsPolicy).toBe('disable_empty_topic');
    expect(realm.settings).toMatchObject({
      allow_message_editing: false,
      message_content_edit_limit_seconds: null,
      can_delete_any_message_group: moderators.id,
      can_mention_many_users_group: { direct_members: [h.realm.member.id], direct_subgroups: [moderators.id] },
    });
    const dict = (await h.eventsSince(before)).find((e) => e.event.op === 'update_dict')!;
    expect(dict.event).toEqual({
      type: 'realm', op: 'update_dict', property: 'default',
      data: { can_delete_any_message_group: moderators.id, can_mention_many_users_group: { direct_members: [h.realm.member.id], direct_subgroups: [moderators.id] } },
    });
  });

  it('keeps the sensitive policies for owners', async () => {
    const admins = await h.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name: 'role:administrators' } });
    const body = { create_multiuse_invite_group: JSON.stringify({ new: admins.id }), invite_required: 'false' };
    expect((await h.as(h.realm.admin).patch('/realm').send(body)).body).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
    expect((await h.as(h.realm.owner).patch('/realm').send(body)).body.result).toBe('success');
  });

  it('refuses bad values and writes nothing', async () => {
    const admin = h.as(h.realm.admin);
    expect((await admin.patch('/realm').send({ name: ' ' })).body.msg).toBe("Organization name can't be empty.");
    expect((await admin.patch('/realm').send({ name: 'n'.repeat(41) })).body.msg).toBe('name is too long (limit: 40 characters)');
    expect((await admin.patch('/realm').send({ description: 'd'.repeat(1001) })).body.msg).toBe('description is too long (limit: 1000 characters)');
    expect((await admin.patch('/realm').send({ topics_policy: 'anything' })).body.msg).toBe('Invalid topics_policy');
    expect((await admin.patch('/realm').send({ allow_message_editing: 'perhaps' })).body.msg).toBe('allow_message_editing is not a boolean');
    expect((await admin.patch('/realm').send({ waiting_period_threshold: 'x' })).body.code).toBe('UNAUTHORIZED_PRINCIPAL');
    const before = await h.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
    const bad = await admin.patch('/realm').send({ name: 'Should not stick', can_delete_any_message_group: JSON.stringify({ new: 999999 }) });
    expect(bad.body.msg).toBe('Invalid user group');
    expect((await h.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } })).name).toBe(before.name);
  });
});
