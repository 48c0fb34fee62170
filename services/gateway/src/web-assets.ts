import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { Request, Response } from 'express';
import { errors, WEB_APP_ASSET_PREFIX } from '@chat/contracts';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Their names carry their content's hash: a file at a name never changes. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

const TYPES: Record<string, { type: string; compress: boolean }> = {
  '.js': { type: 'text/javascript; charset=utf-8', compress: true },
  '.mjs': { type: 'text/javascript; charset=utf-8', compress: true },
  '.css': { type: 'text/css; charset=utf-8', compress: true },
  '.html': { type: 'text/html; charset=utf-8', compress: true },
  '.json': { type: 'application/json; charset=utf-8', compress: true },
  '.map': { type: 'application/json; charset=utf-8', compress: true },
  '.webmanifest': { type: 'application/manifest+json; charset=utf-8', compress: true },
  '.txt': { type: 'text/plain; charset=utf-8', compress: true },
  '.svg': { type: 'image/svg+xml', compress: true },
  '.wasm': { type: 'application/wasm', compress: true },
  '.ttf': { type: 'font/ttf', compress: true },
  '.ico': { type: 'image/x-icon', compress: true },
  '.png': { type: 'image/png', compress: false },
  '.jpg': { type: 'image/jpeg', compress: false },
  '.jpeg': { type: 'image/jpeg', compress: false },
  '.gif': { type: 'image/gif', compress: false },
  '.webp': { type: 'image/webp', compress: false },
  '.avif': { type: 'image/avif', compress: false },
  '.woff': { type: 'font/woff', compress: false },
  '.woff2': { type: 'font/woff2', compress: false },
  '.mp3': { type: 'audio/mpeg', compress: false },
  '.ogg': { type: 'audio/ogg', compress: false },
};

interface Representation {
  body: Buffer;
  etag: string;
}

interface Asset {
  type: string;
  identity: Representation;
  gzip?: Representation;
  br?: Representation;
}

/**
 * The files of the web app's build, at `/static/app/<path>` from the dist folder. Each is read
 * and gzipped the first time it is asked for, then answered from memory: a build's files are
 * few and never change. Brotli at its best quality shrinks a bundle a further sixth or so but
 * takes seconds on a large one, so it runs afterwards, off the event loop, and the file is
 * answered gzipped until it is done. A name that is not a file of the folder is 404; nothing
 * outside the folder is ever read, whatever the path says.
 */
export class WebAssets {
  private readonly assets = new Map<string, Promise<Asset | null>>();

  constructor(private readonly dir: string) {}

  /** GET or HEAD; a matching If-None-Match gets 304 (express's freshness check in `send`). */
  async serve(req: Request, res: Response): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') throw errors.methodNotAllowed(['GET', 'HEAD']);
    const name = assetName(req.path);
    if (!name) throw errors.notFound();
    let pending = this.assets.get(name);
    if (!pending) {
      pending = this.load(name);
      this.assets.set(name, pending);
    }
    const asset = await pending.catch(() => null);
    // A miss is not kept: a rebuild in development adds files while the gateway runs.
    if (!asset) {
      this.assets.delete(name);
      throw errors.notFound();
    }
    // The smallest the client takes: negotiation alone would follow the client's order, and
    // browsers name gzip before br.
    const encoding = asset.br && req.acceptsEncodings('br') === 'br' ? 'br' : asset.gzip && req.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : 'identity';
    const rep = (encoding === 'br' && asset.br) || (encoding === 'gzip' && asset.gzip) || asset.identity;
    res.setHeader('Content-Type', asset.type);
    res.setHeader('Cache-Control', CACHE_CONTROL);
    res.setHeader('ETag', rep.etag);
    res.setHeader('Vary', 'Accept-Encoding');
    if (rep !== asset.identity) res.setHeader('Content-Encoding', encoding);
    res.send(rep.body);
  }

  private async load(name: string): Promise<Asset | null> {
    const root = await realpath(this.dir).catch(() => null);
    if (!root) return null;
    // Symbolic links are followed only as far as the folder itself.
    const file = await realpath(path.join(root, name)).catch(() => null);
    if (!file || !file.startsWith(root + path.sep) || !(await stat(file)).isFile()) return null;
    const body = await readFile(file);
    const kind = TYPES[path.extname(file).toLowerCase()] ?? { type: 'application/octet-stream', compress: false };
    const hash = createHash('sha256').update(body).digest('base64url').slice(0, 27);
    const asset: Asset = { type: kind.type, identity: { body, etag: `"${hash}"` } };
    if (kind.compress && body.length > 256) {
      // One ETag per representation: a compressed body is not byte-equal to the plain one.
      const gz = await gzipAsync(body, { level: 9 });
      if (gz.length < body.length) asset.gzip = { body: gz, etag: `"${hash}-gz"` };
      brotliAsync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }).then(
        (br) => {
          if (br.length < (asset.gzip ?? asset.identity).body.length) asset.br = { body: br, etag: `"${hash}-br"` };
        },
        () => undefined,
      );
    }
    return asset;
  }
}

/**
 * The file a URL path below /static/app/ names, relative to the folder, or null for anything
 * that is not a plain relative path: `.` and `..` segments, empty segments, hidden files,
 * backslashes, NUL and undecodable escapes. index.html is the shell, served at `/` only.
 */
export function assetName(urlPath: string): string | null {
  if (!urlPath.startsWith(WEB_APP_ASSET_PREFIX)) return null;
  const segments = urlPath.slice(WEB_APP_ASSET_PREFIX.length).split('/');
  const decoded: string[] = [];
  for (const segment of segments) {
    let s: string;
    try {
      s = decodeURIComponent(segment);
    } catch {
      return null;
    }
    if (!s || s.startsWith('.') || /[/\\\0]/.test(s)) return null;
    decoded.push(s);
  }
  const name = decoded.join('/');
  return name === 'index.html' ? null : name;
}
