import sharp, { type Metadata } from 'sharp';
import { recordEvent } from '@chat/bus';
import { THUMBNAIL_FORMATS as FORMATS } from '@chat/wire';
import type { Tx } from '@chat/db';
import type { Services } from '../context';
import type { Storage } from '../storage';

/**
 * Thumbnails made for every image: register's `server_thumbnail_formats` (@chat/wire), the
 * still one first since every image gets it (the animated one only animations).
 */
export const THUMBNAIL_FORMATS = [...FORMATS]
  .sort((a, b) => Number(a.animated) - Number(b.animated))
  .map((f) => ({ name: f.name, width: f.max_width, height: f.max_height, animated: f.animated, contentType: `image/${f.format}` }));

/** Images with more pixels than this are not decoded at all (decompression bombs). */
const MAX_PIXELS = 100_000_000;
/** Larger files are not read into memory for a thumbnail; clients show the original instead. */
const MAX_SOURCE_BYTES = 50 * 1024 * 1024;

export interface ThumbnailResult {
  width: number;
  height: number;
  frames: number;
  made: string[];
}

/**
 * Tells the messaging service that an image's thumbnails are made, or that it is no image after
 * all: messages sent meanwhile show it loading and are rendered again (docs/messaging.md,
 * "Uploaded images"). An event for no client, read by that service's consumer of the domain
 * streams; recorded with the attachment's change, so it exists exactly when the change does.
 */
async function announceThumbnails(tx: Tx, a: { realmId: number; pathId: string }): Promise<void> {
  await recordEvent(tx, { realmId: a.realmId, type: 'thumbnails', users: [], event: { type: 'thumbnails', path_id: a.pathId } });
}

/** Records that a file is no image worth thumbnailing (so it is not tried again). */
async function markNoThumbnails(services: Services, a: { id: number; realmId: number; pathId: string }): Promise<void> {
  await services.db.$transaction(async (tx) => {
    const { count } = await tx.attachment.updateMany({ where: { id: a.id }, data: { thumbnails: [] } });
    if (count > 0) await announceThumbnails(tx, a);
  });
}

/** The first bytes of a stored file (all of it when it is shorter). */
async function readStart(storage: Storage, key: string, bytes: number): Promise<Buffer | null> {
  const file = await storage.read(key);
  if (!file) return null;
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of file.stream as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    total += chunk.length;
    if (total >= bytes) break;
  }
  file.stream.destroy();
  return Buffer.concat(chunks).subarray(0, bytes);
}

async function metadataOf(data: Buffer | null): Promise<Metadata | null> {
  if (!data) return null;
  try {
    return await sharp(data, { limitInputPixels: MAX_PIXELS }).metadata();
  } catch {
    return null;
  }
}

/** Width and height as the image displays: one frame of an animation, EXIF orientation applied. */
function displaySize(meta: Metadata): { width: number; height: number } | null {
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  if (!width || !height) return null;
  // Orientations 5 to 8 turn the image a quarter: its width is the stored height.
  return (meta.orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height };
}

/** How much of a file is read to learn an image's size at upload: its header comes first. */
const HEADER_BYTES = 1024 * 1024;

/**
 * An uploaded image's size, read from its header when it is stored, as the family reads it at
 * upload: a message may link the image before its thumbnail is made, and shows it loading at
 * that size. Null for what does not parse as an image.
 */
export async function readImageSize(storage: Storage, key: string, size: number): Promise<{ width: number; height: number } | null> {
  let meta = await metadataOf(await readStart(storage, key, HEADER_BYTES));
  // Some formats need more than their first bytes (an animation counts its frames).
  if (!meta && size > HEADER_BYTES && size <= MAX_SOURCE_BYTES) meta = await metadataOf(await storage.readBuffer(key));
  return meta ? displaySize(meta) : null;
}

/**
 * Makes the thumbnails of one uploaded image and records the image's facts. A file that is not
 * a decodable image gets an empty thumbnail list (so it is not tried again) rather than an error.
 */
export async function makeThumbnails(services: Services, attachmentId: number): Promise<ThumbnailResult | null> {
  const a = await services.db.attachment.findUnique({ where: { id: attachmentId } });
  if (!a) return null; // deleted before its turn came
  if (a.size > BigInt(MAX_SOURCE_BYTES)) {
    await markNoThumbnails(services, a);
    return null;
  }
  const original = await services.storage.readBuffer(a.pathId);
  if (!original) return null;
  let meta: Metadata;
  try {
    meta = await sharp(original, { limitInputPixels: MAX_PIXELS }).metadata();
  } catch {
    await markNoThumbnails(services, a);
    return null;
  }
  const frames = meta.pages ?? 1;
  const { width, height } = displaySize(meta) ?? { width: 0, height: 0 };
  const made: Array<{ name: string; content_type: string }> = [];
  for (const f of THUMBNAIL_FORMATS) {
    if (f.animated && frames <= 1) continue;
    const image = sharp(original, { animated: f.animated, limitInputPixels: MAX_PIXELS })
      .rotate() // honour EXIF orientation before scaling
      .resize({ width: f.width, height: f.height, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 });
    const key = `thumbnail/${a.pathId}/${f.name}`;
    await services.storage.write(key, await image.toBuffer(), f.contentType);
    made.push({ name: f.name, content_type: f.contentType });
  }
  const updated = await services.db.$transaction(async (tx) => {
    const result = await tx.attachment.updateMany({
      where: { id: a.id },
      data: { imageWidth: width, imageHeight: height, imageFrames: frames, thumbnails: made },
    });
    if (result.count > 0) await announceThumbnails(tx, a);
    return result;
  });
  if (updated.count === 0) {
    // The attachment was deleted while we worked: take the thumbnails with it.
    for (const m of made) await services.storage.remove(`thumbnail/${a.pathId}/${m.name}`).catch(() => undefined);
  }
  return { width, height, frames, made: made.map((m) => m.name) };
}
