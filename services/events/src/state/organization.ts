/**
 * Organization-wide sections: custom emoji (uploads service), bots, the defaults new users
 * start from and the allowed email domains (users service), default channels and default channel
 * groups (messaging service), and the sections of features this cluster does not have yet, which
 * are honestly empty (docs/events.md, "Initial state").
 */
import { BOT_TYPE, isAdmin, isGuest, optionalActor } from '@chat/contracts';
import type { Db } from '@chat/db';
import { EMOJISET_CHOICES, NOTIFICATION_SOUNDS, realmUserSettingsDefaults } from '@chat/realm';
import { botObject, botServices, defaultStreamGroupsFrom, defaultStreamIdsFrom, realmDomainObject, realmEmojiMap } from '@chat/wire';
import { realmPeople } from './realm-people';
import { registerRows } from './register-rows';
import type { StateOptions, Want } from '.';

/** Administrators manage every bot of the realm, others their own; deactivated bots included. */
async function realmBots(db: Db, opts: StateOptions) {
  const caller = optionalActor(opts.identity);
  if (!caller) return [];
  // From the realm's people (by id), which register has read or found current anyway.
  const { users } = (await realmPeople(db, opts)).rows;
  const admin = isAdmin(caller);
  const bots = users.filter((u) => u.isBot && (admin || u.botOwnerId === caller.userId));
  // Only outgoing-webhook bots have services: most realms have none and skip the read.
  const outgoing = bots.filter((b) => b.botType === BOT_TYPE.OUTGOING_WEBHOOK).map((b) => b.id);
  const rows = outgoing.length ? await db.botService.findMany({ where: { botId: { in: outgoing } }, orderBy: { id: 'asc' } }) : [];
  return bots.map((b) => botObject(b, opts.identity.realmUrl, botServices(rows.filter((r) => r.botId === b.id))));
}

/**
 * Default channels (default_stream_ids in the realm's settings, the channels new users join) and
 * default channel groups. Guests and spectators may not see them all, so for them the
 * organization has none, as in the API family; the events about them go to non-guests only.
 */
function seesDefaults(opts: StateOptions): boolean {
  const caller = optionalActor(opts.identity);
  return caller !== null && !isGuest(caller);
}

export async function organizationSections(db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const rows = await registerRows(db, opts);
  if (want('realm_emoji')) out.realm_emoji = realmEmojiMap(rows.realmEmoji);
  if (want('realm_bot')) out.realm_bots = await realmBots(db, opts);
  if (want('realm_user_settings_defaults')) {
    out.realm_user_settings_defaults = {
      ...realmUserSettingsDefaults(opts.realm.settings),
      emojiset_choices: EMOJISET_CHOICES,
      available_notification_sounds: NOTIFICATION_SOUNDS,
    };
  }
  if (want('default_streams')) out.realm_default_streams = seesDefaults(opts) ? defaultStreamIdsFrom(opts.realm.settings, rows.streams) : [];
  if (want('realm_domains')) out.realm_domains = rows.realmDomains.map(realmDomainObject);
  if (want('default_stream_groups')) out.realm_default_stream_groups = seesDefaults(opts) ? defaultStreamGroupsFrom(rows.defaultStreamGroups, rows.streams) : [];
  return out;
}
