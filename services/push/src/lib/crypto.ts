import nacl from 'tweetnacl';

/**
 * End-to-end encryption of notification payloads.
 *
 * A device's push_key is one byte naming the cryptosystem followed by the key. The API family
 * defines one cryptosystem so far: 0x31, libsodium's `crypto_secretbox_easy` (XSalsa20 stream
 * cipher with a Poly1305 authenticator, 32-byte key, 24-byte random nonce). tweetnacl's
 * `secretbox` is the same construction and produces the same bytes (16-byte tag, then the
 * ciphertext).
 *
 * `encrypted_data` is Base64 of nonce || secretbox(plaintext), the layout of PyNaCl's
 * SecretBox.encrypt that clients of this API family decrypt.
 */
export const CRYPTOSYSTEM_SECRETBOX = 0x31;
export const PUSH_KEY_LENGTH = 1 + nacl.secretbox.keyLength;

/** True for a push_key this server can encrypt with. */
export function isSupportedPushKey(key: Uint8Array): boolean {
  return key.length === PUSH_KEY_LENGTH && key[0] === CRYPTOSYSTEM_SECRETBOX;
}

export function encryptPayload(pushKey: Uint8Array, payload: unknown): string {
  if (!isSupportedPushKey(pushKey)) throw new Error('unsupported push key');
  const nonce = nacl.randomBytes(nacl.secretbox.nonceLength);
  const plaintext = new TextEncoder().encode(JSON.stringify(payload));
  const boxed = nacl.secretbox(plaintext, nonce, pushKey.subarray(1));
  return Buffer.concat([nonce, boxed]).toString('base64');
}
