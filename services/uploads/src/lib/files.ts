import path from 'node:path';
import { randomBytes, randomInt } from 'node:crypto';
import mime from 'mime-types';
import { linkedPathIds, UPLOAD_PATH_ID } from '@chat/contracts';

/**
 * A name safe on any filesystem, in S3 keys and in URLs: letters and digits of any script,
 * ".", "-" and "_"; runs of spaces and dashes become one dash. Case is kept.
 */
export function sanitizeName(value: string): string {
  let v = value.normalize('NFKC');
  v = v.replace(/[^\p{L}\p{N}\p{M}_\s.-]/gu, '').trim();
  v = v.replace(/[-\s]+/g, '-');
  if (v === '' || v === '.' || v === '..') return 'uploaded-file';
  // Keep the key short enough for every backend (S3 allows 1024 bytes; most filesystems 255).
  if (Buffer.byteLength(v) > 200) {
    const ext = path.extname(v).slice(0, 20);
    let stem = v.slice(0, v.length - ext.length);
    while (Buffer.byteLength(stem + ext) > 200) stem = stem.slice(0, -1);
    v = stem + ext;
  }
  return v;
}

/**
 * The stored name and content type of an upload: the client's name (percent-escapes undone),
 * with an extension added from the type when it has none; the type guessed from the name when
 * the client sent none.
 */
export function fileInfo(originalName: string | undefined, clientType: string | undefined): { name: string; contentType: string } {
  let name = (originalName ?? '').trim();
  try {
    name = decodeURIComponent(name);
  } catch {
    // Not percent-encoded after all: keep it as sent.
  }
  name = path.basename(name.replace(/\\/g, '/')) || 'uploaded-file';
  let contentType = clientType && clientType !== 'application/octet-stream' ? clientType : '';
  if (!contentType) contentType = mime.lookup(name) || 'application/octet-stream';
  if (!path.extname(name)) {
    const ext = mime.extension(contentType);
    if (ext && contentType !== 'application/octet-stream') name += `.${ext}`;
  }
  return { name, contentType };
}

/** 24 URL-safe random characters: what makes an upload's URL unguessable. */
function randomToken(): string {
  return randomBytes(18).toString('base64url');
}

/** "<realm>/<xx>/<random>/<safe name>": storage key and URL path below /user_uploads/. */
export function newPathId(realmId: number, fileName: string): string {
  return [String(realmId), randomInt(0, 256).toString(16), randomToken(), sanitizeName(fileName)].join('/');
}

/** Whether a string is shaped like one of our path ids (cheap check before a lookup). */
export function isPathId(value: string): boolean {
  return new RegExp(`^${UPLOAD_PATH_ID}$`).test(value);
}

export { linkedPathIds };

/** Types a browser may display inline; everything else is served as a download. */
const INLINE_TYPES = new Set([
  'application/pdf',
  'audio/aac', 'audio/flac', 'audio/mp4', 'audio/mpeg', 'audio/ogg', 'audio/wav', 'audio/webm',
  'image/apng', 'image/avif', 'image/gif', 'image/jpeg', 'image/png', 'image/webp',
  'text/plain',
  'video/mp4', 'video/ogg', 'video/quicktime', 'video/webm',
]);

export function servesInline(contentType: string): boolean {
  return INLINE_TYPES.has(contentType.split(';')[0].trim().toLowerCase());
}
