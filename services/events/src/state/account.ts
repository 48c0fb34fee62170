/**
 * The viewer's account-level sections: push devices (event type device; the push service owns
 * the rows), the users they muted (users service), and onboarding steps, a feature this cluster
 * does not have yet, which is honestly empty.
 */
import type { Db } from '@chat/db';
import { mutedUsersList, pushDeviceObject } from '@chat/wire';
import type { StateOptions, Want } from '.';

/** Every device of the user by its device_id, with its registration state for E2EE push. */
async function devices(db: Db, userId: number) {
  const rows = await db.pushDevice.findMany({ where: { userId }, orderBy: { deviceId: 'asc' } });
  return Object.fromEntries(rows.map((d) => [String(d.deviceId), pushDeviceObject(d)]));
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
