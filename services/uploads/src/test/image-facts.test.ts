/**
 * What an uploaded image's messages need from this service: its size, read from its header when
 * it is stored (a message may show it loading before the thumbnail job has run), and a
 * `thumbnails` event for no client when the job has made its thumbnails or found it no image,
 * which the messaging service reads to re-render those messages. The job is run by hand here.
 */
import sharp from 'sharp';
import request from 'supertest';
import { makeThumbnails } from '../workers/thumbnails';
import { startHarness, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ RUN_WORKERS: 'false' });
});
afterAll(() => h.close());

async function upload(body: Buffer, name: string, contentType: string) {
  const res = await request(h.uploads.url).post('/api/v1/user_uploads').set(h.as(h.realm.member)).attach('file', body, { filename: name, contentType }).expect(200);
  return h.env.db.attachment.findUniqueOrThrow({ where: { pathId: res.body.url.slice('/user_uploads/'.length) } });
}

const thumbnailEvents = async (pathId: string) =>
  (await h.env.db.outboxEvent.findMany({ where: { type: 'thumbnails' } })).map((r) => r.payload as { event: { path_id: string }; users: number[] }).filter((p) => p.event.path_id === pathId);

it('records an image’s size as it displays when it is stored, before any thumbnail', async () => {
  const plain = await upload(await sharp({ create: { width: 64, height: 48, channels: 3, background: '#00aa00' } }).png().toBuffer(), 'plain.png', 'image/png');
  expect([plain.imageWidth, plain.imageHeight, plain.thumbnails]).toEqual([64, 48, null]);
  // EXIF orientation 6 turns the image a quarter: shown 48 wide and 64 high.
  const turned = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#0000aa' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
  const photo = await upload(turned, 'photo.jpg', 'image/jpeg');
  expect([photo.imageWidth, photo.imageHeight]).toEqual([48, 64]);
  const text = await upload(Buffer.from('just words'), 'notes.txt', 'text/plain');
  expect([text.imageWidth, text.imageHeight]).toEqual([null, null]);
  const fake = await upload(Buffer.from('not a png at all'), 'fake.png', 'image/png');
  expect([fake.imageWidth, fake.imageHeight]).toEqual([null, null]);
});

it('announces made thumbnails, and a file that is no image, to the messaging service only', async () => {
  const image = await upload(await sharp({ create: { width: 30, height: 20, channels: 3, background: '#aa0000' } }).png().toBuffer(), 'small.png', 'image/png');
  expect(await thumbnailEvents(image.pathId)).toEqual([]);
  await makeThumbnails(h.uploads.services, image.id);
  expect(await thumbnailEvents(image.pathId)).toEqual([{ event: { type: 'thumbnails', path_id: image.pathId }, users: [] }]);

  const fake = await upload(Buffer.from('still not a png'), 'fake2.png', 'image/png');
  await makeThumbnails(h.uploads.services, fake.id);
  expect((await h.env.db.attachment.findUniqueOrThrow({ where: { id: fake.id } })).thumbnails).toEqual([]);
  expect(await thumbnailEvents(fake.pathId)).toHaveLength(1);
});
