/**
 * The viewer's account-level sections: push devices (event type device; the push service owns
 * the rows), the users they muted (users service), and onboarding steps, a feature this cluster
 * does not have yet, which is honestly empty.
 */
import type { Db } from '@chat/db';
import { mutedUsersList, unixSeconds } from '@chat/wire';
import type { StateOptions, Want } from '.';

/** Token ids travel as the standard Base64 of their 8 big-endian bytes, as the push API takes them. */
function tokenIdBase64(id: bigint | null): string | null {
  if (id === null) return null;
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(BigInt.asIntN(64, id));
  return bytes.toString('base64');
}

/** Every device of the user by its device_id, with its registration state for E2EE push. */
async function devices(db: Db, userId: number) {
  const rows = await db.pushDevice.findMany({ where: { userId }, orderBy: { deviceId: 'asc' } });
  return Object.fromEntries(rows.map((d) => [
    String(d.deviceId),
    {
      push_key_id: d.pushKeyId === null ? null : Number(d.pushKeyId),
      push_token_id: tokenIdBase64(d.pushTokenId),
      pending_push_token_id: tokenIdBase64(d.pendingPushTokenId),
      push_token_last_updated_timestamp: d.pushTokenLastUpdated === null ? null : unixSeconds(d.pushTokenLastUpdated),
      push_registration_error_code: d.pushRegistrationErrorCode,
    },
  ]));
}

export async function accountSections(db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  const userId = opts.identity.userId;
  const out: Record<string, unknown> = {};
  if (want('device')) out.devices = userId === undefined ? {} : await devices(db, userId);
  if (want('muted_users')) out.muted_users = userId === undefined ? [] : await mutedUsersList(db, userId);
  // There are no onboarding steps to show.
  if (want('onboarding_steps')) out.onboarding_steps = [];
  return out;
}
