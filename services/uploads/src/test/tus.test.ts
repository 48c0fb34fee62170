import http from 'node:http';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { start, type UploadsHandle } from '../app';
import { eventually, startHarness, startS3, type Harness, type S3Server } from './support';

// The resumable endpoint on both backends, with two replicas sharing the storage: an upload
// started on one, cut off mid-body, is continued on the other.
const MIB = 1024 * 1024;
const TUS = { 'Tus-Resumable': '1.0.0' };
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe.each(['local', 's3'])('tus on %s storage', (backend) => {
  let s3: S3Server | undefined;
  let h: Harness;
  let second: UploadsHandle;

  beforeAll(async () => {
    s3 = backend === 's3' ? await startS3() : undefined;
    h = await startHarness({ ...(s3?.env ?? {}), MAX_FILE_UPLOAD_SIZE_MIB: '8' });
    // A second replica: same database, Redis prefix and storage, no background workers.
    second = await start({ ...h.env.env, ...(s3?.env ?? {}), UPLOADS_DIR: h.dir, MAX_FILE_UPLOAD_SIZE_MIB: '8', RUN_WORKERS: 'false' });
  });
  afterAll(async () => {
    await second.stop();
    await h.close();
    await s3?.close();
  });

  const create = async (url: string, size: number, name = 'video.mp4', type = 'video/mp4') => {
    const res = await request(url)
      .post('/api/v1/tus')
      .set({ ...h.as(h.realm.member), ...TUS, 'Upload-Length': String(size), 'Upload-Metadata': `filename ${b64(name)},filetype ${b64(type)}` })
      .expect(201);
    expect(res.headers.location).toMatch(/^\/api\/v1\/tus\/[A-Za-z0-9_-]+$/);
    return res.headers.location as string;
  };

  const offsetOf = async (url: string, location: string, as = h.realm.member) => {
    const res = await request(url).head(location).set({ ...h.as(as), ...TUS });
    return res.status === 200 ? Number(res.headers['upload-offset']) : -res.status;
  };

  /** Sends `body` as a PATCH at `offset` but drops the connection after `sendBytes` bytes. */
  const interruptedPatch = (url: string, location: string, offset: number, body: Buffer, sendBytes: number) =>
    new Promise<void>((resolve) => {
      const u = new URL(url);
      const req = http.request({
        host: u.hostname,
        port: u.port,
        path: location,
        method: 'PATCH',
        headers: {
          ...h.as(h.realm.member), ...TUS,
          'Upload-Offset': String(offset),
          'Content-Type': 'application/offset+octet-stream',
          'Content-Length': String(body.length),
        },
      });
      req.on('error', () => resolve());
      req.write(body.subarray(0, sendBytes), () => setTimeout(() => {
        req.destroy();
        resolve();
      }, 200));
    });

  it('uploads in one go and answers like POST /user_uploads', async () => {
    const data = randomBytes(300 * 1024);
    const location = await create(h.uploads.url, data.length, 'clip.mp4');
    const res = await request(h.uploads.url)
      .patch(location)
      .set({ ...h.as(h.realm.member), ...TUS, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' })
      .send(data)
      .expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ result: 'success', msg: '', url: expect.any(String), uri: expect.any(String), filename: 'clip.mp4' });
    expect(res.body.url).toMatch(new RegExp(`^/user_uploads/${h.realm.realmId}/[0-9a-f]{1,2}/[A-Za-z0-9_-]{24}/clip\\.mp4$`));
    const pathId = res.body.url.slice('/user_uploads/'.length);
    expect(await h.env.db.attachment.findUnique({ where: { pathId } })).toMatchObject({ ownerId: h.realm.member.id, size: BigInt(data.length), contentType: 'video/mp4' });
    const file = await request(h.uploads.url).get(res.body.url).set(h.as(h.realm.member)).redirects(0);
    const bytes = file.status === 302 ? Buffer.from(await (await fetch(file.headers.location)).arrayBuffer()) : file.body;
    expect(Buffer.compare(bytes, data)).toBe(0);
    // Until shared, only the uploader can read it, as with any upload.
    await request(h.uploads.url).get(res.body.url).set(h.as(h.realm.member2)).expect(403);
    // A finished upload still reports its offset, and cannot be terminated through tus.
    expect(await offsetOf(h.uploads.url, location)).toBe(data.length);
    await request(h.uploads.url).delete(location).set({ ...h.as(h.realm.member), ...TUS }).expect(400);
  });

  it('resumes on another replica after the connection dropped mid-body', async () => {
    const data = randomBytes(6 * MIB + 333);
    const location = await create(h.uploads.url, data.length, 'big.bin', 'application/octet-stream');
    await interruptedPatch(h.uploads.url, location, 0, data, 2 * MIB);
    // The bytes that arrived before the drop are kept, as seen from the other replica.
    const offset = await eventually(async () => {
      const o = await offsetOf(second.url, location);
      return o > 0 ? o : null;
    });
    expect(offset).toBeLessThanOrEqual(2 * MIB);
    expect(await h.env.db.attachment.count({ where: { fileName: 'big.bin' } })).toBe(0);
    const res = await request(second.url)
      .patch(location)
      .set({ ...h.as(h.realm.member), ...TUS, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' })
      .send(data.subarray(offset))
      .expect(200);
    expect(res.body.filename).toBe('big.bin');
    const file = await request(h.uploads.url).get(res.body.url).set(h.as(h.realm.member)).redirects(0);
    const bytes = file.status === 302 ? Buffer.from(await (await fetch(file.headers.location)).arrayBuffer()) : file.body;
    expect(bytes.length).toBe(data.length);
    expect(Buffer.compare(bytes, data)).toBe(0);
  });

  it('refuses a wrong offset', async () => {
    const location = await create(h.uploads.url, 10);
    await request(h.uploads.url)
      .patch(location)
      .set({ ...h.as(h.realm.member), ...TUS, 'Upload-Offset': '5', 'Content-Type': 'application/offset+octet-stream' })
      .send(Buffer.alloc(5))
      .expect(409);
  });

  it('hides an upload from everyone but its uploader', async () => {
    const location = await create(h.uploads.url, 100);
    for (const user of [h.realm.member2, h.realm.admin, h.realm.owner]) {
      expect(await offsetOf(h.uploads.url, location, user)).toBe(-404);
      await request(h.uploads.url)
        .patch(location)
        .set({ ...h.as(user), ...TUS, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' })
        .send(Buffer.alloc(100))
        .expect(404);
    }
    expect(await offsetOf(h.uploads.url, location)).toBe(0);
    // The uploader may abandon it.
    await request(h.uploads.url).delete(location).set({ ...h.as(h.realm.member), ...TUS }).expect(204);
    expect(await offsetOf(h.uploads.url, location)).toBe(-404);
  });

  it('answers 412 with Tus-Version to a client of another protocol version, or of none', async () => {
    const before = await h.env.db.attachment.count();
    for (const version of ['2.0.0', '0.2.2', undefined]) {
      const res = await request(h.uploads.url).post('/api/v1/tus')
        .set({ ...h.as(h.realm.member), ...(version ? { 'Tus-Resumable': version } : {}), 'Upload-Length': '3' });
      expect([version, res.status, res.headers['tus-version'], res.headers['tus-resumable']]).toEqual([version, 412, '1.0.0', '1.0.0']);
      expect(res.headers.location).toBeUndefined();
    }
    const options = await request(h.uploads.url).options('/api/v1/tus').set(h.as(h.realm.member));
    expect(options.headers['tus-version']).toBe('1.0.0');
    expect(await h.env.db.attachment.count()).toBe(before);
  });

  it('refuses uploads over the limit and anonymous clients', async () => {
    const res = await request(h.uploads.url)
      .post('/api/v1/tus')
      .set({ ...h.as(h.realm.member), ...TUS, 'Upload-Length': String(8 * MIB + 1) })
      .expect(413);
    expect(JSON.parse(res.text)).toMatchObject({ result: 'error', msg: 'Uploaded file is larger than the allowed limit of 8 MiB' });
    await request(h.uploads.url).post('/api/v1/tus').set({ ...h.as(), ...TUS, 'Upload-Length': '10' }).expect(401);
  });

  it('accepts the whole file in the creation request', async () => {
    const res = await request(h.uploads.url)
      .post('/api/v1/tus')
      .set({
        ...h.as(h.realm.member), ...TUS,
        'Upload-Length': '5',
        'Upload-Metadata': `filename ${b64('tiny.txt')}`,
        'Content-Type': 'application/offset+octet-stream',
      })
      .send(Buffer.from('hello'))
      .expect(200);
    expect(JSON.parse(res.text)).toMatchObject({ result: 'success', filename: 'tiny.txt' });
  });
});
