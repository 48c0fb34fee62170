/** Push devices as register's `devices` section gives them and `device` events update them. */
import type { PushDevice } from '@chat/db';
import { unixSeconds } from './time';

/** Token ids travel as the standard Base64 of their 8 big-endian bytes, as the push API takes them. */
export function tokenIdBase64(id: bigint): string;
export function tokenIdBase64(id: bigint | null): string | null;
export function tokenIdBase64(id: bigint | null): string | null {
  if (id === null) return null;
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(BigInt.asIntN(64, id));
  return bytes.toString('base64');
}

/** One device's registration state for end-to-end encrypted push. */
export function pushDeviceObject(d: PushDevice) {
  return {
    push_key_id: d.pushKeyId === null ? null : Number(d.pushKeyId),
    push_token_id: tokenIdBase64(d.pushTokenId),
    pending_push_token_id: tokenIdBase64(d.pendingPushTokenId),
    push_token_last_updated_timestamp: d.pushTokenLastUpdated === null ? null : unixSeconds(d.pushTokenLastUpdated),
    push_registration_error_code: d.pushRegistrationErrorCode,
  };
}
