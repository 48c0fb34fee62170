import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import { errors, SERVER_EMOJI_DATA_PATH } from '@chat/contracts';
import { serverEmojiData } from '@chat/emoji';

/**
 * Files the gateway serves itself: the same for every realm and every user, built once at
 * start. The family's servers serve the emoji data under a content-hashed name; ours keeps
 * one name (clients are told it through server_emoji_data_url), so it is cached for a week
 * rather than forever, and the ETag makes a revalidation after an upgrade a cheap 304.
 */
const CACHE_CONTROL = 'public, max-age=604800';

interface StaticFile {
  type: string;
  identity: { body: Buffer; etag: string };
  gzip: { body: Buffer; etag: string };
}

function staticFile(type: string, content: string): StaticFile {
  const body = Buffer.from(content);
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  // One ETag per representation: a gzip body is not byte-equal to the plain one.
  return { type, identity: { body, etag: `"${hash}"` }, gzip: { body: gzipSync(body, { level: 9 }), etag: `"${hash}-gz"` } };
}

export class StaticFiles {
  private readonly files = new Map<string, StaticFile>([
    [SERVER_EMOJI_DATA_PATH, staticFile('application/json', JSON.stringify(serverEmojiData()))],
  ]);

  has(path: string): boolean {
    return this.files.has(path);
  }

  /** GET or HEAD; a matching If-None-Match gets 304 (express's freshness check in `send`). */
  serve(req: Request, res: Response): void {
    const file = this.files.get(req.path);
    if (!file) throw errors.notFound();
    if (req.method !== 'GET' && req.method !== 'HEAD') throw errors.methodNotAllowed(['GET', 'HEAD']);
    const gzip = req.acceptsEncodings('gzip', 'identity') === 'gzip';
    const rep = gzip ? file.gzip : file.identity;
    res.setHeader('Content-Type', `${file.type}; charset=utf-8`);
    res.setHeader('Cache-Control', CACHE_CONTROL);
    res.setHeader('ETag', rep.etag);
    res.setHeader('Vary', 'Accept-Encoding');
    // Browser builds of the family's clients fetch it from other origins.
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    res.send(rep.body);
  }
}
