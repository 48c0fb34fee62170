/**
 * The web app's files from a dist folder this test writes: immutable, compressed both ways,
 * revalidated by ETag, nothing outside the folder; and `/` when there is no build.
 */
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import type { ServiceHandle } from '@chat/kit';
import { setupTestEnv, seedRealm, type TestEnv } from '@chat/testing';
import { start } from '../app';

let env: TestEnv;
let gateway: ServiceHandle;
let dist: string;
let outside: string;
const script = `export function hello(){return ${JSON.stringify('hello from the web app '.repeat(200))}}\n`;
const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

beforeAll(async () => {
  env = await setupTestEnv();
  await seedRealm(env.db);
  dist = mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
  outside = mkdtempSync(path.join(os.tmpdir(), 'web-outside-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<meta name="csrf-token" content="__CSRF_TOKEN__">');
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), script);
  writeFileSync(path.join(dist, 'assets', 'logo-def456.png'), png);
  writeFileSync(path.join(dist, 'assets', '.hidden'), 'hidden');
  writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  symlinkSync(path.join(outside, 'secret.txt'), path.join(dist, 'assets', 'escape.txt'));
  gateway = await start({ ...env.env, PORT: '0', WEB_DIST_DIR: dist, RATE_LIMIT_PER_MINUTE: '0' });
});

afterAll(async () => {
  await gateway?.stop();
  await env?.close();
  rmSync(dist, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** A GET whose body comes back as sent (no client decompression), with its headers. */
function raw(urlPath: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(`${gateway.url}${urlPath}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe('/static/app/', () => {
  const js = '/static/app/assets/index-abc123.js';

  it('serves a build file for a year, immutable, with its type and ETag', async () => {
    const res = await raw(js, { 'accept-encoding': 'identity' });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(script);
    expect(res.headers).toMatchObject({ 'cache-control': 'public, max-age=31536000, immutable', 'content-type': 'text/javascript; charset=utf-8', vary: 'Accept-Encoding' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.etag).toMatch(/^"[\w-]{27}"$/);
    expect((await raw(js, { 'accept-encoding': 'identity', 'if-none-match': res.headers.etag! })).status).toBe(304);
  });

  it('compresses with brotli where accepted, else gzip, each with its own ETag', async () => {
    // Brotli is made after the first answer, off the event loop: gzip until it is ready.
    let br = await raw(js, { 'accept-encoding': 'gzip, deflate, br' });
    for (let i = 0; br.headers['content-encoding'] !== 'br' && i < 100; i++) {
      expect(br.headers['content-encoding']).toBe('gzip');
      await new Promise((r) => setTimeout(r, 50));
      br = await raw(js, { 'accept-encoding': 'gzip, deflate, br' });
    }
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    expect(br.body.length).toBeLessThan(script.length / 5);
    const gz = await raw(js, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);
    expect(new Set([br.headers.etag, gz.headers.etag]).size).toBe(2);
    expect((await raw(js, { 'accept-encoding': 'gzip', 'if-none-match': gz.headers.etag! })).status).toBe(304);
    // Already compressed formats go as they are.
    const image = await raw('/static/app/assets/logo-def456.png', { 'accept-encoding': 'gzip, br' });
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.body).toEqual(png);
  });

  it('answers 404 for anything that is not a file of the build, and reads nothing outside it', async () => {
    for (const p of ['/static/app/assets/nothing.js', '/static/app/index.html', '/static/app/assets/.hidden', '/static/app/assets/escape.txt',
      '/static/app/assets/%2e%2e/index.html', '/static/app/..%2f..%2fetc%2fpasswd', '/static/app/assets/..%5cindex.html', '/static/app/assets/%00.js',
      '/static/app/assets//index-abc123.js', '/static/app/%E0%A4%A.js']) {
      const res = await raw(p);
      expect({ p, status: res.status }).toEqual({ p, status: 404 });
      expect(res.body.toString()).not.toContain('secret');
    }
    expect((await request(gateway.url).post(js)).status).toBe(405);
    expect((await request(gateway.url).head(js)).status).toBe(200);
  });
});

describe('/ without a build', () => {
  it('says the web app is not built, and does not crash', async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'web-empty-'));
    const bare = await start({ ...env.env, PORT: '0', WEB_DIST_DIR: empty, RATE_LIMIT_PER_MINUTE: '0' });
    try {
      const res = await request(bare.url).get('/');
      expect(res.status).toBe(503);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.text).toContain('The web app is not built');
      expect((await request(bare.url).get('/static/app/assets/index-abc123.js')).status).toBe(404);
      // A build that appears later is served without a restart.
      writeFileSync(path.join(empty, 'index.html'), '<meta name="csrf-token" content="__CSRF_TOKEN__">');
      expect((await request(bare.url).get('/')).text).toContain("location.replace('/login/?next='");
    } finally {
      await bare.stop();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
