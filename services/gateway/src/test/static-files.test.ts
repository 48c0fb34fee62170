import { readFileSync } from 'node:fs';
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import request from 'supertest';
import type { ServiceHandle } from '@chat/kit';
import { SERVER_EMOJI_DATA_PATH } from '@chat/contracts';
import { setupTestEnv, type TestEnv } from '@chat/testing';
import { start } from '../app';

// The vendored table as the family ships it, read apart from the code that serves it.
const table = JSON.parse(readFileSync(require.resolve('@chat/emoji/data/emoji-names.json'), 'utf8')) as {
  emoji: Record<string, { code: string; aliases: string[] }>;
};
const tableNames = Object.values(table.emoji).reduce((n, e) => n + 1 + e.aliases.length, 0);

let env: TestEnv;
let gateway: ServiceHandle;

beforeAll(async () => {
  env = await setupTestEnv();
  // No owner service answers: the file must come from the gateway itself.
  const urls = Object.fromEntries(['MESSAGING', 'USERS', 'EVENTS', 'UPLOADS', 'PUSH'].map((s) => [`${s}_URL`, 'http://127.0.0.1:9']));
  gateway = await start({ ...env.env, ...urls, PORT: '0', RATE_LIMIT_PER_MINUTE: '0' });
});

afterAll(async () => {
  await gateway.stop();
  await env.close();
});

describe('GET /static/generated/emoji/emoji_api.json (server_emoji_data_url)', () => {
  it('serves every name of the table, canonical first, to anyone', async () => {
    const res = await request(gateway.url).get(SERVER_EMOJI_DATA_PATH).set('Accept-Encoding', 'identity');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('public, max-age=604800');
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    const codeToNames = res.body.code_to_names as Record<string, string[]>;
    expect(Object.keys(res.body)).toEqual(['code_to_names']);
    expect(codeToNames['1f44d']).toEqual(['+1', 'thumbs_up', 'like']);
    expect(codeToNames['1f642']).toEqual(['smile']);
    expect(Object.values(codeToNames).reduce((n, names) => n + names.length, 0)).toBe(tableNames);
    expect(tableNames).toBe(2887);
    for (const [canonical, e] of Object.entries(table.emoji)) expect(codeToNames[e.code]).toEqual([canonical, ...e.aliases]);
  });

  it('answers a matching If-None-Match with 304 and gzips for clients that take it', async () => {
    const first = await request(gateway.url).get(SERVER_EMOJI_DATA_PATH).set('Accept-Encoding', 'identity');
    const again = await request(gateway.url).get(SERVER_EMOJI_DATA_PATH).set('Accept-Encoding', 'identity').set('If-None-Match', first.headers.etag!);
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
    const stale = await request(gateway.url).get(SERVER_EMOJI_DATA_PATH).set('Accept-Encoding', 'identity').set('If-None-Match', '"stale"');
    expect(stale.status).toBe(200);

    // Raw bytes, read with node's http so nothing inflates them on the way.
    const gz = await rawGet(`${gateway.url}${SERVER_EMOJI_DATA_PATH}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('Accept-Encoding');
    expect(gz.headers.etag).not.toBe(first.headers.etag);
    expect(JSON.parse(gunzipSync(gz.body).toString('utf8'))).toEqual(JSON.parse(first.text));
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await request(gateway.url).head(SERVER_EMOJI_DATA_PATH).set('Accept-Encoding', 'identity');
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(10000);
    const post = await request(gateway.url).post(SERVER_EMOJI_DATA_PATH);
    expect(post.status).toBe(405);
    expect(post.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Method Not Allowed' });
    expect((await request(gateway.url).get('/static/generated/emoji/other.json')).status).toBe(404);
  });
});

function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}
