import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import request from 'supertest';
import { startHarness, startS3, type Harness, type S3Server } from './support';

// The service end to end on the S3 backend: uploads land in the bucket, downloads are signed
// redirects handed out only after the access check.
let s3: S3Server;
let h: Harness;
let client: S3Client;

beforeAll(async () => {
  s3 = await startS3();
  h = await startHarness({ ...s3.env, MAX_FILE_UPLOAD_SIZE_MIB: '6' });
  client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
});
afterAll(async () => {
  client.destroy();
  await h.close();
  await s3.close();
});

const api = () => request(h.uploads.url);
const keys = async () => ((await client.send(new ListObjectsV2Command({ Bucket: 'chat-uploads' }))).Contents ?? []).map((o) => o.Key!);

it('stores uploads in the bucket under their path id', async () => {
  const res = await api()
    .post('/api/v1/user_uploads')
    .set(h.as(h.realm.member))
    .attach('file', Buffer.from('in the bucket'), { filename: 'b.txt', contentType: 'text/plain' })
    .expect(200);
  const pathId = res.body.url.slice('/user_uploads/'.length);
  expect(await keys()).toContain(pathId);
});

it('streams a multi-part file through and serves it by signed redirect', async () => {
  const body = Buffer.alloc(5 * 1024 * 1024 + 123, 3);
  const res = await api()
    .post('/api/v1/user_uploads')
    .set(h.as(h.realm.member))
    .attach('file', body, { filename: 'data.bin', contentType: 'application/octet-stream' })
    .expect(200);
  const redirect = await api().get(res.body.url).set(h.as(h.realm.member)).expect(302);
  expect(redirect.headers.location).toMatch(new RegExp(`^${s3.endpoint}/chat-uploads/`));
  expect(redirect.headers.location).toMatch(/X-Amz-Signature=/);
  expect(redirect.headers['cache-control']).toBe('private, no-store');
  const file = await fetch(redirect.headers.location);
  expect(Buffer.from(await file.arrayBuffer()).equals(body)).toBe(true);
  expect(file.headers.get('content-disposition')).toBe('attachment; filename="data.bin"');
});

it('gives no redirect to someone without access', async () => {
  const res = await api().post('/api/v1/user_uploads').set(h.as(h.realm.member)).attach('file', Buffer.from('x'), 'private.txt');
  const denied = await api().get(res.body.url).set(h.as(h.realm.member2)).expect(403);
  expect(denied.headers.location).toBeUndefined();
  // The temporary-URL endpoint returns the signed URL itself.
  const temp = await api().get(`/api/v1${res.body.url}`).set(h.as(h.realm.member)).expect(200);
  expect(temp.body.url).toMatch(/X-Amz-Signature=/);
});

it('leaves nothing in the bucket when a file is over the limit', async () => {
  const before = await keys();
  await api()
    .post('/api/v1/user_uploads')
    .set(h.as(h.realm.member))
    .attach('file', Buffer.alloc(6 * 1024 * 1024 + 1), 'too-big.bin')
    .expect(413);
  expect(await keys()).toEqual(before);
});
