import { recordEvent } from '@chat/bus';
import type { Tx } from '@chat/db';
import { tokenIdToBase64 } from '../lib/codec';

/**
 * `device` events, sent to the device's owner only (every client of the user keeps the
 * registration state of all the user's devices, so that a client can tell whether its own
 * registration is pending, active or failed).
 */
type DeviceEvent =
  | { type: 'device'; op: 'add'; device_id: number }
  | { type: 'device'; op: 'remove'; device_id: number }
  | ({ type: 'device'; op: 'update'; device_id: number } & Partial<DeviceUpdateFields>);

interface DeviceUpdateFields {
  push_key_id: number;
  push_token_id: string | null;
  pending_push_token_id: string | null;
  push_token_last_updated_timestamp: number;
  push_registration_error_code: string | null;
}

export async function recordDeviceEvent(tx: Tx, realmId: number, userId: number, event: DeviceEvent): Promise<void> {
  await recordEvent(tx, { realmId, type: 'device', event, users: [userId] });
}

export function b64TokenId(id: bigint | null): string | null {
  return id === null ? null : tokenIdToBase64(id);
}

export function seconds(d: Date): number {
  return Math.floor(d.getTime() / 1000);
}
