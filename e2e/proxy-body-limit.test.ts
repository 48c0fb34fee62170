/**
 * Uploads behind nginx, as `npm run cluster` runs it: the proxy lets a body of the uploads
 * service's limit plus multipart overhead through, so a file over the limit is refused by the
 * service in the API's envelope, and a body beyond even the proxy's cap gets the same envelope
 * from nginx instead of its HTML page. The limit is lowered here so the files stay small.
 */
import http from 'node:http';
import { proxyBodyLimitMib, seedRealm, setupTestEnv, startCluster, type Cluster, type SeededRealm, type TestEnv } from '@chat/testing';
import { client } from './lib/event-queues';

const LIMIT_MIB = 2;
const MIB = 1024 * 1024;

let env: TestEnv;
let realm: SeededRealm;
let cluster: Cluster;
const call = client(() => cluster.url);

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  cluster = await startCluster(env, { balance: true, env: { MAX_FILE_UPLOAD_SIZE_MIB: String(LIMIT_MIB) }, readyTimeoutMs: 180_000 });
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  await env?.close();
});

const upload = (bytes: number) =>
  call('POST', '/user_uploads', realm.member, {}, { files: [{ field: 'file', name: 'data.bin', type: 'application/octet-stream', data: Buffer.alloc(bytes, 7) }] });

/** Announces a body of `bytes` and waits for the answer: nginx decides on Content-Length alone. */
function announce(bytes: number): Promise<{ status: number; type: string; body: string }> {
  const url = new URL(`${cluster.url}/api/v1/user_uploads`);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${realm.member.email}:${realm.member.apiKey}`).toString('base64')}`,
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(bytes),
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body }));
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

it('accepts a file at the limit, with its multipart overhead', async () => {
  const res = await upload(LIMIT_MIB * MIB);
  expect(res.body).toMatchObject({ result: 'success', url: expect.stringMatching(/^\/user_uploads\//) });
});

it('refuses a file over the limit in the envelope, from the uploads service', async () => {
  const res = await upload(LIMIT_MIB * MIB + 1);
  expect(res.status).toBe(413);
  expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: `Uploaded file is larger than the allowed limit of ${LIMIT_MIB} MiB` });
});

it("answers a body beyond the proxy's cap in the envelope too, not with nginx's page", async () => {
  const res = await announce((proxyBodyLimitMib(LIMIT_MIB) + 1) * MIB);
  expect([res.status, res.type]).toEqual([413, 'application/json']);
  expect(JSON.parse(res.body)).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: `Uploaded file is larger than the allowed limit of ${LIMIT_MIB} MiB` });
});
