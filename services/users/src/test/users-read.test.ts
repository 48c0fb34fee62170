import { ROLE } from '@chat/contracts';
import { everyRole, ROLE_NAMES, startHarness, userOf, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const USER_FIELDS = [
  'user_id', 'delivery_email', 'email', 'full_name', 'date_joined', 'is_active', 'is_owner', 'is_admin', 'is_guest',
  'is_bot', 'bot_type', 'bot_owner_id', 'role', 'timezone', 'avatar_url', 'avatar_version', 'is_imported_stub',
];

async function setVisibility(userId: number, visibility: number) {
  const u = await h.db.user.findUniqueOrThrow({ where: { id: userId } });
  await h.db.user.update({
    where: { id: userId },
    data: { settings: { ...(u.settings as object), email_address_visibility: visibility } },
  });
}

describe('GET /users', () => {
  it.each(ROLE_NAMES)('lists every user with the full User object for the %s', async (name) => {
    const viewer = userOf(h.realm, name);
    const res = await h.as(viewer).get('/users');
    expect(res.status).toBe(200);
    const members = res.body.members as Array<Record<string, unknown>>;
    expect(members.map((m) => m.user_id)).toEqual(expect.arrayContaining([h.realm.owner.id, h.realm.bot.id, h.realm.guest.id]));
    for (const m of members) for (const f of USER_FIELDS) expect(m).toHaveProperty(f);
    const owner = members.find((m) => m.user_id === h.realm.owner.id)!;
    expect(owner).toMatchObject({ role: ROLE.OWNER, is_owner: true, is_admin: true, is_guest: false, is_bot: false, bot_type: null });
    const bot = members.find((m) => m.user_id === h.realm.bot.id)!;
    expect(bot).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: h.realm.member.id });
    expect(owner.date_joined).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d\+00:00$/);
  });

  it('leaves avatar_url null for gravatar users when the client computes it, and fills it otherwise', async () => {
    const withGravatar = await h.as(h.realm.member).get('/users');
    expect(withGravatar.body.members.find((m: { user_id: number }) => m.user_id === h.realm.owner.id).avatar_url).toBeNull();
    const without = await h.as(h.realm.member).get('/users?client_gravatar=false');
    expect(without.body.members.find((m: { user_id: number }) => m.user_id === h.realm.owner.id).avatar_url).toMatch(/gravatar/);
    // A bot whose picture is its gravatar is left to the client too, as in the family.
    expect(withGravatar.body.members.find((m: { user_id: number }) => m.user_id === h.realm.bot.id).avatar_url).toBeNull();
    expect(without.body.members.find((m: { user_id: number }) => m.user_id === h.realm.bot.id).avatar_url).toMatch(/gravatar/);
  });

  it('filters by user_ids and rejects unknown ids', async () => {
    const res = await h.as(h.realm.member).get(`/users?user_ids=${JSON.stringify([h.realm.admin.id])}`);
    expect(res.body.members).toHaveLength(1);
    const bad = await h.as(h.realm.member).get(`/users?user_ids=[999999]`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid user ID' });
  });

  it('shows profile_data only when asked', async () => {
    const res = await h.as(h.realm.member).get('/users?include_custom_profile_fields=true');
    const member = res.body.members.find((m: { user_id: number }) => m.user_id === h.realm.member2.id);
    expect(member.profile_data).toEqual({});
    const bot = res.body.members.find((m: { user_id: number }) => m.user_id === h.realm.bot.id);
    expect(bot).not.toHaveProperty('profile_data');
  });

  it('needs an authenticated caller', async () => {
    const res = await h.as().get('/users');
    expect(res.status).toBe(401);
  });
});

describe('email_address_visibility', () => {
  // visibility -> which viewers (besides the user) see the delivery address
  const cases: Array<[number, string[]]> = [
    [1, ['owner', 'administrator', 'moderator', 'member', 'guest', 'bot']],
    [2, ['owner', 'administrator', 'moderator', 'member', 'bot']],
    [5, ['owner', 'administrator', 'moderator']],
    [3, ['owner', 'administrator']],
    [4, []],
  ];
  it.each(cases)('visibility %i shows delivery_email to %j', async (visibility, allowed) => {
    await setVisibility(h.realm.member2.id, visibility);
    for (const [name, viewer] of everyRole(h.realm)) {
      const res = await h.as(viewer).get(`/users/${h.realm.member2.id}`);
      expect(res.status).toBe(200);
      expect([name, res.body.user.delivery_email]).toEqual([name, allowed.includes(name) ? h.realm.member2.email : null]);
    }
    const self = await h.as(h.realm.member2).get('/users/me');
    expect(self.body.delivery_email).toBe(h.realm.member2.email);
  });
});

describe('GET /users/{id} and /users/me', () => {
  it('finds a user by id or by email, and not one of another realm', async () => {
    const byId = await h.as(h.realm.guest).get(`/users/${h.realm.admin.id}`);
    expect(byId.body.user).toMatchObject({ user_id: h.realm.admin.id, full_name: 'Iago', role: ROLE.ADMINISTRATOR });
    const byEmail = await h.as(h.realm.guest).get(`/users/${encodeURIComponent(h.realm.admin.email)}`);
    expect(byEmail.body.user.user_id).toBe(h.realm.admin.id);
    const missing = await h.as(h.realm.guest).get('/users/999999');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'No such user' });
  });

  it('returns deactivated users with is_active false', async () => {
    const extra = await h.db.user.update({ where: { id: h.realm.member2.id }, data: { isActive: false } });
    const res = await h.as(h.realm.member).get(`/users/${extra.id}`);
    expect(res.body.user.is_active).toBe(false);
    await h.db.user.update({ where: { id: extra.id }, data: { isActive: true } });
  });

  it.each(ROLE_NAMES)('/users/me describes the %s with a real avatar URL and max_message_id', async (name) => {
    const user = userOf(h.realm, name);
    const res = await h.as(user).get('/users/me');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: user.id, role: user.role, is_bot: user.isBot, max_message_id: -1 });
    expect(res.body.avatar_url).toMatch(/^https:/);
    for (const f of USER_FIELDS) expect(res.body).toHaveProperty(f);
  });
});
