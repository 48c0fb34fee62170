/**
 * Register's onboarding_steps: the steps of the shared list the viewer has not completed, from
 * the rows the users service stores when a step is marked, and nothing for spectators.
 */
import { ONBOARDING_STEPS } from '@chat/wire';
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import { start, type EventsHandle } from '../app';
import { register } from './support';

let env: TestEnv;
let realm: SeededRealm;
let service: EventsHandle;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  service = await start({ ...env.env, STREAM_PARTITIONS: '2' });
});

afterAll(async () => {
  await service?.stop();
  await env?.close();
});

const steps = async (user: SeededRealm['member'] | undefined, params: Record<string, string> = {}) =>
  (await register(service.url, realm.realmId, user, params)).body.onboarding_steps;

/** A step completed, stored as the users service stores it. */
const complete = (userId: number, onboardingStep: string) =>
  env.db.onboardingStep.create({ data: { realmId: realm.realmId, userId, onboardingStep } });

it('lists every offered step, in order, to someone who has completed none', async () => {
  const list = await steps(realm.member, { fetch_event_types: JSON.stringify(['onboarding_steps']) });
  expect(list[0]).toEqual({ type: 'one_time_notice', name: 'visibility_policy_banner' });
  expect(list.at(-1)).toEqual({ type: 'one_time_action', name: 'narrow_to_dm_with_welcome_bot_new_user' });
  // No tour video on this server: that notice is never offered.
  expect(list).toEqual(ONBOARDING_STEPS.filter((s) => s.name !== 'navigation_tour_video'));
  expect(list).toHaveLength(9);
});

it('drops the steps the viewer completed, and only the viewer\'s', async () => {
  const before = await steps(realm.admin);
  await complete(realm.admin.id, 'intro_inbox_view_modal');
  await complete(realm.admin.id, 'narrow_to_dm_with_welcome_bot_new_user');
  const after = await steps(realm.admin);
  expect(after).toEqual(before.filter((s: { name: string }) => !['intro_inbox_view_modal', 'narrow_to_dm_with_welcome_bot_new_user'].includes(s.name)));
  expect(after).toHaveLength(7);
  expect(after.map((s: { type: string }) => s.type)).toEqual(Array(7).fill('one_time_notice'));
  expect(await steps(realm.moderator)).toHaveLength(9);
});

it('is empty once every step is done, and for spectators', async () => {
  for (const s of ONBOARDING_STEPS) await complete(realm.member2.id, s.name);
  expect(await steps(realm.member2)).toEqual([]);

  const r = await env.db.realm.findUniqueOrThrow({ where: { id: realm.realmId } });
  await env.db.realm.update({ where: { id: r.id }, data: { settings: { ...(r.settings as object), enable_spectator_access: true } } });
  await env.db.stream.create({ data: { realmId: r.id, name: 'Open', nameKey: 'open', isWebPublic: true } });
  const spectator = (await register(service.url, realm.realmId, undefined, { client_gravatar: 'false' })).body;
  expect(spectator.queue_id).toBeNull();
  expect(spectator.onboarding_steps).toEqual([]);
});
