/**
 * Onboarding steps: POST /users/me/onboarding_steps stores the step once, refuses names outside
 * the shared list and bots, and sends the onboarding_steps event with the steps still to show
 * to the user alone.
 */
import { ROLE } from '@chat/contracts';
import { ONBOARDING_STEPS } from '@chat/wire';
import { makeUser, startHarness, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const mark = (user: Harness['realm']['member'], step?: string) =>
  h.as(user).post('/users/me/onboarding_steps').send(step === undefined ? {} : { onboarding_step: step });

const stored = (userId: number) =>
  h.db.onboardingStep.findMany({ where: { userId }, orderBy: { id: 'asc' } });

/** The offered list: every step but the tour video, which this server has none of. */
const offered = ONBOARDING_STEPS.filter((s) => s.name !== 'navigation_tour_video');

describe('marking an onboarding step', () => {
  it('stores the step and tells only that user the steps still to show', async () => {
    const user = await makeUser(h, ROLE.MEMBER);
    const before = await h.lastEventId();
    const res = await mark(user, 'intro_inbox_view_modal');
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(res.status).toBe(200);

    const rows = await stored(user.id);
    expect(rows.map((r) => [r.onboardingStep, r.realmId])).toEqual([['intro_inbox_view_modal', h.realm.realmId]]);

    const events = await h.eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['onboarding_steps']);
    expect(events[0]!.users).toEqual([user.id]);
    const expected = offered.filter((s) => s.name !== 'intro_inbox_view_modal');
    expect(events[0]!.event).toEqual({ type: 'onboarding_steps', onboarding_steps: expected });
    expect(events[0]!.event.onboarding_steps).toContainEqual({ type: 'one_time_notice', name: 'visibility_policy_banner' });
    expect(events[0]!.event.onboarding_steps).toContainEqual({ type: 'one_time_action', name: 'narrow_to_dm_with_welcome_bot_new_user' });

    // Another user's steps are untouched.
    expect(await stored(h.realm.member2.id)).toEqual([]);
  });

  it('accepts marking the same step twice, keeping one row and the first time, and says so again', async () => {
    const user = await makeUser(h, ROLE.MEMBER);
    await mark(user, 'intro_resolve_topic').expect(200);
    const [first] = await stored(user.id);
    const before = await h.lastEventId();
    const again = await mark(user, 'intro_resolve_topic');
    expect(again.body).toEqual({ result: 'success', msg: '' });
    const rows = await stored(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.timestamp).toEqual(first!.timestamp);
    const events = await h.eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['onboarding_steps']);
    expect(events[0]!.event.onboarding_steps).toEqual(offered.filter((s) => s.name !== 'intro_resolve_topic'));
  });

  it('accepts the tour video notice, which is known though never offered', async () => {
    const user = await makeUser(h, ROLE.MEMBER);
    const before = await h.lastEventId();
    await mark(user, 'navigation_tour_video').expect(200);
    expect((await stored(user.id)).map((r) => r.onboardingStep)).toEqual(['navigation_tour_video']);
    expect((await h.eventsSince(before))[0]!.event.onboarding_steps).toEqual(offered);
  });

  it('ends with an empty list once every step is done', async () => {
    const user = await makeUser(h, ROLE.GUEST);
    for (const step of ONBOARDING_STEPS) await mark(user, step.name).expect(200);
    const before = await h.lastEventId();
    await mark(user, 'visibility_policy_banner').expect(200);
    expect((await h.eventsSince(before))[0]!.event.onboarding_steps).toEqual([]);
  });

  it('refuses an unknown step, a missing one, and bots, writing nothing', async () => {
    const user = await makeUser(h, ROLE.MEMBER);
    const before = await h.lastEventId();
    const unknown = await mark(user, 'no_such_step');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ result: 'error', msg: 'Unknown onboarding_step: no_such_step', code: 'BAD_REQUEST' });

    const missing = await mark(user);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ result: 'error', code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'onboarding_step' argument" });

    const bot = await mark(h.realm.bot, 'intro_inbox_view_modal');
    expect(bot.status).toBe(400);
    expect(bot.body).toMatchObject({ result: 'error', msg: 'This endpoint does not accept bot requests.' });

    expect(await stored(user.id)).toEqual([]);
    expect(await stored(h.realm.bot.id)).toEqual([]);
    expect(await h.eventsSince(before)).toEqual([]);
  });
});
