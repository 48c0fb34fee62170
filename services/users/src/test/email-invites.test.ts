import request from 'supertest';
import { ROLE } from '@chat/contracts';
import { identityHeaders } from '@chat/testing';
import { joinKeyIn, readMailLog, tempMailDir, type LoggedMail } from './mail-log';
import { makeUser, ROLE_NAMES, startHarness, userOf, type Harness } from './support';

let h: Harness;
let mailDir: string;
let publicStream: number;
let privateStream: number;
let defaultStream: number;
let group: number;
let counter = 0;

/** A fresh address per use, so tests never trip over each other's invitations. */
const fresh = (label = 'new') => `${label}${++counter}@example.org`;

beforeAll(async () => {
  mailDir = tempMailDir();
  h = await startHarness({ EMAIL_LOG_DIR: mailDir, EMAIL_RETRY_BASE_MS: '50' });
  const mk = async (name: string, inviteOnly: boolean, members: number[]) => {
    const s = await h.db.stream.create({ data: { realmId: h.realm.realmId, name, nameKey: name, inviteOnly } });
    for (const userId of members) await h.db.subscription.create({ data: { userId, streamId: s.id } });
    return s.id;
  };
  publicStream = await mk('general', false, [h.realm.owner.id, h.realm.member.id]);
  privateStream = await mk('secret', true, [h.realm.owner.id]);
  defaultStream = await mk('welcome', false, []);
  group = (await h.db.userGroup.create({ data: { realmId: h.realm.realmId, name: 'crew', creatorId: h.realm.owner.id } })).id;
  await setSettings({});
});
afterAll(() => h?.close());

/** Realm settings for a test, on top of the default channel every test expects. */
async function setSettings(extra: Record<string, unknown>) {
  await h.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: { default_stream_ids: [defaultStream], ...extra } } });
}

async function systemGroup(name: string): Promise<number> {
  return (await h.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name } })).id;
}

function invite(as: Parameters<Harness['as']>[0], body: Record<string, string | number>) {
  return h.as(as).post('/invites').send({ stream_ids: '[]', ...body });
}

/** The message sent to `to`, once the worker has written it. */
async function mailTo(to: string, nth = 1): Promise<LoggedMail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = (await readMailLog(mailDir)).filter((m) => m.to === to);
    if (mails.length >= nth) return mails[nth - 1]!;
    if (Date.now() > deadline) throw new Error(`no message #${nth} to ${to}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function join(key: string, body: Record<string, string>) {
  return request(h.app.url).post(`/join/${key}/`).set(identityHeaders(h.realm.realmId)).set('Accept', 'application/json').type('form').send(body);
}

async function inviteRow(email: string) {
  return h.db.invite.findFirstOrThrow({ where: { realmId: h.realm.realmId, email }, orderBy: { id: 'desc' } });
}

describe('POST /invites', () => {
  it.each(ROLE_NAMES)('as the %s (default policy: members)', async (name) => {
    const email = fresh(name);
    const res = await invite(userOf(h.realm, name), { invitee_emails: email });
    if (name === 'guest') {
      expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Not allowed for guest users' });
    } else if (name === 'bot') {
      expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'This endpoint does not accept bot requests.' });
    } else {
      expect(res.body).toEqual({ result: 'success', msg: '' });
      const row = await inviteRow(email);
      expect(row).toMatchObject({ referredById: userOf(h.realm, name).id, inviteAs: ROLE.MEMBER, notifyReferrerOnJoin: true, revoked: false, createdUserId: null });
      expect(Math.round((row.expiresAt!.getTime() - row.dateCreated.getTime()) / 60000)).toBe(14400);
      const mail = await mailTo(email);
      expect(mail.subject).toBe(`${userOf(h.realm, name).fullName} invited you to join Test Organization`);
      expect(joinKeyIn(mail)).toBe(row.key);
      return;
    }
    expect(await h.db.invite.count({ where: { email } })).toBe(0);
  });

  it('follows can_invite_users_group', async () => {
    await setSettings({ can_invite_users_group: await systemGroup('role:administrators') });
    const email = fresh();
    expect((await invite(h.realm.member, { invitee_emails: email })).body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    expect((await invite(h.realm.moderator, { invitee_emails: email })).body.msg).toBe('Insufficient permission');
    expect((await invite(h.realm.admin, { invitee_emails: email })).body.result).toBe('success');
    await setSettings({});
  });

  it('requires its parameters', async () => {
    const owner = h.as(h.realm.owner);
    expect((await owner.post('/invites').send({ stream_ids: '[]' })).body).toEqual({
      result: 'error',
      code: 'REQUEST_VARIABLE_MISSING',
      msg: "Missing 'invitee_emails' argument",
      var_name: 'invitee_emails',
    });
    expect((await owner.post('/invites').send({ invitee_emails: fresh() })).body.msg).toBe("Missing 'stream_ids' argument");
    expect((await invite(h.realm.owner, { invitee_emails: '' })).body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'You must specify at least one email address.',
    });
  });

  it('checks the role, channels, groups, expiry and welcome text', async () => {
    const email = fresh();
    const by = (u: Parameters<Harness['as']>[0], body: Record<string, string | number>) => invite(u, { invitee_emails: email, ...body }).then((r) => r.body);
    expect(await by(h.realm.member, { invite_as: ROLE.MODERATOR })).toEqual({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
    expect(await by(h.realm.admin, { invite_as: ROLE.OWNER })).toEqual({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
    expect((await by(h.realm.admin, { invite_as: 450 })).msg).toBe('Invalid invite_as');
    expect((await by(h.realm.admin, { invite_expires_in_minutes: 0 })).msg).toBe('Invalid invite_expires_in_minutes');
    expect((await by(h.realm.admin, { stream_ids: '[999999]' })).msg).toBe('Invalid channel ID 999999. No invites were sent.');
    expect((await by(h.realm.admin, { stream_ids: JSON.stringify([privateStream]) })).msg).toBe(`Invalid channel ID ${privateStream}. No invites were sent.`);
    expect((await by(h.realm.admin, { stream_ids: 'nope' })).code).toBe('INVALID_JSON');
    expect((await by(h.realm.admin, { group_ids: '[999999]' })).msg).toBe('Invalid user group ID: 999999');
    expect((await by(h.realm.admin, { group_ids: JSON.stringify([await systemGroup('role:members')]) })).msg).toBe(
      `Invalid user group ID: ${await systemGroup('role:members')}`,
    );
    expect((await by(h.realm.member, { group_ids: JSON.stringify([group]) })).msg).toBe('Insufficient permission');
    expect(await by(h.realm.member, { welcome_message_custom_text: 'Hello' })).toEqual({
      result: 'error',
      code: 'UNAUTHORIZED_PRINCIPAL',
      msg: 'Must be an organization administrator',
    });
    expect((await by(h.realm.admin, { welcome_message_custom_text: 'w'.repeat(8001) })).msg).toBe(
      'welcome_message_custom_text is too long (limit: 8000 characters)',
    );
    // Nothing was stored or sent for any of these.
    expect(await h.db.invite.count({ where: { email } })).toBe(0);
    // The moderator may hand out the moderator role, and the owner the owner role.
    expect((await by(h.realm.moderator, { invite_as: ROLE.MODERATOR })).result).toBe('success');
    expect((await invite(h.realm.owner, { invitee_emails: fresh(), invite_as: ROLE.OWNER })).body.result).toBe('success');
  });

  it('refuses channels to callers who may not subscribe others, except default ones', async () => {
    await setSettings({ can_add_subscribers_group: await systemGroup('role:administrators') });
    expect((await invite(h.realm.member, { invitee_emails: fresh(), stream_ids: JSON.stringify([publicStream]) })).body.msg).toBe(
      'You do not have permission to subscribe other users to channels.',
    );
    expect((await invite(h.realm.member, { invitee_emails: fresh(), stream_ids: JSON.stringify([defaultStream]) })).body.result).toBe('success');
    expect((await invite(h.realm.member, { invitee_emails: fresh(), include_realm_default_subscriptions: 'true' })).body.result).toBe('success');
    await setSettings({});
  });

  it('refuses every address while any is invalid, and names each problem', async () => {
    const good = fresh();
    const res = await invite(h.realm.admin, {
      invitee_emails: `${good}, not-an-address\nsomeone@mailinator.com, ${h.realm.member.email}`,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: 'error',
      code: 'INVITATION_FAILED',
      msg: "Some emails did not validate, so we didn't send any invitations.",
      errors: [
        ['not-an-address', 'Invalid address.', false],
        ['someone@mailinator.com', 'Please use your real email address.', false],
        [h.realm.member.email, 'Already has an account.', false],
      ],
      sent_invitations: false,
      license_limit_reached: false,
      daily_limit_reached: false,
    });
    expect(await h.db.invite.count({ where: { email: good } })).toBe(0);
    // A trailing separator leaves an empty address, which is reported rather than dropped.
    expect((await invite(h.realm.admin, { invitee_emails: `${good},` })).body.errors).toEqual([['', 'Invalid address.', false]]);
    // Throwaway domains are fine where the realm allows them.
    await setSettings({ disallow_disposable_email_addresses: false });
    expect((await invite(h.realm.admin, { invitee_emails: `x${counter}@mailinator.com` })).body.result).toBe('success');
    await setSettings({});
  });

  it('skips people who already have an account, and says so', async () => {
    const gone = await makeUser(h, ROLE.MEMBER);
    await h.db.user.update({ where: { id: gone.id }, data: { isActive: false } });
    const all = await invite(h.realm.admin, { invitee_emails: `${h.realm.member.email.toUpperCase()}\n${gone.email}` });
    expect(all.body).toEqual({
      result: 'error',
      code: 'INVITATION_FAILED',
      msg: "We weren't able to invite anyone.",
      errors: [
        [h.realm.member.email.toUpperCase(), 'Already has an account.', false],
        [gone.email, 'Account has been deactivated.', true],
      ],
      sent_invitations: false,
      license_limit_reached: false,
      daily_limit_reached: false,
    });
    const email = fresh();
    const some = await invite(h.realm.admin, { invitee_emails: `${h.realm.member.email}, ${email}` });
    expect(some.body).toMatchObject({
      code: 'INVITATION_FAILED',
      msg: "Some of those addresses already have an account here, so we didn't send them an invitation. We did send invitations to everyone else!",
      errors: [[h.realm.member.email, 'Already has an account.', false]],
      sent_invitations: true,
    });
    await inviteRow(email);
    expect((await mailTo(email)).to).toBe(email);
  });

  it('reads names, newlines and repeats in the address list', async () => {
    const a = fresh();
    const b = fresh();
    const res = await invite(h.realm.admin, { invitee_emails: `Ann Example <${a}>\n ${b} ,${a}` });
    expect(res.body.result).toBe('success');
    expect(await h.db.invite.count({ where: { email: { in: [a, b] } } })).toBe(2);
    await mailTo(a);
    await mailTo(b);
  });

  it('keeps brand-new accounts from inviting where anyone may join', async () => {
    await setSettings({ invite_required: false });
    const res = await invite(h.realm.member, { invitee_emails: fresh() });
    expect(res.body).toEqual({
      result: 'error',
      code: 'INVITATION_FAILED',
      msg: 'Your account is too new to send invites for this organization. Ask an organization admin, or a more experienced user.',
      errors: [],
      sent_invitations: false,
      license_limit_reached: false,
      daily_limit_reached: false,
    });
    expect((await invite(h.realm.admin, { invitee_emails: fresh() })).body.result).toBe('success');
    const veteran = await makeUser(h, ROLE.MEMBER);
    await h.db.user.update({ where: { id: veteran.id }, data: { dateJoined: new Date(Date.now() - 4 * 86_400_000) } });
    expect((await invite(veteran, { invitee_emails: fresh() })).body.result).toBe('success');
    await setSettings({});
  });

  it('tells administrators and the referrer that invitations changed', async () => {
    const before = await h.lastEventId();
    await invite(h.realm.member, { invitee_emails: `${fresh()},${fresh()}` });
    const events = (await h.eventsSince(before)).filter((e) => e.type === 'invites_changed');
    expect(events).toEqual([
      expect.objectContaining({ users: [h.realm.owner.id, h.realm.admin.id, h.realm.member.id].sort((a, b) => a - b), event: { type: 'invites_changed' } }),
    ]);
  });
});

describe('the emailed link', () => {
  it('carries the invitation and signs the invitee up with its role, channels and groups', async () => {
    const email = fresh('joiner');
    const res = await invite(h.realm.owner, {
      invitee_emails: email,
      invite_as: ROLE.MODERATOR,
      stream_ids: JSON.stringify([publicStream, privateStream]),
      group_ids: JSON.stringify([group]),
      include_realm_default_subscriptions: 'true',
      invite_expires_in_minutes: 60,
    });
    expect(res.body.result).toBe('success');
    const mail = await mailTo(email);
    expect(mail.from).toBe('Test Organization <noreply@chat.test>');
    expect(mail.replyTo).toBe(h.realm.owner.email);
    expect(mail.text).toContain('Desdemona (desdemona@chat.test) wants you to join them on Test Organization');
    expect(mail.text).toMatch(/http:\/\/chat\.test\/join\/[a-z0-9]{24}\//);
    expect(mail.text).toContain('This invitation expires on ');
    expect(mail.html).toContain('href="http://chat.test/join/');
    const key = joinKeyIn(mail);

    const form = await request(h.app.url).get(`/join/${key}/`).set(identityHeaders(h.realm.realmId));
    expect(form.text).toContain(`value="${email}" readonly`);
    expect((await join(key, { email: 'someone-else@example.org', full_name: 'X' })).body.msg).toBe('This invitation was sent to a different email address.');

    const before = await h.lastEventId();
    const joined = await join(key, { full_name: 'Joiner' });
    expect(joined.body).toMatchObject({ result: 'success', user_id: expect.any(Number) });
    const user = await h.db.user.findUniqueOrThrow({ where: { id: joined.body.user_id } });
    expect(user).toMatchObject({ role: ROLE.MODERATOR, deliveryEmail: email, fullName: 'Joiner' });
    const subs = await h.db.subscription.findMany({ where: { userId: user.id }, orderBy: { streamId: 'asc' } });
    expect(subs.map((s) => s.streamId)).toEqual([publicStream, privateStream, defaultStream].sort((a, b) => a - b));
    expect(await h.db.userGroupMember.findUnique({ where: { groupId_userId: { groupId: group, userId: user.id } } })).not.toBeNull();
    expect((await inviteRow(email)).createdUserId).toBe(user.id);
    const events = await h.eventsSince(before);
    expect(events.find((e) => e.type === 'invites_changed')?.users).toEqual([h.realm.owner.id, h.realm.admin.id]);

    // Used: it works once, and leaves the list.
    const again = await join(key, { full_name: 'Again' });
    expect(again.status).toBe(404);
    expect(again.body.msg).toBe('Whoops. The confirmation link has expired or been deactivated.');
    const listed = (await h.as(h.realm.owner).get('/invites')).body.invites as Array<{ email?: string }>;
    expect(listed.some((i) => i.email === email)).toBe(false);
  });

  it('retires the other invitations to the same address', async () => {
    const email = fresh('twice');
    await invite(h.realm.member, { invitee_emails: email });
    await invite(h.realm.admin, { invitee_emails: email.toUpperCase() });
    const first = await mailTo(email);
    const before = await h.lastEventId();
    expect((await join(joinKeyIn(first), { full_name: 'Twice' })).body.result).toBe('success');
    const other = await h.db.invite.findFirstOrThrow({ where: { email: email.toUpperCase() } });
    expect(other.revoked).toBe(true);
    const changed = (await h.eventsSince(before)).find((e) => e.type === 'invites_changed')!;
    expect(changed.users).toEqual([h.realm.owner.id, h.realm.admin.id, h.realm.member.id]);
    expect((await join(other.key, { full_name: 'Twice again' })).status).toBe(404);
  });

  it('stops working once expired', async () => {
    const email = fresh('late');
    await invite(h.realm.admin, { invitee_emails: email, invite_expires_in_minutes: 5 });
    const row = await inviteRow(email);
    expect(row.expiresAt!.getTime() - row.dateCreated.getTime()).toBeCloseTo(5 * 60_000, -3);
    const listed = async () => ((await h.as(h.realm.admin).get('/invites')).body.invites as Array<{ id: number }>).some((i) => i.id === row.id);
    expect(await listed()).toBe(true);
    await h.db.invite.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await listed()).toBe(false);
    expect((await join(row.key, { full_name: 'Late' })).status).toBe(404);
    expect((await h.as(h.realm.admin).post(`/invites/${row.id}/resend`)).body.msg).toBe('No such invitation');

    const never = fresh('never');
    await invite(h.realm.admin, { invitee_emails: never, invite_expires_in_minutes: 'null' });
    expect((await inviteRow(never)).expiresAt).toBeNull();
    expect((await mailTo(never)).text).toContain('This invitation does not expire.');
  });
});

describe('GET /invites', () => {
  it('shows administrators every open invitation and others their own', async () => {
    const mine = fresh('mine');
    await invite(h.realm.member, { invitee_emails: mine, notify_referrer_on_join: 'false' });
    const link = (await h.as(h.realm.owner).post('/invites/multiuse')).body.invite_link as string;
    const row = await inviteRow(mine);
    for (const [name, user] of ROLE_NAMES.map((n) => [n, userOf(h.realm, n)] as const)) {
      const res = await h.as(user).get('/invites');
      if (name === 'guest' || name === 'bot') {
        expect(res.body.result).toBe('error');
        continue;
      }
      const invites = res.body.invites as Array<Record<string, unknown>>;
      if (name === 'owner' || name === 'administrator') {
        expect(invites).toContainEqual({
          id: row.id,
          email: mine,
          invited_by_user_id: h.realm.member.id,
          invited: Math.floor(row.dateCreated.getTime() / 1000),
          expiry_date: Math.floor(row.expiresAt!.getTime() / 1000),
          invited_as: ROLE.MEMBER,
          is_multiuse: false,
          notify_referrer_on_join: false,
        });
        expect(invites).toContainEqual(expect.objectContaining({ is_multiuse: true, link_url: link, invited_by_user_id: h.realm.owner.id }));
        // Email invitations come first.
        const kinds = invites.map((i) => i.is_multiuse);
        expect(kinds.indexOf(true)).toBeGreaterThan(kinds.lastIndexOf(false));
      } else {
        for (const i of invites) expect(i.invited_by_user_id).toBe(user.id);
        expect(invites.some((i) => i.id === row.id)).toBe(name === 'member');
      }
    }
  });
});

describe('DELETE /invites/{id}', () => {
  it('lets the referrer and administrators revoke, with owner invitations for owners', async () => {
    const email = fresh('revoke');
    await invite(h.realm.member, { invitee_emails: email });
    const row = await inviteRow(email);
    expect((await h.as(h.realm.member2).delete(`/invites/${row.id}`)).body).toEqual({
      result: 'error',
      code: 'UNAUTHORIZED_PRINCIPAL',
      msg: 'Must be an organization administrator',
    });
    expect((await h.as(h.realm.guest).delete(`/invites/${row.id}`)).body.msg).toBe('Not allowed for guest users');
    expect((await h.as(h.realm.bot).delete(`/invites/${row.id}`)).body.msg).toBe('This endpoint does not accept bot requests.');
    const before = await h.lastEventId();
    expect((await h.as(h.realm.member).delete(`/invites/${row.id}`)).body).toEqual({ result: 'success', msg: '' });
    const [changed] = (await h.eventsSince(before)).filter((e) => e.type === 'invites_changed');
    expect(changed!.users).toEqual([h.realm.owner.id, h.realm.admin.id, h.realm.member.id]);
    expect((await h.as(h.realm.member).delete(`/invites/${row.id}`)).body.msg).toBe('Invitation has already been revoked');
    expect((await join(row.key, { full_name: 'Revoked' })).status).toBe(404);

    const other = fresh('revoke');
    await invite(h.realm.member, { invitee_emails: other });
    expect((await h.as(h.realm.admin).delete(`/invites/${(await inviteRow(other)).id}`)).body.result).toBe('success');

    const ownerInvite = fresh('owner');
    await invite(h.realm.owner, { invitee_emails: ownerInvite, invite_as: ROLE.OWNER });
    const ownerRow = await inviteRow(ownerInvite);
    expect((await h.as(h.realm.admin).delete(`/invites/${ownerRow.id}`)).body.msg).toBe('Must be an organization owner');
    expect((await h.as(h.realm.owner).delete(`/invites/${ownerRow.id}`)).body.result).toBe('success');
  });

  it('knows only email invitations of its realm, and /invites/multiuse only links', async () => {
    const link = (await h.as(h.realm.owner).post('/invites/multiuse')).body.invite_link as string;
    const multiuse = await h.db.invite.findFirstOrThrow({ where: { key: /\/join\/([a-z0-9]+)\//.exec(link)![1]! } });
    expect((await h.as(h.realm.owner).delete(`/invites/${multiuse.id}`)).body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'No such invitation' });
    expect((await h.as(h.realm.owner).delete('/invites/999999')).body.msg).toBe('No such invitation');
    const email = fresh();
    await invite(h.realm.owner, { invitee_emails: email });
    const row = await inviteRow(email);
    expect((await h.as(h.realm.owner).delete(`/invites/multiuse/${row.id}`)).body.msg).toBe('No such invitation');
    expect((await h.as(h.realm.owner).post(`/invites/${multiuse.id}/resend`)).body.msg).toBe('No such invitation');
    expect((await h.as(h.realm.owner, 999999).delete(`/invites/${row.id}`)).body.msg).toBe('No such invitation');
  });
});

describe('POST /invites/{id}/resend', () => {
  it('mails the same link again, for the referrer and administrators', async () => {
    const email = fresh('resend');
    await invite(h.realm.member, { invitee_emails: email });
    const first = await mailTo(email);
    const row = await inviteRow(email);
    expect((await h.as(h.realm.member2).post(`/invites/${row.id}/resend`)).body.msg).toBe('Must be an organization administrator');
    expect((await h.as(h.realm.guest).post(`/invites/${row.id}/resend`)).body.msg).toBe('Not allowed for guest users');
    expect((await h.as(h.realm.member).post(`/invites/${row.id}/resend`)).body).toEqual({ result: 'success', msg: '' });
    const second = await mailTo(email, 2);
    expect(joinKeyIn(second)).toBe(joinKeyIn(first));
    // The referrer of record stays the inviter, whoever resends.
    expect((await h.as(h.realm.admin).post(`/invites/${row.id}/resend`)).body.result).toBe('success');
    expect((await mailTo(email, 3)).subject).toBe('King Hamlet invited you to join Test Organization');

    await h.as(h.realm.member).delete(`/invites/${row.id}`);
    expect((await h.as(h.realm.member).post(`/invites/${row.id}/resend`)).body.msg).toBe('Invitation has already been revoked');
    expect((await readMailLog(mailDir)).filter((m) => m.to === email)).toHaveLength(3);
  });
});

describe('deactivating the referrer', () => {
  it('revokes their open invitations', async () => {
    const referrer = await makeUser(h, ROLE.MEMBER);
    const email = fresh('orphan');
    expect((await invite(referrer, { invitee_emails: email })).body.result).toBe('success');
    expect((await h.as(h.realm.admin).delete(`/users/${referrer.id}`)).body.result).toBe('success');
    expect((await inviteRow(email)).revoked).toBe(true);
  });
});
