import request from 'supertest';
import { ROLE } from '@chat/contracts';
import { identityHeaders } from '@chat/testing';
import { ROLE_NAMES, startHarness, userOf, type Harness } from './support';

let h: Harness;
let publicStream: number;
let privateStream: number;
let defaultStream: number;
let group: number;

beforeAll(async () => {
  h = await startHarness();
  const mk = async (name: string, inviteOnly: boolean, members: number[]) => {
    const s = await h.db.stream.create({ data: { realmId: h.realm.realmId, name, nameKey: name, inviteOnly } });
    for (const userId of members) await h.db.subscription.create({ data: { userId, streamId: s.id } });
    return s.id;
  };
  publicStream = await mk('general', false, [h.realm.owner.id, h.realm.member.id]);
  privateStream = await mk('secret', true, [h.realm.owner.id]);
  defaultStream = await mk('welcome', false, []);
  await h.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: { default_stream_ids: [defaultStream] } } });
  group = (await h.db.userGroup.create({ data: { realmId: h.realm.realmId, name: 'hamletcrew', creatorId: h.realm.owner.id } })).id;
});
afterAll(() => h?.close());

function keyOf(link: string): string {
  return /\/join\/([a-z0-9]+)\/$/.exec(link)![1]!;
}

function join(key: string, body: Record<string, string>, realmId = h.realm.realmId) {
  return request(h.app.url).post(`/join/${key}/`).set(identityHeaders(realmId)).set('Accept', 'application/json').type('form').send(body);
}

describe('POST /invites/multiuse', () => {
  it.each(ROLE_NAMES)('as the %s (default policy: administrators)', async (name) => {
    const res = await h.as(userOf(h.realm, name)).post('/invites/multiuse');
    if (name === 'owner' || name === 'administrator') {
      expect(res.body).toMatchObject({ result: 'success', invite_link: expect.stringMatching(/^http:\/\/chat\.test\/join\/[a-z0-9]{24}\/$/) });
      const invite = await h.db.invite.findUniqueOrThrow({ where: { key: keyOf(res.body.invite_link) } });
      const minutes = (invite.expiresAt!.getTime() - invite.dateCreated.getTime()) / 60000;
      expect(Math.round(minutes)).toBe(14400);
      expect(invite.inviteAs).toBe(ROLE.MEMBER);
    } else if (name === 'guest') {
      expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Not allowed for guest users' });
    } else if (name === 'bot') {
      expect(res.body.msg).toBe('This endpoint does not accept bot requests.');
    } else {
      expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    }
  });

  it('lets members invite when the realm allows it, but not above their own role', async () => {
    const members = await h.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name: 'role:members' } });
    await h.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: { default_stream_ids: [defaultStream], create_multiuse_invite_group: members.id } } });
    const me = h.as(h.realm.member);
    expect((await me.post('/invites/multiuse').send({ invite_as: ROLE.GUEST })).body.result).toBe('success');
    expect((await me.post('/invites/multiuse').send({ invite_as: ROLE.MEMBER })).body.result).toBe('success');
    expect((await me.post('/invites/multiuse').send({ invite_as: ROLE.MODERATOR })).body).toEqual({
      result: 'error',
      code: 'UNAUTHORIZED_PRINCIPAL',
      msg: 'Must be an organization administrator',
    });
    expect((await h.as(h.realm.moderator).post('/invites/multiuse').send({ invite_as: ROLE.MODERATOR })).body.result).toBe('success');
    expect((await h.as(h.realm.admin).post('/invites/multiuse').send({ invite_as: ROLE.OWNER })).body.msg).toBe('Must be an organization owner');
    expect((await h.as(h.realm.owner).post('/invites/multiuse').send({ invite_as: ROLE.OWNER })).body.result).toBe('success');
    expect((await h.as(h.realm.admin).post('/invites/multiuse').send({ invite_as: 450 })).body.msg).toBe('Invalid invite_as');
    // welcome_message_custom_text is an administrator's to set.
    expect((await me.post('/invites/multiuse').send({ welcome_message_custom_text: 'Hi!' })).body.msg).toBe('Must be an organization administrator');
    await h.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: { default_stream_ids: [defaultStream] } } });
  });

  it('checks expiry, channels, groups and the welcome text', async () => {
    const admin = h.as(h.realm.admin);
    const never = (await admin.post('/invites/multiuse').send({ invite_expires_in_minutes: 'null' })).body.invite_link;
    expect((await h.db.invite.findUniqueOrThrow({ where: { key: keyOf(never) } })).expiresAt).toBeNull();
    expect((await admin.post('/invites/multiuse').send({ invite_expires_in_minutes: '0' })).body.msg).toBe('Invalid invite_expires_in_minutes');
    expect((await admin.post('/invites/multiuse').send({ stream_ids: '[999999]' })).body.msg).toBe('Invalid channel ID 999999. No invites were sent.');
    // A private channel the administrator is not in is not theirs to hand out.
    expect((await admin.post('/invites/multiuse').send({ stream_ids: JSON.stringify([privateStream]) })).body.msg).toBe(`Invalid channel ID ${privateStream}. No invites were sent.`);
    expect((await admin.post('/invites/multiuse').send({ group_ids: '[999999]' })).body.msg).toBe('Invalid user group ID: 999999');
    expect((await admin.post('/invites/multiuse').send({ welcome_message_custom_text: 'w'.repeat(8001) })).body.msg).toBe(
      'welcome_message_custom_text is too long (limit: 8000 characters)',
    );
    expect((await admin.post('/invites/multiuse').send({ welcome_message_custom_text: 'w'.repeat(8000) })).body.result).toBe('success');
  });

  it('refuses channels to callers who may not subscribe others', async () => {
    const admins = await h.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name: 'role:administrators' } });
    const members = await h.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name: 'role:members' } });
    await h.db.realm.update({
      where: { id: h.realm.realmId },
      data: { settings: { default_stream_ids: [defaultStream], create_multiuse_invite_group: members.id, can_add_subscribers_group: admins.id } },
    });
    const me = h.as(h.realm.member);
    expect((await me.post('/invites/multiuse').send({ stream_ids: JSON.stringify([publicStream]) })).body.msg).toBe(
      'You do not have permission to subscribe other users to channels.',
    );
    // Default channels are always allowed, and so is asking for the defaults.
    expect((await me.post('/invites/multiuse').send({ stream_ids: JSON.stringify([defaultStream]) })).body.result).toBe('success');
    expect((await me.post('/invites/multiuse').send({ include_realm_default_subscriptions: 'true' })).body.result).toBe('success');
    expect((await me.post('/invites/multiuse').send({ group_ids: JSON.stringify([group]) })).body.msg).toBe('Insufficient permission');
    await h.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: { default_stream_ids: [defaultStream] } } });
  });

  it('tells administrators and the referrer that invitations changed', async () => {
    const before = await h.lastEventId();
    await h.as(h.realm.owner).post('/invites/multiuse');
    const [event] = await h.eventsSince(before);
    expect(event).toMatchObject({ type: 'invites_changed', users: [h.realm.owner.id, h.realm.admin.id], event: { type: 'invites_changed' } });
  });
});

describe('the invitation link', () => {
  it('signs people up with the role, channels and groups it promises', async () => {
    const res = await h.as(h.realm.owner).post('/invites/multiuse').send({
      invite_as: ROLE.MODERATOR,
      stream_ids: JSON.stringify([publicStream, privateStream]),
      group_ids: JSON.stringify([group]),
      include_realm_default_subscriptions: 'true',
    });
    const key = keyOf(res.body.invite_link);
    const form = await request(h.app.url).get(`/join/${key}/`).set(identityHeaders(h.realm.realmId));
    expect(form.status).toBe(200);
    expect(form.text).toContain('<form method="post"');
    const before = await h.lastEventId();
    const joined = await join(key, { email: 'newbie@chat.test', full_name: 'New Bie' });
    expect(joined.body).toMatchObject({ result: 'success', user_id: expect.any(Number), api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    const user = await h.db.user.findUniqueOrThrow({ where: { id: joined.body.user_id } });
    expect(user).toMatchObject({ role: ROLE.MODERATOR, deliveryEmail: 'newbie@chat.test', fullName: 'New Bie', isActive: true });
    const subs = await h.db.subscription.findMany({ where: { userId: user.id }, orderBy: { streamId: 'asc' } });
    expect(subs.map((s) => s.streamId)).toEqual([publicStream, privateStream, defaultStream].sort((a, b) => a - b));
    expect(await h.db.userGroupMember.findUnique({ where: { groupId_userId: { groupId: group, userId: user.id } } })).not.toBeNull();
    const events = await h.eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['realm_user', 'subscription', 'user_group']));
    const privatePeer = events.find((e) => e.type === 'subscription' && (e.event.stream_ids as number[])[0] === privateStream)!;
    expect(privatePeer.users).toEqual([h.realm.owner.id]);
    // A second person can use the same link.
    expect((await join(key, { email: 'second@chat.test', full_name: 'Second' })).body.result).toBe('success');
    expect((await join(key, { email: 'second@chat.test', full_name: 'Again' })).body.msg).toBe("Email 'second@chat.test' already in use");
  });

  it('stops working once expired or revoked, and only works in its realm', async () => {
    const link = (await h.as(h.realm.owner).post('/invites/multiuse').send({ invite_expires_in_minutes: 5 })).body.invite_link;
    const key = keyOf(link);
    expect((await join(key, { email: 'in-time@chat.test', full_name: 'In Time' })).body.result).toBe('success');
    await h.db.invite.update({ where: { key }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const late = await join(key, { email: 'late@chat.test', full_name: 'Late' });
    expect(late.status).toBe(404);
    expect(late.body).toMatchObject({ code: 'NOT_FOUND', msg: 'Whoops. The confirmation link has expired or been deactivated.' });
    const html = await request(h.app.url).get(`/join/${key}/`).set(identityHeaders(h.realm.realmId));
    expect(html.status).toBe(404);
    expect(html.text).toContain('expired or been deactivated');

    const other = (await h.as(h.realm.owner).post('/invites/multiuse')).body.invite_link;
    expect((await join(keyOf(other), { email: 'elsewhere@chat.test', full_name: 'X' }, 999999)).status).toBe(404);
    const list = await h.as(h.realm.owner).get('/invites');
    const invite = (list.body.invites as Array<{ id: number; link_url: string }>).find((i) => i.link_url === other)!;
    expect((await h.as(h.realm.member).delete(`/invites/multiuse/${invite.id}`)).body.code).toBe('UNAUTHORIZED_PRINCIPAL');
    expect((await h.as(h.realm.owner).delete(`/invites/multiuse/${invite.id}`)).body.result).toBe('success');
    expect((await join(keyOf(other), { email: 'revoked@chat.test', full_name: 'X' })).status).toBe(404);
  });

  it.each(ROLE_NAMES)('GET /invites as the %s', async (name) => {
    const res = await h.as(userOf(h.realm, name)).get('/invites');
    if (name === 'guest' || name === 'bot') expect(res.body.result).toBe('error');
    else {
      expect(res.body.result).toBe('success');
      const referrers = new Set((res.body.invites as Array<{ invited_by_user_id: number }>).map((i) => i.invited_by_user_id));
      if (name !== 'owner' && name !== 'administrator') for (const r of referrers) expect(r).toBe(userOf(h.realm, name).id);
    }
  });
});
