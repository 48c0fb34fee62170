import { createHash } from 'node:crypto';

/**
 * Byte encodings the push API uses. Base64 here is always the standard alphabet with padding
 * (RFC 4648 section 4): Buffer.from(s, 'base64') silently accepts URL-safe characters, stray
 * whitespace and garbage, so strings are checked against the grammar before decoding.
 */

const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The decoded bytes of a non-empty standard Base64 string, or null if it is not one. */
export function decodeStandardBase64(s: string): Buffer | null {
  if (s.length === 0 || !STANDARD_BASE64.test(s)) return null;
  return Buffer.from(s, 'base64');
}

/** token_id on the wire (Base64 of 8 bytes) to the signed 64-bit integer stored. */
export function tokenIdFromBytes(bytes: Buffer): bigint {
  return bytes.readBigInt64BE(0);
}

/** The stored integer back to token_id on the wire (one encoder, shared with register). */
export { tokenIdBase64 as tokenIdToBase64 } from '@chat/wire';

/** The token_id a client computes for a provider token: the first 8 bytes of its SHA-256. */
export function tokenIdOfToken(token: string): bigint {
  return tokenIdFromBytes(createHash('sha256').update(token, 'utf8').digest().subarray(0, 8));
}

export function isUint32(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0 && n <= 0xffffffff;
}
