/**
 * Realm exports kept in an S3-compatible store (a real s3rver), as a cluster whose uploads live
 * in S3 keeps them: any replica can then serve what another wrote.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startHarness, type Harness } from './support';

let h: Harness;
let s3: { close(): Promise<void> };
let s3Dir: string;
let client: S3Client;
const bucket = 'chat-uploads';

beforeAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const S3rver = require('s3rver');
  s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: bucket }] });
  const { port } = (await server.run()) as { port: number };
  s3 = server;
  const endpoint = `http://127.0.0.1:${port}`;
  client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  // UPLOADS_BACKEND alone chooses S3 for exports too; EXPORT_DIR must then stay unused.
  h = await startHarness({
    UPLOADS_BACKEND: 's3', S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER',
    EXPORT_DIR: path.join(s3Dir, 'never-used'),
  });
});
afterAll(async () => {
  await h?.close();
  await s3?.close();
  fs.rmSync(s3Dir, { recursive: true, force: true });
});

async function finished(id: number) {
  for (let i = 0; i < 200; i++) {
    const row = await h.db.realmExport.findUniqueOrThrow({ where: { id } });
    if (row.status >= 3) return row;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`export ${id} did not finish`);
}

const objectExists = (key: string) =>
  client.send(new GetObjectCommand({ Bucket: bucket, Key: key })).then(() => true, () => false);

it('stores the tarball in the bucket, serves it at its URL, and deletes it', async () => {
  const id = (await h.as(h.realm.admin).post('/export/realm').send({})).body.id;
  const row = await finished(id);
  expect(row.status).toBe(3);
  expect(await objectExists(row.exportPath!)).toBe(true);
  expect(fs.existsSync(path.join(s3Dir, 'never-used'))).toBe(false);

  const url = (await h.as(h.realm.admin).get('/export/realm')).body.exports.find((e: { id: number }) => e.id === id).export_url as string;
  const res = await h.as().site(new URL(url).pathname).buffer(true).parse((r, cb) => {
    const chunks: Buffer[] = [];
    r.on('data', (c: Buffer) => chunks.push(c));
    r.on('end', () => cb(null, Buffer.concat(chunks)));
  });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/gzip');
  expect(gunzipSync(res.body as Buffer).toString('latin1')).toContain('realm.json');

  expect((await h.as(h.realm.admin).delete(`/export/realm/${id}`)).body.result).toBe('success');
  expect(await objectExists(row.exportPath!)).toBe(false);
  expect((await h.as().site(new URL(url).pathname)).status).toBe(404);
});
