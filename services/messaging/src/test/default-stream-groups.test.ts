/** Default channel groups: /default_stream_groups/create, PATCH/DELETE /default_stream_groups/{id}, .../streams. */
import type { SeededUser } from '@chat/testing';
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
let alpha = 0;
let beta = 0;
let gamma = 0;
let mine = 0;

beforeAll(async () => {
  h = await startHarness();
  const { owner, admin } = h.realm;
  alpha = await h.createStream(owner, { name: 'Alpha' }, []);
  beta = await h.createStream(owner, { name: 'Beta' }, []);
  gamma = await h.createStream(owner, { name: 'Gamma' }, []);
  mine = await h.createStream(owner, { name: 'Mine', inviteOnly: true }, [owner, admin]);
  await h.createStream(owner, { name: 'Hidden', inviteOnly: true }, [owner]);
});
afterAll(() => h?.close());

const form = (method: 'post' | 'patch' | 'delete', path: string, user: SeededUser, body: Record<string, string> = {}) =>
  h.api[method](`/api/v1${path}`).set(h.as(user)).type('form').send(body);
const create = (user: SeededUser, name: string, streams: string[], description = 'd') =>
  form('post', '/default_stream_groups/create', user, { group_name: name, description, stream_names: JSON.stringify(streams) });
const groups = () => h.env.db.defaultStreamGroup.findMany({ where: { realmId: h.realm.realmId }, orderBy: { id: 'asc' } });
const lastEvent = async () => (await outboxEvents(h.env, 'default_stream_groups')).at(-1);
const eventCount = async () => (await outboxEvents(h.env, 'default_stream_groups')).length;
const error = (msg: string) => ({ result: 'error', code: 'BAD_REQUEST', msg });
let first = 0;

describe('POST /default_stream_groups/create', () => {
  it.each(['member', 'moderator', 'guest'] as const)('refuses the %s', async (role) => {
    expect((await create(h.realm[role], 'Team', ['Alpha'])).body).toEqual({
      result: 'error',
      code: 'UNAUTHORIZED_PRINCIPAL',
      msg: 'Must be an organization administrator',
    });
    expect(await groups()).toEqual([]);
  });

  it('creates a group and tells every non-guest the whole list, channels as ids ordered by name', async () => {
    expect((await create(h.realm.admin, 'Team', ['Gamma', 'alpha', 'Mine'], 'For the team')).body).toEqual({ result: 'success', msg: '' });
    const [row] = await groups();
    first = row!.id;
    const event = await lastEvent();
    expect(event!.event).toEqual({
      type: 'default_stream_groups',
      default_stream_groups: [{ id: first, name: 'Team', description: 'For the team', streams: [alpha, gamma, mine] }],
    });
    const { owner, admin, moderator, member, member2, bot } = h.realm;
    expect(event!.users).toEqual([owner.id, admin.id, moderator.id, member.id, member2.id, bot.id].sort((a, b) => a - b));
  });

  it('answers every error of the reference, writing nothing', async () => {
    const before = await eventCount();
    expect((await create(h.realm.admin, 'Team', ['Beta'])).body).toEqual(error("Default channel group 'Team' already exists"));
    expect((await create(h.realm.admin, '  ', ['Beta'])).body).toEqual(error("Invalid default channel group name '  '"));
    expect((await create(h.realm.admin, 'x'.repeat(61), ['Beta'])).body).toEqual(error('Default channel group name too long (limit: 60 characters)'));
    expect((await create(h.realm.admin, 'a\0b', ['Beta'])).body).toEqual(error("Default channel group name 'a\0b' contains NULL (0x00) characters."));
    expect((await create(h.realm.admin, 'Other', ['Nowhere'])).body).toEqual(error("Invalid channel name 'Nowhere'"));
    expect((await create(h.realm.admin, 'Other', ['Hidden'])).body).toEqual(error("Invalid channel name 'Hidden'"));
    expect((await create(h.realm.admin, 'Other', ['Beta'], 'd'.repeat(1025))).body).toEqual(
      error('Default channel group description too long (limit: 1024 characters)'),
    );
    const missing = await form('post', '/default_stream_groups/create', h.realm.admin, { group_name: 'Other', stream_names: '[]' });
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'description' argument" });
    const notJson = await form('post', '/default_stream_groups/create', h.realm.admin, { group_name: 'Other', description: '', stream_names: 'Beta' });
    expect(notJson.body.result).toBe('error');
    // A default channel is offered to everyone already.
    expect((await form('post', '/default_streams', h.realm.admin, { stream_id: String(beta) })).body.result).toBe('success');
    expect((await create(h.realm.admin, 'Other', ['Beta'])).body).toEqual(error("'Beta' is a default channel and cannot be added to 'Other'"));
    expect((await form('delete', '/default_streams', h.realm.admin, { stream_id: String(beta) })).body.result).toBe('success');
    expect(await eventCount()).toBe(before);
    expect((await groups()).map((g) => g.name)).toEqual(['Team']);
  });
});

describe('PATCH /default_stream_groups/{id}', () => {
  it('renames and describes, for administrators only', async () => {
    expect((await form('patch', `/default_stream_groups/${first}`, h.realm.member, { new_group_name: 'Crew' })).body.msg).toBe(
      'Must be an organization administrator',
    );
    expect((await form('patch', `/default_stream_groups/${first}`, h.realm.owner, { new_group_name: 'Crew', new_description: 'All hands' })).body.result).toBe(
      'success',
    );
    expect((await lastEvent())!.event.default_stream_groups).toEqual([{ id: first, name: 'Crew', description: 'All hands', streams: [alpha, gamma, mine] }]);
  });

  it('answers the reference\'s errors', async () => {
    expect((await create(h.realm.admin, 'Second', ['Beta'])).body.result).toBe('success');
    const before = await eventCount();
    const patch = (id: number, body: Record<string, string>) => form('patch', `/default_stream_groups/${id}`, h.realm.admin, body);
    expect((await patch(first, {})).body).toEqual(error('You must pass "new_description" or "new_group_name".'));
    expect((await patch(first, { new_group_name: 'Crew' })).body).toEqual(error("This default channel group is already named 'Crew'"));
    expect((await patch(first, { new_group_name: 'Second' })).body).toEqual(error("Default channel group 'Second' already exists"));
    expect((await patch(first, { new_group_name: 'y'.repeat(61) })).body).toEqual(error('Default channel group name too long (limit: 60 characters)'));
    expect((await patch(987654, { new_group_name: 'Nope' })).body).toEqual(error("Default channel group with id '987654' does not exist."));
    expect(await eventCount()).toBe(before);
  });
});

describe('PATCH /default_stream_groups/{id}/streams', () => {
  const streams = (id: number, op: string, names: string[], user: SeededUser = h.realm.admin) =>
    form('patch', `/default_stream_groups/${id}/streams`, user, { op, stream_names: JSON.stringify(names) });

  it('adds and removes channels', async () => {
    expect((await streams(first, 'add', ['Beta'])).body.result).toBe('success');
    expect((await lastEvent())!.event.default_stream_groups.find((g: { id: number }) => g.id === first).streams).toEqual([alpha, beta, gamma, mine]);
    expect((await streams(first, 'remove', ['Alpha', 'Mine'])).body.result).toBe('success');
    expect((await lastEvent())!.event.default_stream_groups.find((g: { id: number }) => g.id === first).streams).toEqual([beta, gamma]);
  });

  it('answers the reference\'s errors, changing nothing', async () => {
    const before = await eventCount();
    expect((await streams(first, 'add', ['Alpha'], h.realm.moderator)).body.msg).toBe('Must be an organization administrator');
    expect((await streams(first, 'add', ['Alpha', 'Beta'])).body).toEqual(error("Channel 'Beta' is already present in default channel group 'Crew'"));
    expect((await streams(first, 'remove', ['Alpha'])).body).toEqual(error("Channel 'Alpha' is not present in default channel group 'Crew'"));
    expect((await streams(first, 'toggle', ['Alpha'])).body).toEqual(error('Invalid value for "op". Specify one of "add" or "remove".'));
    expect((await streams(first, 'add', ['Hidden'])).body).toEqual(error("Invalid channel name 'Hidden'"));
    expect((await streams(987654, 'add', ['Alpha'])).body).toEqual(error("Default channel group with id '987654' does not exist."));
    expect((await form('post', '/default_streams', h.realm.admin, { stream_id: String(alpha) })).body.result).toBe('success');
    expect((await streams(first, 'add', ['Alpha'])).body).toEqual(error("'Alpha' is a default channel and cannot be added to 'Crew'"));
    expect((await form('delete', '/default_streams', h.realm.admin, { stream_id: String(alpha) })).body.result).toBe('success');
    expect(await eventCount()).toBe(before);
    expect((await groups()).find((g) => g.id === first)!.streamIds).toEqual([gamma, beta]);
  });

  it('takes an archived channel out of every group', async () => {
    expect((await h.api.delete(`/api/v1/streams/${gamma}`).set(h.as(h.realm.admin))).body.result).toBe('success');
    expect((await groups()).find((g) => g.id === first)!.streamIds).toEqual([beta]);
    expect((await lastEvent())!.event.default_stream_groups.find((g: { id: number }) => g.id === first).streams).toEqual([beta]);
  });
});

describe('DELETE /default_stream_groups/{id}', () => {
  it('deletes a group, for administrators only', async () => {
    expect((await form('delete', `/default_stream_groups/${first}`, h.realm.member)).body.msg).toBe('Must be an organization administrator');
    expect((await form('delete', `/default_stream_groups/${first}`, h.realm.admin)).body.result).toBe('success');
    expect((await groups()).map((g) => g.name)).toEqual(['Second']);
    expect((await lastEvent())!.event.default_stream_groups.map((g: { name: string }) => g.name)).toEqual(['Second']);
    expect((await form('delete', `/default_stream_groups/${first}`, h.realm.admin)).body).toEqual(
      error(`Default channel group with id '${first}' does not exist.`),
    );
  });
});
