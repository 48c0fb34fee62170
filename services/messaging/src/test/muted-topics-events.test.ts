/** Setting a topic's visibility tells older clients too: a muted_topics event with the whole list. */
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
let denmark: number;

beforeAll(async () => {
  h = await startHarness();
  const { owner, member } = h.realm;
  denmark = await h.createStream(owner, { name: 'Denmark' }, [owner, member]);
});
afterAll(() => h?.close());

const setPolicy = (topic: string, policy: number) =>
  h.api.post('/api/v1/user_topics').set(h.as(h.realm.member)).type('form').send({ stream_id: String(denmark), topic, visibility_policy: String(policy) });

it('sends the muted_topics list before each user_topic event, to the user only', async () => {
  expect((await setPolicy('ghosts', 1)).status).toBe(200);
  expect((await setPolicy('castle', 3)).status).toBe(200);
  expect((await setPolicy('plays', 1)).status).toBe(200);
  const lists = (await outboxEvents(h.env, 'muted_topics')).map((p) => {
    expect(p.users).toEqual([h.realm.member.id]);
    return (p.event.muted_topics as Array<[string, string, number]>).map(([channel, topic]) => `${channel}>${topic}`);
  });
  // Following a topic is not muting it: the list stays as it was.
  expect(lists).toEqual([['Denmark>ghosts'], ['Denmark>ghosts'], ['Denmark>ghosts', 'Denmark>plays']]);
  expect((await setPolicy('ghosts', 0)).status).toBe(200);
  const last = (await outboxEvents(h.env, 'muted_topics')).at(-1)!;
  expect(last.event.muted_topics).toEqual([['Denmark', 'plays', expect.any(Number)]]);
  expect((await outboxEvents(h.env, 'user_topic')).length).toBe(4);
});
