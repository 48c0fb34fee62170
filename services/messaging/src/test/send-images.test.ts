/**
 * Uploaded images in sent and edited messages, through the running service: what the uploads
 * service records of an upload (its `attachments` row, written here as it writes it) decides the
 * preview; its `thumbnails` event, relayed to the streams, makes this service's consumer replace
 * the loading placeholder with the thumbnail (or drop it) and announce the re-rendered message.
 */
import { createRedis, keyspace, OutboxRelay, recordEvent } from '@chat/bus';
import { DEFAULT_STREAM_PARTITIONS } from '@chat/kit';
import type { SeededUser } from '@chat/testing';
import { createLogger } from '@chat/kit';
import type { Services } from '../context';
import { settlePendingPreviews } from '../actions/thumbnail-renders';
import { LOADING_IMAGE_SRC } from '../markdown/upload-previews';
import { startHarness, type Harness } from './support';

let h: Harness;
let relay: OutboxRelay;
let redis: ReturnType<typeof createRedis>;
let counter = 0;

beforeAll(async () => {
  h = await startHarness({ CONSUMER_NAME: 'images-test' });
  await h.env.db.$executeRawUnsafe('DELETE FROM outbox');
  redis = createRedis(h.env.redisUrl, { name: 'images-test' });
  relay = new OutboxRelay({ databaseUrl: h.env.databaseUrl, redis, keys: keyspace(h.env.prefix, { partitions: DEFAULT_STREAM_PARTITIONS }), pollIntervalMs: 50, onError: () => undefined });
  relay.start();
  const { owner, member, member2 } = h.realm;
  await h.createStream(owner, { name: 'gallery' }, [owner, member, member2]);
});
afterAll(async () => {
  await relay?.stop();
  redis?.disconnect();
  await h?.close();
});

/** An upload as the uploads service records it: a fresh image's size is read at upload. */
async function upload(owner: SeededUser, name: string, contentType = 'image/png', facts: { thumbnails?: unknown[] | null; frames?: number } = {}) {
  counter += 1;
  const pathId = `${h.realm.realmId}/ab/${String(counter).padStart(24, 'k')}/${name}`;
  const image = contentType.startsWith('image/');
  await h.env.db.attachment.create({
    data: {
      realmId: h.realm.realmId, ownerId: owner.id, pathId, fileName: name, size: 10n, contentType,
      imageWidth: image ? 16 : null, imageHeight: image ? 12 : null, imageFrames: facts.frames ?? null,
      ...(facts.thumbnails ? { thumbnails: facts.thumbnails as never } : {}),
    },
  });
  return pathId;
}

/** The thumbnail job's end, as the uploads service records it. */
async function thumbnailed(pathId: string, made: string[]) {
  await h.env.db.$transaction(async (tx) => {
    await tx.attachment.update({ where: { pathId }, data: { thumbnails: made.map((name) => ({ name, content_type: 'image/webp' })), imageFrames: 1 } });
    await recordEvent(tx, { realmId: h.realm.realmId, type: 'thumbnails', users: [], event: { type: 'thumbnails', path_id: pathId } });
  });
}

async function send(user: SeededUser, content: string): Promise<number> {
  const res = await h.api.post('/api/v1/messages').set(h.as(user)).type('form').send({ type: 'stream', to: 'gallery', topic: 'pictures', content });
  if (res.body.result !== 'success') throw new Error(JSON.stringify(res.body));
  return res.body.id;
}

const rendered = async (id: number) => (await h.env.db.message.findUniqueOrThrow({ where: { id } })).renderedContent;

/** The consumer reads the streams every 200 ms; a loaded machine may take a while longer. */
async function eventually<T>(check: () => Promise<T | null | undefined | false>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await check();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
}

it('shows an image loading until its thumbnail is made, then re-renders the message for everyone who has it', async () => {
  const pathId = await upload(h.realm.member, 'x.png');
  const id = await send(h.realm.member, `[x.png](/user_uploads/${pathId})`);
  const link = `<a href="/user_uploads/${pathId}">x.png</a>`;
  expect(await rendered(id)).toBe(
    `<p>${link}</p>\n<div class="message_inline_image"><a href="/user_uploads/${pathId}" title="x.png">` +
      `<img class="image-loading-placeholder" data-original-content-type="image/png" data-original-dimensions="16x12" src="${LOADING_IMAGE_SRC}"></a></div>`,
  );
  const fetched = await h.api.get(`/api/v1/messages/${id}`).set(h.as(h.realm.member2));
  expect(fetched.body.message.content).toContain('image-loading-placeholder');

  await thumbnailed(pathId, ['840x560.webp']);
  const done = `<p>${link}</p>\n<div class="message_inline_image"><a href="/user_uploads/${pathId}" title="x.png">` +
    `<img data-original-content-type="image/png" data-original-dimensions="16x12" src="/user_uploads/thumbnail/${pathId}/840x560.webp"></a></div>`;
  await eventually(async () => (await rendered(id)) === done);
  const row = await h.env.db.outboxEvent.findFirstOrThrow({ where: { type: 'update_message' }, orderBy: { id: 'desc' } });
  const payload = row.payload as { event: Record<string, unknown>; users: number[]; user_flags: Record<string, string[]> };
  expect(payload.event).toMatchObject({ user_id: null, message_id: id, message_ids: [id], rendering_only: true, rendered_content: done, content: `[x.png](/user_uploads/${pathId})` });
  expect(payload.users).toEqual(expect.arrayContaining([h.realm.owner.id, h.realm.member.id, h.realm.member2.id]));
  // Each recipient's own flags (the family's clients require them on every update_message).
  expect(Object.keys(payload.user_flags).sort()).toEqual(payload.users.map(String).sort());
  expect(payload.user_flags[String(h.realm.member2.id)]).toEqual([]);
});

it('shows the thumbnail at once when it exists, and an animation’s animated one', async () => {
  const still = await upload(h.realm.member, 'done.png', 'image/png', { thumbnails: [{ name: '840x560.webp', content_type: 'image/webp' }], frames: 1 });
  const anim = await upload(h.realm.member, 'anim.gif', 'image/gif', {
    thumbnails: [{ name: '840x560.webp', content_type: 'image/webp' }, { name: '840x560-anim.webp', content_type: 'image/webp' }], frames: 3,
  });
  const html = await rendered(await send(h.realm.member, `[done.png](/user_uploads/${still}) and [anim.gif](/user_uploads/${anim})`));
  expect(html).toContain(`<img data-original-content-type="image/png" data-original-dimensions="16x12" src="/user_uploads/thumbnail/${still}/840x560.webp">`);
  expect(html).toContain(`<img data-animated="true" data-original-content-type="image/gif" data-original-dimensions="16x12" src="/user_uploads/thumbnail/${anim}/840x560-anim.webp">`);
});

it('keeps a link to a file that is no image, to an image the sender cannot read, and where the realm turned previews off', async () => {
  const pdf = await upload(h.realm.member, 'doc.pdf', 'application/pdf');
  expect(await rendered(await send(h.realm.member, `[doc.pdf](/user_uploads/${pdf})`))).toBe(`<p><a href="/user_uploads/${pdf}">doc.pdf</a></p>`);
  const notShared = await upload(h.realm.member, 'private.png');
  expect(await rendered(await send(h.realm.member2, `[private.png](/user_uploads/${notShared})`))).toBe(`<p><a href="/user_uploads/${notShared}">private.png</a></p>`);
  const failed = await upload(h.realm.member, 'broken.png', 'image/png', { thumbnails: [] });
  expect(await rendered(await send(h.realm.member, `[broken.png](/user_uploads/${failed})`))).not.toContain('message_inline_image');

  const realm = await h.env.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
  await h.env.db.realm.update({ where: { id: realm.id }, data: { settings: { ...(realm.settings as Record<string, never>), inline_image_preview: false as never } } });
  try {
    const mine = await upload(h.realm.member, 'off.png');
    expect(await rendered(await send(h.realm.member, `[off.png](/user_uploads/${mine})`))).toBe(`<p><a href="/user_uploads/${mine}">off.png</a></p>`);
  } finally {
    await h.env.db.realm.update({ where: { id: realm.id }, data: { settings: realm.settings as never } });
  }
});

it('previews an image someone else shared where the sender could read it, and in an edit', async () => {
  const pathId = await upload(h.realm.member, 'shared.png', 'image/png', { thumbnails: [{ name: '840x560.webp', content_type: 'image/webp' }], frames: 1 });
  await send(h.realm.member, `[shared.png](/user_uploads/${pathId})`);
  const again = await send(h.realm.member2, 'soon');
  const edit = await h.api.patch(`/api/v1/messages/${again}`).set(h.as(h.realm.member2)).type('form').send({ content: `look [shared.png](/user_uploads/${pathId})` });
  expect(edit.body.result).toBe('success');
  expect(await rendered(again)).toContain(`src="/user_uploads/thumbnail/${pathId}/840x560.webp"`);
});

it('drops the loading preview of what turned out to be no image', async () => {
  const pathId = await upload(h.realm.member, 'fake.png');
  const id = await send(h.realm.member, `[fake.png](/user_uploads/${pathId})`);
  expect(await rendered(id)).toContain('image-loading-placeholder');
  await h.env.db.$transaction(async (tx) => {
    await tx.attachment.update({ where: { pathId }, data: { thumbnails: [] } });
    await recordEvent(tx, { realmId: h.realm.realmId, type: 'thumbnails', users: [], event: { type: 'thumbnails', path_id: pathId } });
  });
  await eventually(async () => (await rendered(id)) === `<p><a href="/user_uploads/${pathId}">fake.png</a></p>`);
});

it('applies a thumbnail finished while the send was being written, whose event found no message', async () => {
  const pathId = await upload(h.realm.member, 'racing.png');
  const id = await send(h.realm.member, `[racing.png](/user_uploads/${pathId})`);
  const html = await rendered(id);
  expect(html).toContain('image-loading-placeholder');
  // The job's change without its event: as if the event had been handled before the commit.
  await h.env.db.attachment.update({ where: { pathId }, data: { thumbnails: [{ name: '840x560.webp', content_type: 'image/webp' }], imageFrames: 1 } });
  const services = { db: h.env.db, log: createLogger('test', 'silent'), config: {} } as unknown as Services;
  await settlePendingPreviews(services, h.realm.realmId, html);
  expect(await rendered(id)).toContain(`src="/user_uploads/thumbnail/${pathId}/840x560.webp"`);
});
