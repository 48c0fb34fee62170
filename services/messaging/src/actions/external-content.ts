import { errors } from '@chat/contracts';
import type { Services } from '../context';
import { guardedGet, mediaType, OutboundError, parseNetworks, type OutboundFailure, type OutboundPolicy } from '../lib/outbound';
import { proxiedTarget } from '../markdown/image-proxy';

/**
 * Image types the proxy passes on. SVG is left out: an SVG opened on its own is a document
 * that can run script, on our origin.
 */
const IMAGE_TYPES = new Set(['image/apng', 'image/avif', 'image/bmp', 'image/gif', 'image/jpeg', 'image/png', 'image/tiff', 'image/webp', 'image/x-icon', 'image/vnd.microsoft.icon']);

/** What the reader gets for each way an outside request fails. */
const FAILURES: Record<OutboundFailure | 'type', [string, number]> = {
  scheme: ['not an http or https address', 403],
  address: ['the address is not allowed', 403],
  type: ['not an image', 415],
  size: ['the image is too large', 413],
  status: ['the server did not answer with the image', 502],
  redirects: ['too many redirects', 502],
  network: ['the server could not be reached', 502],
  timeout: ['the server took too long', 504],
};

/** The outside requests' limits from the configuration (`maxBytes` by what is fetched). */
export function outboundPolicy(config: Services['config'], maxBytes: number): OutboundPolicy {
  return { allowedNetworks: parseNetworks(config.EXTERNAL_FETCH_ALLOWED_NETWORKS), timeoutMs: config.EXTERNAL_FETCH_TIMEOUT_MS, maxBytes };
}

/**
 * The image a proxy address names (`/external_content/<digest>/<hex URL>`), fetched within the
 * limits: a signature of ours, an allowed address, an image type, the size and time limits.
 */
export async function accessExternalImage(services: Services, digest: string, hexUrl: string): Promise<{ contentType: string; body: Buffer }> {
  const url = proxiedTarget(digest, hexUrl);
  if (url === null) throw errors.invalidExternalContentUrl();
  const fail = (why: OutboundFailure | 'type') => errors.externalImageUnavailable(...FAILURES[why]);
  try {
    const answer = await guardedGet(url, outboundPolicy(services.config, services.config.IMAGE_PROXY_MAX_BYTES), 'image/*');
    const type = mediaType(answer.contentType);
    if (!IMAGE_TYPES.has(type)) throw fail('type');
    return { contentType: type, body: answer.body };
  } catch (err) {
    if (err instanceof OutboundError) throw fail(err.reason);
    throw err;
  }
}
