/**
 * The viewer's account-level sections: push devices (event type device; the push service owns
 * the rows), the users they muted and the onboarding steps they have not completed yet (users
 * service).
 */
import type { Db } from '@chat/db';
import { mutedUsersFrom, onboardingStepsFrom, pushDeviceObject } from '@chat/wire';
import { registerRows } from './register-rows';
import type { StateOptions, Want } from '.';

export async function accountSections(db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  const userId = opts.identity.userId;
  const rows = await registerRows(db, opts);
  const out: Record<string, unknown> = {};
  // Every device of the user by its device_id, with its registration state for E2EE push.
  if (want('device')) out.devices = Object.fromEntries(rows.pushDevices.map((d) => [String(d.deviceId), pushDeviceObject(d)]));
  if (want('muted_users')) out.muted_users = mutedUsersFrom(rows.mutedUsers);
  // A spectator has no account to complete steps for.
  if (want('onboarding_steps')) out.onboarding_steps = userId === undefined ? [] : onboardingStepsFrom(rows.onboardingSteps);
  return out;
}
