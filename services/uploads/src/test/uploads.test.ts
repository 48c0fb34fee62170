import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import request from 'supertest';
import { filesUnder, startHarness, type Harness } from './support';

let h: Harness;
const MIB = 1024 * 1024;

beforeAll(async () => {
  h = await startHarness({ MAX_FILE_UPLOAD_SIZE_MIB: '1' });
});
afterAll(() => h.close());

const api = () => request(h.uploads.url);

describe('POST /user_uploads', () => {
  it('stores the file and answers url, uri and filename', async () => {
    const res = await api()
      .post('/api/v1/user_uploads')
      .set(h.as(h.realm.member))
      .attach('file', Buffer.from('hello world'), { filename: 'my notes (v2).txt', contentType: 'text/plain' })
      .expect(200);
    expect(res.body).toMatchObject({ result: 'success', msg: '', filename: 'my notes (v2).txt' });
    expect(res.body.url).toMatch(new RegExp(`^/user_uploads/${h.realm.realmId}/[0-9a-f]{1,2}/[A-Za-z0-9_-]{24}/my-notes-v2.txt$`));
    expect(res.body.uri).toBe(res.body.url);
    const pathId = res.body.url.slice('/user_uploads/'.length);
    expect(fs.readFileSync(path.join(h.dir, pathId), 'utf8')).toBe('hello world');
    const row = await h.env.db.attachment.findUniqueOrThrow({ where: { pathId } });
    expect(row).toMatchObject({ ownerId: h.realm.member.id, fileName: 'my notes (v2).txt', size: 11n, contentType: 'text/plain' });
  });

  it('guesses a missing extension from the type and keeps non-Latin names readable', async () => {
    const png = await api()
      .post('/api/v1/user_uploads')
      .set(h.as(h.realm.member))
      .attach('f', Buffer.from('x'), { filename: 'screenshot', contentType: 'image/png' })
      .expect(200);
    expect(png.body.filename).toBe('screenshot.png');
    expect(png.body.url).toMatch(/\/screenshot\.png$/);
    const cyrillic = await api()
      .post('/api/v1/user_uploads')
      .set(h.as(h.realm.member))
      .attach('f', Buffer.from('x'), { filename: 'отчёт 2024.pdf', contentType: 'application/pdf' })
      .expect(200);
    expect(cyrillic.body.url).toMatch(/\/отчёт-2024\.pdf$/);
  });

  it('refuses a request without a file, or with two', async () => {
    const none = await api().post('/api/v1/user_uploads').set(h.as(h.realm.member)).field('a', 'b').expect(400);
    expect(none.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'You must specify a file to upload' });
    const form = await api().post('/api/v1/user_uploads').set(h.as(h.realm.member)).send('x=1').expect(400);
    expect(form.body.msg).toBe('You must specify a file to upload');
    const before = filesUnder(h.dir).length;
    const two = await api()
      .post('/api/v1/user_uploads')
      .set(h.as(h.realm.member))
      .attach('a', Buffer.from('one'), 'a.txt')
      .attach('b', Buffer.from('two'), 'b.txt')
      .expect(400);
    expect(two.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'You may only upload one file at a time' });
    expect(filesUnder(h.dir).length).toBe(before);
  });

  it('refuses a file over the limit with the envelope and keeps nothing of it', async () => {
    const before = filesUnder(h.dir);
    const res = await api()
      .post('/api/v1/user_uploads')
      .set(h.as(h.realm.member))
      .attach('file', Buffer.alloc(MIB + 1, 1), 'big.bin')
      .expect(413);
    expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Uploaded file is larger than the allowed limit of 1 MiB' });
    expect(filesUnder(h.dir)).toEqual(before);
    expect(await h.env.db.attachment.count({ where: { fileName: 'big.bin' } })).toBe(0);
    // Exactly at the limit is fine.
    await api().post('/api/v1/user_uploads').set(h.as(h.realm.member)).attach('file', Buffer.alloc(MIB, 1), 'exact.bin').expect(200);
  });

  it('refuses a body announced as too large before reading it', async () => {
    // A client announcing 50 MiB but sending only the start: the answer must come without
    // the service waiting for (or buffering) the rest.
    const boundary = 'xyz';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\n\r\n`;
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(`${h.uploads.url}/api/v1/user_uploads`);
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { ...h.as(h.realm.member), 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(50 * MIB) },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on('error', reject);
      req.write(head);
      req.write(Buffer.alloc(64 * 1024));
    });
    expect(status).toBe(413);
    expect(JSON.parse(body).msg).toBe('Uploaded file is larger than the allowed limit of 1 MiB');
  });

  it('requires a logged-in user', async () => {
    const res = await api().post('/api/v1/user_uploads').set(h.as()).attach('file', Buffer.from('x'), 'x.txt').expect(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
    await api().post('/api/v1/user_uploads').attach('file', Buffer.from('x'), 'x.txt').expect(401);
  });
});

describe('serving an unshared upload', () => {
  let url: string;
  beforeAll(async () => {
    const res = await api()
      .post('/api/v1/user_uploads')
      .set(h.as(h.realm.member))
      .attach('file', Buffer.from('secret plan'), { filename: 'plan.txt', contentType: 'text/plain' });
    url = res.body.url;
  });

  it('serves the uploader', async () => {
    const res = await api().get(url).set(h.as(h.realm.member)).expect(200);
    expect(res.text).toBe('secret plan');
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['content-disposition']).toBe('inline; filename="plan.txt"');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves byte ranges', async () => {
    const res = await api().get(url).set(h.as(h.realm.member)).set('Range', 'bytes=0-5').expect(206);
    expect(res.text).toBe('secret');
  });

  it('offers a download', async () => {
    const res = await api().get(url.replace('/user_uploads/', '/user_uploads/download/')).set(h.as(h.realm.member)).expect(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="plan.txt"');
  });

  it('refuses everyone else, whatever their role', async () => {
    for (const user of [h.realm.owner, h.realm.admin, h.realm.moderator, h.realm.member2, h.realm.guest, h.realm.bot]) {
      const res = await api().get(url).set(h.as(user)).expect(403);
      expect(res.body).toMatchObject({ result: 'error', msg: 'You are not authorized to view this file.' });
    }
  });

  it('asks anonymous visitors to log in', async () => {
    const res = await api().get(url).set(h.as()).expect(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  it('answers 404 for files that do not exist or belong to another realm', async () => {
    await api().get(`/user_uploads/${h.realm.realmId}/ab/AAAAAAAAAAAAAAAAAAAAAAAA/nope.txt`).set(h.as(h.realm.member)).expect(404);
    const other = url.replace(`/user_uploads/${h.realm.realmId}/`, `/user_uploads/${h.realm.realmId + 1000}/`);
    await api().get(other).set(h.as(h.realm.member)).expect(404);
  });

  it('hands out a temporary URL that works without credentials, for that file only', async () => {
    const res = await api().get(`/api/v1${url}`).set(h.as(h.realm.member)).expect(200);
    expect(res.body.url).toMatch(/^\/user_uploads\/temporary\/[^/]+\/plan\.txt$/);
    const file = await api().get(res.body.url).set(h.as()).expect(200);
    expect(file.text).toBe('secret plan');
    const tampered = res.body.url.replace(/temporary\/([^.]+)\./, 'temporary/$1x.');
    await api().get(tampered).set(h.as()).expect(400);
    await api().get(`/api/v1${url}`).set(h.as(h.realm.member2)).expect(403);
  });
});
