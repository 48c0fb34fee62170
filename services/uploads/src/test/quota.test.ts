import request from 'supertest';
import { filesUnder, startHarnessOn, type Harness } from './support';

// The realm's upload quota on both ways of uploading and both backends. The quota is set in
// GiB, so the realm's existing use is an attachment row nearly that large (its bytes are never
// read), and the uploads that fit or do not are a few bytes either side of what is left.
const GIB = 2 ** 30;
const TUS = { 'Tus-Resumable': '1.0.0' };
const QUOTA_ERROR = { result: 'error', code: 'REALM_UPLOAD_QUOTA', msg: "Upload would exceed your organization's upload quota." };
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe.each(['local', 's3'])('upload quota on %s storage', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarnessOn(backend);
  });
  afterAll(() => h.close());

  const api = () => request(h.uploads.url);
  const attachments = () => h.env.db.attachment.count({ where: { realmId: h.realm.realmId } });
  const used = async () => Number((await h.env.db.attachment.aggregate({ where: { realmId: h.realm.realmId }, _sum: { size: true } }))._sum.size ?? 0n);
  /** Sets a 1 GiB quota with exactly `left` bytes of it unused (another user's big file). */
  const leave = async (left: number) => {
    await h.env.db.realm.update({ where: { id: h.realm.realmId }, data: { customUploadQuotaGb: 1 } });
    await h.env.db.attachment.deleteMany({ where: { realmId: h.realm.realmId, fileName: 'big.bin' } });
    const rest = GIB - left - (await used());
    await h.env.db.attachment.create({
      data: { realmId: h.realm.realmId, ownerId: h.realm.member2.id, pathId: `${h.realm.realmId}/aa/${'b'.repeat(24)}/big.bin`, fileName: 'big.bin', size: BigInt(rest), contentType: 'application/octet-stream' },
    });
  };
  const plainUpload = (bytes: number, name = 'f.txt') =>
    api().post('/api/v1/user_uploads').set(h.as(h.realm.member)).attach('file', Buffer.alloc(bytes, 'x'), name);
  const storedUploads = () => (backend === 'local' ? filesUnder(h.dir).filter((f) => !f.startsWith('.tus')).length : undefined);

  afterEach(async () => {
    await h.env.db.realm.update({ where: { id: h.realm.realmId }, data: { customUploadQuotaGb: null } });
  });

  it('is unlimited by default', async () => {
    expect((await h.env.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } })).customUploadQuotaGb).toBeNull();
    await h.env.db.attachment.create({
      data: { realmId: h.realm.realmId, ownerId: h.realm.member2.id, pathId: `${h.realm.realmId}/aa/${'c'.repeat(24)}/huge.bin`, fileName: 'huge.bin', size: BigInt(50 * GIB), contentType: 'application/octet-stream' },
    });
    await plainUpload(10).expect(200);
    await h.env.db.attachment.deleteMany({ where: { fileName: 'huge.bin' } });
  });

  it('refuses a plain upload that would exceed it, counting every attachment of the realm, and accepts one that fits', async () => {
    await leave(100);
    const before = { count: await attachments(), files: storedUploads() };
    const refused = await plainUpload(101).expect(400);
    expect(refused.body).toEqual(QUOTA_ERROR);
    expect(await attachments()).toBe(before.count);
    expect(storedUploads()).toBe(before.files);

    const fits = await plainUpload(100, 'fits.txt').expect(200);
    expect(fits.body.filename).toBe('fits.txt');
    expect(await used()).toBe(GIB);
    // Full now: even one byte more is refused; deleting a file makes room again.
    expect((await plainUpload(1).expect(400)).body).toEqual(QUOTA_ERROR);
    const mine = await h.env.db.attachment.findFirstOrThrow({ where: { fileName: 'fits.txt' } });
    await api().delete(`/api/v1/attachments/${mine.id}`).set(h.as(h.realm.member)).expect(200);
    await plainUpload(1).expect(200);
  });

  it('refuses a body whose announced length cannot fit, leaving nothing stored', async () => {
    await leave(1000);
    const before = storedUploads();
    const refused = await plainUpload(200 * 1024).expect(400);
    expect(refused.body).toEqual(QUOTA_ERROR);
    expect(storedUploads()).toBe(before);
  });

  it('refuses a resumable upload whose length cannot fit when it is created', async () => {
    await leave(100);
    const res = await api()
      .post('/api/v1/tus')
      .set({ ...h.as(h.realm.member), ...TUS, 'Upload-Length': '101', 'Upload-Metadata': `filename ${b64('big.txt')}` })
      .expect(400);
    expect(JSON.parse(res.text)).toEqual(QUOTA_ERROR);
    expect(res.headers.location).toBeUndefined();
  });

  it('accepts a resumable upload that fits', async () => {
    await leave(100);
    const before = await attachments();
    const location = await api()
      .post('/api/v1/tus')
      .set({ ...h.as(h.realm.member), ...TUS, 'Upload-Length': '100', 'Upload-Metadata': `filename ${b64('fits.txt')}` })
      .expect(201)
      .then((r) => r.headers.location as string);
    const done = await api()
      .patch(location)
      .set({ ...h.as(h.realm.member), ...TUS, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' })
      .send(Buffer.alloc(100, 'y'))
      .expect(200);
    expect(JSON.parse(done.text)).toMatchObject({ result: 'success', filename: 'fits.txt' });
    expect(await attachments()).toBe(before + 1);
    expect(await used()).toBe(GIB);
  });

  it('refuses a resumable upload of deferred length that turns out too large, and drops its bytes', async () => {
    await leave(100);
    const before = await attachments();
    const location = await api()
      .post('/api/v1/tus')
      .set({ ...h.as(h.realm.member), ...TUS, 'Upload-Defer-Length': '1', 'Upload-Metadata': `filename ${b64('late.txt')}` })
      .expect(201)
      .then((r) => r.headers.location as string);
    const refused = await api()
      .patch(location)
      .set({ ...h.as(h.realm.member), ...TUS, 'Upload-Offset': '0', 'Upload-Length': '150', 'Content-Type': 'application/offset+octet-stream' })
      .send(Buffer.alloc(150, 'z'))
      .expect(400);
    expect(JSON.parse(refused.text)).toEqual(QUOTA_ERROR);
    expect(await attachments()).toBe(before);
    await api().head(location).set({ ...h.as(h.realm.member), ...TUS }).expect(404);
    if (backend === 'local') expect(filesUnder(h.dir).some((f) => f.includes('late.txt'))).toBe(false);
  });
});
