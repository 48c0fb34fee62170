/**
 * Addresses of the image proxy, in the family's camo form: `/external_content/<digest>/<hex URL>`,
 * the digest being the hex HMAC-SHA1 of the URL under IMAGE_PROXY_KEY. Messages show external
 * images through it so that a reader's browser never asks a third party for them (which would
 * tell it who reads what, from where); the signature keeps it from being an open proxy. The key
 * is set once at start (app.ts); the renderer reads it here so rendering stays a function of
 * source and context.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { baseConfigSchema } from '@chat/kit';

export const IMAGE_PROXY_PREFIX = '/external_content/';

/**
 * The key used where IMAGE_PROXY_KEY is not set (development and tests only; config.ts refuses
 * that in production): derived from INTERNAL_SECRET, so that every replica of a development
 * cluster signs alike and stored messages keep working across restarts.
 */
export function derivedImageProxyKey(internalSecret: string): string {
  return createHmac('sha256', internalSecret).update('image proxy key').digest('hex');
}

let proxyKey = derivedImageProxyKey(baseConfigSchema.shape.INTERNAL_SECRET.parse(undefined));

export function setImageProxyKey(key: string): void {
  proxyKey = key;
}

function digestOf(url: string): string {
  return createHmac('sha1', proxyKey).update(url, 'utf8').digest('hex');
}

/** The proxy's address for an external image. */
export function proxiedImageUrl(url: string): string {
  return `${IMAGE_PROXY_PREFIX}${digestOf(url)}/${Buffer.from(url, 'utf8').toString('hex')}`;
}

/** The URL a proxy address names, or null when its signature does not match. */
export function proxiedTarget(digest: string, hexUrl: string): string | null {
  if (!/^[0-9a-f]{40}$/.test(digest) || !/^([0-9a-f]{2})+$/.test(hexUrl)) return null;
  const url = Buffer.from(hexUrl, 'hex').toString('utf8');
  const expected = Buffer.from(digestOf(url), 'hex');
  return timingSafeEqual(expected, Buffer.from(digest, 'hex')) ? url : null;
}

/**
 * Whether an image address is shown as it is rather than through the proxy: a relative one
 * (this server's files) or one on the realm's own host, as the family's
 * is_static_or_current_realm_url. Uploads there need the reader's own credentials.
 */
export function isOwnImage(url: string, realmUrl: string): boolean {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(url)) return true;
  try {
    return new URL(url).host === new URL(realmUrl).host;
  } catch {
    return false;
  }
}

/** The `src` an image of a message gets. */
export function imageSrc(url: string, realmUrl: string): string {
  return isOwnImage(url, realmUrl) ? url : proxiedImageUrl(url);
}
