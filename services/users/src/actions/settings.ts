import { recordEvent } from '@chat/bus';
import { errors, checkAdmin, isAdmin, type Actor } from '@chat/contracts';
import type { Tx } from '@chat/db';
import { DEFAULT_USER_SETTINGS, realmPolicies, realmUserSettingsDefaults } from '@chat/realm';
import type { Services } from '../context';
import { activeUserIds, usersWhoCanAccess } from '../lib/audience';
import { forgetCachedAuth } from '../lib/auth-cache';
import { apiEmailFor, canSeeDeliveryEmail } from '../lib/emails';
import { checkFullName } from '../lib/names';
import { LANGUAGES } from '../lib/settings-schema';
import { announceExportConsent } from './exports';
import { doChangeFullName } from './manage-users';
import { applyPresenceEnabled } from './presence';

type SettingValue = boolean | number | string;
type UserRow = Awaited<ReturnType<Tx['user']['findFirstOrThrow']>>;

export function isTimezone(tz: string): boolean {
  if (tz === '') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function settingEvent(property: string, value: SettingValue) {
  const event: Record<string, unknown> = { type: 'user_settings', op: 'update', property, value };
  if (property === 'default_language') event.language_name = LANGUAGES[value as string] ?? value;
  return event;
}

/**
 * A new email_address_visibility changes the person's API address (real or placeholder) and
 * which viewers may read the real one; each side hears what changed for it.
 */
async function applyVisibility(tx: Tx, me: UserRow, visibility: number, realmUrl: string): Promise<boolean> {
  const audience = await usersWhoCanAccess(tx, me.realmId, me);
  const viewers = await tx.user.findMany({ where: { id: { in: audience }, NOT: { id: me.id } }, select: { id: true, role: true } });
  const oldVisibility = Number((me.settings as Record<string, unknown>).email_address_visibility ?? 1);
  const gained: number[] = [];
  const lost: number[] = [];
  for (const v of viewers) {
    const before = canSeeDeliveryEmail(v, { id: me.id, isBot: me.isBot, visibility: oldVisibility });
    const after = canSeeDeliveryEmail(v, { id: me.id, isBot: me.isBot, visibility });
    if (before !== after) (after ? gained : lost).push(v.id);
  }
  for (const [users, value] of [[gained, me.deliveryEmail], [lost, null]] as const) {
    if (!users.length) continue;
    await recordEvent(tx, {
      realmId: me.realmId,
      type: 'realm_user',
      users: [...users],
      event: { type: 'realm_user', op: 'update', person: { user_id: me.id, delivery_email: value } },
    });
  }
  const apiEmail = apiEmailFor(me, visibility, realmUrl);
  if (apiEmail === me.email) return false;
  await tx.user.update({ where: { id: me.id }, data: { email: apiEmail } });
  await recordEvent(tx, {
    realmId: me.realmId,
    type: 'realm_user',
    users: audience,
    event: { type: 'realm_user', op: 'update', person: { user_id: me.id, new_email: apiEmail } },
  });
  return true;
}

/** Turning synchronisation off deletes the drafts stored on the server; clients keep their copies. */
async function deleteStoredDrafts(tx: Tx, userId: number) {
  await tx.draft.deleteMany({ where: { userId } });
}

export interface OwnSettingsChange {
  settings: Record<string, SettingValue>;
  fullName?: string;
  timezone?: string;
}

/** PATCH /settings: the caller's own settings; each change is announced to the caller. */
export async function doUpdateOwnSettings(services: Services, actor: Actor, change: OwnSettingsChange): Promise<void> {
  if (change.timezone !== undefined && !isTimezone(change.timezone)) throw errors.badRequest('Not a recognized time zone');
  const staleKey = await services.db.$transaction(async (tx) => {
    const me = await tx.user.findUniqueOrThrow({ where: { id: actor.userId } });
    const realm = await tx.realm.findUniqueOrThrow({ where: { id: actor.realmId } });
    if (change.fullName !== undefined && change.fullName !== me.fullName) {
      if (realmPolicies(realm.settings).name_changes_disabled && !isAdmin(actor)) {
        throw errors.badRequest('Name changes are disabled in this organization.');
      }
      await doChangeFullName(tx, me, checkFullName(change.fullName));
    }
    if (change.timezone !== undefined && change.timezone !== me.timezone) {
      await tx.user.update({ where: { id: me.id }, data: { timezone: change.timezone } });
      await recordEvent(tx, { realmId: me.realmId, type: 'user_settings', users: [me.id], event: settingEvent('timezone', change.timezone) });
      await recordEvent(tx, {
        realmId: me.realmId,
        type: 'realm_user',
        users: await usersWhoCanAccess(tx, me.realmId, me),
        event: { type: 'realm_user', op: 'update', person: { user_id: me.id, email: me.email, timezone: change.timezone } },
      });
    }
    const current = { ...DEFAULT_USER_SETTINGS, ...(me.settings as Record<string, SettingValue>) };
    const next = { ...(me.settings as Record<string, SettingValue>) };
    let emailChanged = false;
    for (const [name, value] of Object.entries(change.settings)) {
      if (current[name] === value) continue;
      next[name] = value;
      await tx.user.update({ where: { id: me.id }, data: { settings: next } });
      await recordEvent(tx, { realmId: me.realmId, type: 'user_settings', users: [me.id], event: settingEvent(name, value) });
      if (name === 'email_address_visibility') emailChanged = await applyVisibility(tx, me, value as number, actor.realmUrl);
      if (name === 'enable_drafts_synchronization' && value === false) await deleteStoredDrafts(tx, me.id);
      if (name === 'presence_enabled') await applyPresenceEnabled(services, tx, me, value as boolean);
      if (name === 'allow_private_data_export') await announceExportConsent(tx, me.realmId, me.id, value as boolean);
    }
    return emailChanged ? me.apiKey : null;
  });
  if (staleKey) await forgetCachedAuth(services, staleKey);
}

export function realmUserDefaults(realmSettings: unknown): Record<string, SettingValue> {
  return realmUserSettingsDefaults(realmSettings);
}

/** PATCH /realm/user_settings_defaults: what people who join later start with. */
export async function doUpdateRealmDefaults(
  services: Services,
  actor: Actor,
  readSettings: () => Record<string, SettingValue>,
): Promise<void> {
  checkAdmin(actor);
  const settings = readSettings();
  await services.db.$transaction(async (tx) => {
    // Row lock: two administrators editing defaults at once must not lose either change.
    await tx.$queryRawUnsafe('SELECT 1 FROM realms WHERE id = $1 FOR UPDATE', actor.realmId);
    const realm = await tx.realm.findUniqueOrThrow({ where: { id: actor.realmId } });
    const stored = (realm.settings ?? {}) as Record<string, unknown>;
    const current = realmUserDefaults(stored);
    const defaults = { ...((stored.user_defaults as Record<string, SettingValue>) ?? {}) };
    const changed = Object.entries(settings).filter(([name, value]) => current[name] !== value);
    if (!changed.length) return;
    for (const [name, value] of changed) defaults[name] = value;
    await tx.realm.update({ where: { id: realm.id }, data: { settings: { ...stored, user_defaults: defaults } } });
    const everyone = await activeUserIds(tx, realm.id);
    for (const [property, value] of changed) {
      await recordEvent(tx, {
        realmId: realm.id,
        type: 'realm_user_settings_defaults',
        users: everyone,
        event: { type: 'realm_user_settings_defaults', op: 'update', property, value },
      });
    }
  });
}
