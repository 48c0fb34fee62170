import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Stateless signed tokens for temporary file URLs: anyone holding one may fetch that one file
 * until it expires, without credentials (what native clients hand to a system downloader).
 */
export function signFileToken(secret: string, pathId: string, ttlSeconds: number, now = Date.now()): string {
  const body = Buffer.from(JSON.stringify({ p: pathId, e: Math.floor(now / 1000) + ttlSeconds })).toString('base64url');
  return `${body}.${mac(secret, body)}`;
}

/** The path id a token grants, or null when it is forged, malformed or expired. */
export function verifyFileToken(secret: string, token: string, now = Date.now()): string | null {
  const [body, sig] = token.split('.');
  if (!body || !sig) return null;
  const expected = Buffer.from(mac(secret, body));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const { p, e } = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { p?: unknown; e?: unknown };
    if (typeof p !== 'string' || typeof e !== 'number' || e * 1000 < now) return null;
    return p;
  } catch {
    return null;
  }
}

function mac(secret: string, body: string): string {
  return createHmac('sha256', `file-token:${secret}`).update(body).digest('base64url');
}
