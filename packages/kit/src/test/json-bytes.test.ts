import express from 'express';
import request from 'supertest';
import { FAMILY_EXTRA_EMOJI_TYPE, SPEC_EXTRA_EMOJI_TYPE, toFamilyDialect } from '@chat/contracts';
import { jsonBytes, sendSuccess } from '..';

const same = (value: unknown) => expect(jsonBytes(value).toString('utf8')).toBe(JSON.stringify(value));

describe('jsonBytes', () => {
  it('writes what JSON.stringify writes, for every kind of value at every depth', () => {
    const message = (i: number) => ({
      id: i, content: `<p>message ${i} — ünïcödé 😀 "quoted" \\ back\nline</p>`, flags: ['read'], reactions: [],
      edited: undefined, fn: () => 1, when: new Date(Date.UTC(2026, 0, 1, 0, 0, i)), nested: { a: [1, 2, { b: null }] },
    });
    same({ result: 'success', msg: '', messages: Array.from({ length: 50 }, (_, i) => message(i)), found_newest: true });
    // Arrays: holes, undefined, functions and symbols inside become null, as JSON.stringify makes them.
    same({ list: [1, undefined, () => 2, Symbol('s'), null, 'x', 3, 4, 5, [undefined], { y: undefined }] });
    // Members with no JSON form are left out, wherever they stand, the first one included.
    same({ a: undefined, b: 1, c: () => 1, d: Symbol('d'), e: 'e', f: 2, g: 3, h: 4, i: { x: undefined, y: 1 } });
    same({ big: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k"${i}\u2028`, i % 3 ? i : undefined])) });
    // toJSON, class instances, objects without a prototype, Maps and empty containers.
    same({ gone: { toJSON: () => undefined }, list: [{ toJSON: () => undefined }, 2, 3, 4, 5, 6, 7, 8] });
    same({ d: new Date(0), custom: { toJSON: () => ['t'] }, list: Object.assign([1, 2, 3, 4, 5, 6, 7, 8, 9], { toJSON: () => 'arr' }) });
    const bare = Object.create(null) as Record<string, unknown>;
    Object.assign(bare, { a: 1, b: [1, 2, 3, 4, 5, 6, 7, 8], c: 'c', d: 4, e: 5, f: 6, g: 7, h: 8 });
    same({ bare, map: new Map([[1, 2]]), empty: {}, none: [], inner: { empty: {}, none: [] } });
    same({ numbers: [0, -0, 1.5, NaN, Infinity, 1e21, 2 ** 53] });
    // Lone surrogates are escaped by JSON.stringify; the bytes agree with its text.
    same({ odd: ['\ud800', 'a\udc00b', '\ud83d\ude00', 'x', 'y', 'z', 'w', 'v'] });
  });

  it('passes every piece through the converter, members whole', () => {
    const reactions = Array.from({ length: 10 }, (_, i) => ({ emoji_name: `e${i}`, reaction_type: SPEC_EXTRA_EMOJI_TYPE }));
    const body = { messages: Array.from({ length: 12 }, (_, i) => ({ id: i, reactions })), reaction_type: SPEC_EXTRA_EMOJI_TYPE };
    const text = jsonBytes(body, toFamilyDialect).toString();
    expect(text).toBe(toFamilyDialect(JSON.stringify(body)));
    expect(text).toContain(FAMILY_EXTRA_EMOJI_TYPE);
    expect(text).not.toContain(SPEC_EXTRA_EMOJI_TYPE);
  });
});

describe('sendSuccess', () => {
  const app = express();
  const page = Array.from({ length: 2000 }, (_, i) => ({ id: i, content: `<p>é ${'x'.repeat(200)}</p>`, reaction_type: SPEC_EXTRA_EMOJI_TYPE }));
  app.get('/page', (_req, res) => sendSuccess(res, { messages: page }, ['odd']));

  it('answers a large page in full with its length and type, in the client dialect', async () => {
    const res = await request(app).get('/page').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.body).toEqual({ result: 'success', msg: '', messages: page, ignored_parameters_unsupported: ['odd'] });
    const family = await request(app).get('/page').set('User-Agent', 'ZulipMobile/27.0').expect(200);
    expect(family.text).toBe(toFamilyDialect(res.text));
    expect(family.body.messages[0].reaction_type).toBe(FAMILY_EXTRA_EMOJI_TYPE);
  });
});
