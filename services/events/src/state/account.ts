/**
 * The viewer's account-level sections: push devices (event type device; the push service owns
 * the rows), the users they muted and the onboarding steps they have not completed yet (users
 * service).
 */
import type { Db } from '@chat/db';
import { mutedUsersList, onboardingStepsList, pushDeviceObject } from '@chat/wire';
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
  // A spectator has no account to complete steps for.
  if (want('onboarding_steps')) out.onboarding_steps = userId === undefined ? [] : await onboardingStepsList(db, userId);
  return out;
}
