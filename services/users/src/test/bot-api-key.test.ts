import { ROLE } from '@chat/contracts';
import { makeUser, ROLE_NAMES, startHarness, userOf, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('GET /bots/{bot_id}/api_key', () => {
  it.each(ROLE_NAMES)("reads a member's bot's key as the %s: its owner and administrators only", async (name) => {
    const bot = await makeUser(h, ROLE.MEMBER, { botOwnerId: h.realm.member.id });
    const res = await h.as(userOf(h.realm, name)).get(`/bots/${bot.id}/api_key`);
    if (name === 'owner' || name === 'administrator' || name === 'member') {
      expect(res.body).toEqual({ result: 'success', msg: '', api_key: bot.apiKey });
    } else {
      expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    }
  });

  it('gives the new key after a regeneration', async () => {
    const bot = await makeUser(h, ROLE.MEMBER, { botOwnerId: h.realm.member.id });
    const regen = await h.as(h.realm.member).post(`/bots/${bot.id}/api_key/regenerate`);
    expect((await h.as(h.realm.member).get(`/bots/${bot.id}/api_key`)).body.api_key).toBe(regen.body.api_key);
  });

  it('answers No such bot for people and unknown ids', async () => {
    for (const id of [h.realm.member2.id, 999999]) {
      expect((await h.as(h.realm.admin).get(`/bots/${id}/api_key`)).body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'No such bot' });
    }
  });
});

describe('PATCH /settings/notifications and /settings/display', () => {
  it.each(['/settings/notifications', '/settings/display'])('%s takes the parameters of PATCH /settings', async (path) => {
    const me = h.realm.moderator;
    const before = await h.lastEventId();
    const current = ((await h.db.user.findUniqueOrThrow({ where: { id: me.id } })).settings as Record<string, unknown>).enter_sends;
    const res = await h.as(me).patch(path).send({ enter_sends: String(!current), timezone: 'Europe/Paris' });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const row = await h.db.user.findUniqueOrThrow({ where: { id: me.id } });
    expect((row.settings as Record<string, unknown>).enter_sends).toBe(!current);
    expect(row.timezone).toBe('Europe/Paris');
    const events = (await h.eventsSince(before)).filter((e) => e.type === 'user_settings' || e.event.type === 'user_settings');
    expect(events.map((e) => e.event)).toContainEqual({ type: 'user_settings', op: 'update', property: 'enter_sends', value: !current });
    expect((await h.as(me).patch(path).send({ color_scheme: '9' })).body.result).toBe('error');
  });
});
