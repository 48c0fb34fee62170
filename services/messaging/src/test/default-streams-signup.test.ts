/**
 * Default channels set through this service are the ones the users service subscribes new
 * people to, and the ones register reports: one storage, read by three services (the users and
 * events services run as their own processes, as in production).
 */
import request from 'supertest';
import { identityHeaders, startService, type ServiceProcess } from '@chat/testing';
import { startHarness, type Harness } from './support';

let h: Harness;
let users: ServiceProcess;
let events: ServiceProcess;
let lobby = 0;
let news = 0;
let extra = 0;

beforeAll(async () => {
  h = await startHarness();
  [users, events] = await Promise.all([startService('users', h.env.env), startService('events', h.env.env)]);
  const { owner } = h.realm;
  lobby = await h.createStream(owner, { name: 'Lobby' }, [owner]);
  news = await h.createStream(owner, { name: 'News' }, []);
  extra = await h.createStream(owner, { name: 'Extra' }, []);
}, 120000);
afterAll(async () => {
  await Promise.all([users?.stop(), events?.stop()]);
  await h?.close();
});

const admin = () => h.as(h.realm.admin);

it('subscribes people who sign up with the realm defaults to the channels made default here', async () => {
  expect((await h.api.post('/api/v1/default_streams').set(admin()).type('form').send({ stream_id: String(lobby) })).body.result).toBe('success');
  expect((await h.api.patch(`/api/v1/streams/${news}`).set(admin()).type('form').send({ is_default_stream: 'true' })).body.result).toBe('success');
  const invite = await request(users.url).post('/api/v1/invites/multiuse').set(admin()).type('form').send({ include_realm_default_subscriptions: 'true' });
  expect(invite.body.result).toBe('success');
  const key = /\/join\/([a-z0-9]+)\/$/.exec(invite.body.invite_link)![1]!;
  const joined = await request(users.url)
    .post(`/join/${key}/`)
    .set(identityHeaders(h.realm.realmId))
    .set('Accept', 'application/json')
    .type('form')
    .send({ email: 'newcomer@chat.test', full_name: 'New Comer' });
  expect(joined.body.result).toBe('success');
  const subs = await h.env.db.subscription.findMany({ where: { userId: joined.body.user_id, active: true }, orderBy: { streamId: 'asc' } });
  expect(subs.map((s) => s.streamId)).toEqual([lobby, news]);
  expect(subs.map((s) => s.streamId)).not.toContain(extra);
});

it('reports the defaults and the groups in register, and nothing to guests', async () => {
  const group = await h.api
    .post('/api/v1/default_stream_groups/create')
    .set(admin())
    .type('form')
    .send({ group_name: 'Starters', description: 'Pick these', stream_names: JSON.stringify(['Extra']) });
  expect(group.body.result).toBe('success');
  const id = (await h.env.db.defaultStreamGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId } })).id;
  const register = (user: typeof h.realm.member) =>
    request(events.url)
      .post('/api/v1/register')
      .set(identityHeaders(h.realm.realmId, user))
      .type('form')
      .send({ fetch_event_types: JSON.stringify(['default_streams', 'default_stream_groups']) });
  const body = (await register(h.realm.member)).body;
  expect(body.realm_default_streams).toEqual([lobby, news]);
  expect(body.realm_default_stream_groups).toEqual([{ id, name: 'Starters', description: 'Pick these', streams: [extra] }]);
  const guest = (await register(h.realm.guest)).body;
  expect(guest).toMatchObject({ realm_default_streams: [], realm_default_stream_groups: [] });
});
