import sharp, { type Metadata } from 'sharp';
import type { Services } from '../context';

/** Thumbnails made for every image: what clients of this API family ask for. */
export const THUMBNAIL_FORMATS = [
  { name: '840x560.webp', width: 840, height: 560, animated: false, contentType: 'image/webp' },
  { name: '840x560-anim.webp', width: 840, height: 560, animated: true, contentType: 'image/webp' },
] as const;

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
 * Makes the thumbnails of one uploaded image and records the image's facts. A file that is not
 * a decodable image gets an empty thumbnail list (so it is not tried again) rather than an error.
 */
export async function makeThumbnails(services: Services, attachmentId: number): Promise<ThumbnailResult | null> {
  const a = await services.db.attachment.findUnique({ where: { id: attachmentId } });
  if (!a) return null; // deleted before its turn came
  if (a.size > BigInt(MAX_SOURCE_BYTES)) {
    await services.db.attachment.update({ where: { id: a.id }, data: { thumbnails: [] } });
    return null;
  }
  const original = await services.storage.readBuffer(a.pathId);
  if (!original) return null;
  let meta: Metadata;
  try {
    meta = await sharp(original, { limitInputPixels: MAX_PIXELS }).metadata();
  } catch {
    await services.db.attachment.update({ where: { id: a.id }, data: { thumbnails: [] } });
    return null;
  }
  const frames = meta.pages ?? 1;
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
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
  const updated = await services.db.attachment.updateMany({
    where: { id: a.id },
    data: { imageWidth: width, imageHeight: height, imageFrames: frames, thumbnails: made },
  });
  if (updated.count === 0) {
    // The attachment was deleted while we worked: take the thumbnails with it.
    for (const m of made) await services.storage.remove(`thumbnail/${a.pathId}/${m.name}`).catch(() => undefined);
  }
  return { width, height, frames, made: made.map((m) => m.name) };
}
