import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { eventually, startHarness, type Harness } from './support';

// Thumbnails are made by the background job (BullMQ worker) after an image is uploaded.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const api = () => request(h.uploads.url);
const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();

async function upload(body: Buffer, name: string, contentType: string) {
  const res = await api().post('/api/v1/user_uploads').set(h.as(h.realm.member)).attach('file', body, { filename: name, contentType }).expect(200);
  const pathId: string = res.body.url.slice('/user_uploads/'.length);
  return { url: res.body.url as string, pathId };
}

const thumbnailsOf = (pathId: string) =>
  eventually(async () => {
    const a = await h.env.db.attachment.findUniqueOrThrow({ where: { pathId } });
    return a.thumbnails === null ? null : a;
  });

it('makes a WebP thumbnail of an image and serves it with the original’s access rule', async () => {
  const { pathId } = await upload(await solid(2000, 1000, '#ff0000'), 'wide.png', 'image/png');
  const a = await thumbnailsOf(pathId);
  expect(a).toMatchObject({ imageWidth: 2000, imageHeight: 1000, imageFrames: 1, thumbnails: [{ name: '840x560.webp', content_type: 'image/webp' }] });
  const res = await api().get(`/user_uploads/thumbnail/${pathId}/840x560.webp`).set(h.as(h.realm.member)).expect(200);
  expect(res.headers['content-type']).toBe('image/webp');
  const meta = await sharp(res.body).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual(['webp', 840, 420]);
  await api().get(`/user_uploads/thumbnail/${pathId}/840x560.webp`).set(h.as(h.realm.member2)).expect(403);
  await api().get(`/user_uploads/thumbnail/${pathId}/840x560.webp`).set(h.as()).expect(401);
  await api().get(`/user_uploads/thumbnail/${pathId}/1x1.webp`).set(h.as(h.realm.member)).expect(404);
});

it('never enlarges small images', async () => {
  const { pathId } = await upload(await solid(120, 80, '#00ff00'), 'small.png', 'image/png');
  await thumbnailsOf(pathId);
  const res = await api().get(`/user_uploads/thumbnail/${pathId}/840x560.webp`).set(h.as(h.realm.member)).expect(200);
  const meta = await sharp(res.body).metadata();
  expect([meta.width, meta.height]).toEqual([120, 80]);
});

it('keeps animations in the animated thumbnail', async () => {
  const frames = await Promise.all(['#ff0000', '#0000ff', '#00ff00'].map((c) => solid(100, 50, c)));
  const gif = await sharp(frames, { join: { animated: true } }).gif().toBuffer();
  const { pathId } = await upload(gif, 'anim.gif', 'image/gif');
  const a = await thumbnailsOf(pathId);
  expect(a.imageFrames).toBe(3);
  expect((a.thumbnails as Array<{ name: string }>).map((t) => t.name)).toEqual(['840x560.webp', '840x560-anim.webp']);
  const anim = await api().get(`/user_uploads/thumbnail/${pathId}/840x560-anim.webp`).set(h.as(h.realm.member)).expect(200);
  expect((await sharp(anim.body, { animated: true }).metadata()).pages).toBe(3);
  const still = await api().get(`/user_uploads/thumbnail/${pathId}/840x560.webp`).set(h.as(h.realm.member)).expect(200);
  expect((await sharp(still.body, { animated: true }).metadata()).pages ?? 1).toBe(1);
});

it('gives up quietly on a file that only claims to be an image', async () => {
  const { pathId } = await upload(Buffer.from('definitely not a png'), 'fake.png', 'image/png');
  const a = await thumbnailsOf(pathId);
  expect(a.thumbnails).toEqual([]);
  expect(a.imageWidth).toBeNull();
  // Asking for a thumbnail then serves the original.
  const res = await api().get(`/user_uploads/thumbnail/${pathId}/840x560.webp`).set(h.as(h.realm.member)).expect(200);
  expect(res.body.toString()).toBe('definitely not a png');
});

it('deletes thumbnails with their attachment', async () => {
  const { pathId } = await upload(await solid(900, 900, '#123456'), 'gone.png', 'image/png');
  const a = await thumbnailsOf(pathId);
  const thumb = path.join(h.dir, 'thumbnail', pathId, '840x560.webp');
  expect(fs.existsSync(thumb)).toBe(true);
  await api().delete(`/api/v1/attachments/${a.id}`).set(h.as(h.realm.member)).expect(200);
  expect(fs.existsSync(thumb)).toBe(false);
  expect(fs.existsSync(path.join(h.dir, pathId))).toBe(false);
});
