import type { Response } from 'express';
import { errors } from '@chat/contracts';
import type { Storage } from '../storage';
import { contentDisposition } from '../storage';
import { servesInline } from './files';

export interface ServeFile {
  key: string;
  /** Name offered to the browser. */
  filename: string;
  contentType: string;
  download?: boolean;
}

/**
 * Sends a stored file after the caller's access check: a short-lived signed redirect when the
 * store can serve it directly (S3), otherwise the bytes from disk with ranges and conditional
 * requests. Uploaded content is untrusted: it is never sniffed and never runs as a page.
 */
export async function serveStoredFile(storage: Storage, res: Response, f: ServeFile, cacheControl = 'private, immutable'): Promise<void> {
  const download = !!f.download || !servesInline(f.contentType);
  const direct = await storage.directUrl(f.key, { filename: f.filename, contentType: f.contentType, download });
  res.setHeader('Cache-Control', direct ? 'private, no-store' : cacheControl);
  if (direct) return void res.redirect(302, direct);

  const file = storage.localPath(f.key);
  if (!file || !(await storage.exists(f.key))) throw errors.fileNotFound();
  res.setHeader('Content-Type', f.contentType);
  res.setHeader('Content-Disposition', contentDisposition({ filename: f.filename, download }));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox");
  await new Promise<void>((resolve, reject) => {
    res.sendFile(file, { dotfiles: 'allow', cacheControl: false, lastModified: true }, (err) => {
      if (!err) return resolve();
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return reject(errors.fileNotFound());
      // The client went away mid-transfer, or a range was unsatisfiable: send already answered.
      if (res.headersSent) return resolve();
      reject(err);
    });
  });
}
