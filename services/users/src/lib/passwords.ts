import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEn from '@zxcvbn-ts/language-en';

/**
 * Login passwords: the family's strength rule, and storage as a memory-hard scrypt hash whose
 * parameters travel in the stored string, so they can be raised later without invalidating
 * existing hashes. A password is never logged or returned.
 */

/** The family's defaults (PASSWORD_MIN_LENGTH, PASSWORD_MIN_GUESSES). */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MIN_GUESSES = 10_000;

let estimator: ZxcvbnFactory | undefined;

/** Long enough, and not guessable in fewer than PASSWORD_MIN_GUESSES tries (zxcvbn's estimate). */
export function isStrongPassword(password: string): boolean {
  if (password === '' || [...password].length < PASSWORD_MIN_LENGTH) return false;
  // Built on first use: loading the dictionaries takes a moment and most requests never need it.
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEn.dictionary },
    graphs: zxcvbnCommon.adjacencyGraphs,
    translations: zxcvbnEn.translations,
  });
  return estimator.check(password).guesses >= PASSWORD_MIN_GUESSES;
}

/** Current cost: 2^15 x 8 x 128 bytes = 32 MiB per hash, about 0.1 s of one core. */
const CURRENT = { N: 2 ** 15, r: 8, p: 1 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }, keyLength: number): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** `scrypt$N$r$p$<salt base64>$<hash base64>`, with a fresh random salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, CURRENT, KEY_BYTES);
  return ['scrypt', CURRENT.N, CURRENT.r, CURRENT.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Compares in constant time with the parameters the hash was made with; false for anything malformed. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = stored?.split('$');
  if (!parts || parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((v) => Number.isSafeInteger(v) && v > 0)) return false;
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  if (expected.length === 0) return false;
  const actual = await derive(password, salt, { N, r, p }, expected.length);
  return timingSafeEqual(actual, expected);
}

