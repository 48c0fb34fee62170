import { actorFromIdentity } from '@chat/contracts';
import type { Router } from 'express';
import { endpoint, type Params } from '@chat/kit';
import type { Services } from '../context';
import { doUpdateOwnSettings, doUpdateRealmDefaults } from '../actions/settings';
import { checkOwnPasswordChange, doStorePasswordHash } from '../actions/password-login';
import { checkEmailChange, doStartEmailChange } from '../actions/email-change';
import { parseSetting, SETTING_NAMES } from '../lib/settings-schema';

function readSettings(p: Params): Record<string, boolean | number | string> {
  const out: Record<string, boolean | number | string> = {};
  for (const name of SETTING_NAMES) {
    if (p.has(name)) out[name] = parseSetting(name, p.raw(name));
  }
  return out;
}

export function settingsRoutes(router: Router, services: Services): void {
  // /settings/notifications and /settings/display are the family's older paths, kept as
  // aliases of /settings (same parameters) for the clients that still call them.
  router.patch(
    ['/settings', '/settings/notifications', '/settings/display'],
    endpoint(async ({ p, identity }) => {
      const change = { settings: readSettings(p), fullName: p.str('full_name'), timezone: p.str('timezone') };
      // As on the family's server the password is checked first, so a wrong old password changes
      // nothing; the new hash is stored last, once everything else of the request was accepted.
      const newPassword = p.str('new_password');
      const password = newPassword === undefined ? null : await checkOwnPasswordChange(services, identity, p.str('old_password'), newPassword);
      // A new address changes nothing yet: it is checked here (a refusal writes nothing) and,
      // once the rest is saved, gets a confirmation link (actions/email-change.ts).
      const email = p.str('email');
      const actor = actorFromIdentity(identity);
      const newEmail = email === undefined ? null : await checkEmailChange(services, actor, email);
      await doUpdateOwnSettings(services, actor, change);
      if (password) await doStorePasswordHash(services, password, identity.sessionId);
      if (newEmail !== null) await doStartEmailChange(services, actor, newEmail);
    }),
  );
  router.patch(
    '/realm/user_settings_defaults',
    endpoint(async ({ p, identity }) => {
      await doUpdateRealmDefaults(services, actorFromIdentity(identity), () => readSettings(p));
    }),
  );
}
