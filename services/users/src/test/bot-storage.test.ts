import request from 'supertest';
import { identityHeaders, type SeededUser } from '@chat/testing';
import { ROLE_NAMES, startHarness, userOf, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  // A small limit, so the size check can be reached.
  h = await startHarness({ BOT_STORAGE_SIZE_LIMIT: '40' });
});
afterAll(() => h?.close());

const put = (user: SeededUser, storage: unknown) =>
  request(h.app.url).put('/api/v1/bot_storage').set(identityHeaders(h.realm.realmId, user)).type('form')
    .send({ storage: typeof storage === 'string' ? storage : JSON.stringify(storage) }).then((r) => r.body);
const get = (user: SeededUser, keys?: unknown) =>
  h.as(user).get(`/bot_storage${keys === undefined ? '' : `?keys=${encodeURIComponent(JSON.stringify(keys))}`}`).then((r) => r.body);
const remove = (user: SeededUser, keys?: unknown) =>
  h.as(user).delete('/bot_storage').send(keys === undefined ? {} : { keys: JSON.stringify(keys) }).then((r) => r.body);

beforeEach(async () => {
  await h.db.botStorageData.deleteMany({});
});

describe('bot storage', () => {
  it('stores, reads and removes entries of the caller', async () => {
    const bot = h.realm.bot;
    expect(await get(bot)).toEqual({ result: 'success', msg: '', storage: {} });
    expect(await put(bot, { cursor: '42', mood: 'ok' })).toEqual({ result: 'success', msg: '' });
    expect(await get(bot)).toEqual({ result: 'success', msg: '', storage: { cursor: '42', mood: 'ok' } });
    expect((await get(bot, ['mood'])).storage).toEqual({ mood: 'ok' });
    // An empty list means every key.
    expect((await get(bot, [])).storage).toEqual({ cursor: '42', mood: 'ok' });
    expect(await put(bot, { cursor: '43' })).toEqual({ result: 'success', msg: '' });
    expect((await get(bot, ['cursor'])).storage).toEqual({ cursor: '43' });
    expect(await remove(bot, ['cursor'])).toEqual({ result: 'success', msg: '' });
    expect((await get(bot)).storage).toEqual({ mood: 'ok' });
    expect(await remove(bot)).toEqual({ result: 'success', msg: '' });
    expect((await get(bot)).storage).toEqual({});
  });

  it.each(ROLE_NAMES)('keeps the %s\'s storage to themselves', async (name) => {
    const user = userOf(h.realm, name);
    expect((await put(user, { who: name })).result).toBe('success');
    expect((await get(user)).storage).toEqual({ who: name });
    const other = name === 'bot' ? h.realm.member : h.realm.bot;
    expect((await get(other)).storage).toEqual({});
    expect(await get(other, ['who'])).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Key does not exist.' });
    expect((await remove(other, ['who'])).msg).toBe('Key does not exist.');
    expect(await h.db.botStorageData.count({ where: { botId: user.id } })).toBe(1);
  });

  it('refuses unknown keys, and removes nothing when one of them is unknown', async () => {
    const bot = h.realm.bot;
    await put(bot, { a: '1', b: '2' });
    expect(await get(bot, ['a', 'nope'])).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Key does not exist.' });
    expect(await remove(bot, ['a', 'nope'])).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Key does not exist.' });
    expect((await get(bot)).storage).toEqual({ a: '1', b: '2' });
  });

  it('refuses values that are not strings, writing nothing', async () => {
    const bot = h.realm.bot;
    expect(await put(bot, { a: 'ok', b: 5 })).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Value type is number, but should be string.' });
    expect((await put(bot, { a: null })).msg).toBe('Value type is null, but should be string.');
    expect((await put(bot, { a: ['x'] })).msg).toBe('Value type is array, but should be string.');
    expect((await put(bot, { a: { b: 'c' } })).msg).toBe('Value type is object, but should be string.');
    expect((await put(bot, ['a'])).msg).toBe('storage is not a dict');
    expect(await put(bot, '{nope')).toMatchObject({ code: 'INVALID_JSON', msg: 'Argument "storage" is not valid JSON.' });
    const missing = await request(h.app.url).put('/api/v1/bot_storage').set(identityHeaders(h.realm.realmId, bot)).type('form').send({});
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'storage' argument" });
    expect((await get(bot, [1])).msg).toBe('keys[0] is not a string');
    expect((await get(bot)).storage).toEqual({});
  });

  it('enforces the size limit over keys and values together', async () => {
    const bot = h.realm.bot;
    // 4 + 30 = 34 of 40 characters.
    expect((await put(bot, { long: 'x'.repeat(30) })).result).toBe('success');
    expect(await put(bot, { more: 'yyy' })).toEqual({
      result: 'error', code: 'BAD_REQUEST', msg: 'Request exceeds storage limit by 1 characters. The limit is 40 characters.',
    });
    // Replacing a value counts only the difference; characters, not bytes, are counted.
    expect((await put(bot, { long: 'é'.repeat(36) })).result).toBe('success');
    expect((await put(bot, { long: 'é'.repeat(37) })).msg).toBe('Request exceeds storage limit by 1 characters. The limit is 40 characters.');
    expect((await get(bot)).storage).toEqual({ long: 'é'.repeat(36) });
    // Another account has its own allowance.
    expect((await put(h.realm.member, { long: 'x'.repeat(36) })).result).toBe('success');
  });
});
