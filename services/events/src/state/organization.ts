/**
 * Organization-wide sections: custom emoji (uploads service), bots, the defaults new users
 * start from and the allowed email domains (users service), default channels and default channel
 * groups (messaging service), and the sections of features this cluster does not have yet, which
 * are honestly empty (docs/events.md, "Initial state").
 */
import { isAdmin, isGuest, optionalActor } from '@chat/contracts';
import type { Db } from '@chat/db';
import { EMOJISET_CHOICES, NOTIFICATION_SOUNDS, realmUserSettingsDefaults } from '@chat/realm';
import { botObject, defaultStreamGroupsList, defaultStreamIdsList, realmDomainsList, realmEmojiMap } from '@chat/wire';
import { realmPeople } from './realm-people';
import type { StateOptions, Want } from '.';

/** Administrators manage every bot of the realm, others their own; deactivated bots included. */
async function realmBots(db: Db, opts: StateOptions) {
  const caller = optionalActor(opts.identity);
  if (!caller) return [];
  // From the realm's people (by id), which register has read or found current anyway.
  const { users } = (await realmPeople(db, opts)).rows;
  const admin = isAdmin(caller);
  return users.filter((u) => u.isBot && (admin || u.botOwnerId === caller.userId)).map((b) => botObject(b, opts.identity.realmUrl));
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
  const jobs: Array<Promise<void>> = [];
  const section = (run: () => Promise<void>) => jobs.push(run());

  if (want('realm_emoji')) {
    section(async () => {
      const rows = await db.realmEmoji.findMany({ where: { realmId: opts.realm.id, fileName: { not: null } }, orderBy: { id: 'asc' } });
      out.realm_emoji = realmEmojiMap(rows);
    });
  }
  if (want('realm_bot')) section(async () => void (out.realm_bots = await realmBots(db, opts)));
  if (want('realm_user_settings_defaults')) {
    out.realm_user_settings_defaults = {
      ...realmUserSettingsDefaults(opts.realm.settings),
      emojiset_choices: EMOJISET_CHOICES,
      available_notification_sounds: NOTIFICATION_SOUNDS,
    };
  }
  if (want('default_streams')) {
    section(async () => void (out.realm_default_streams = seesDefaults(opts) ? await defaultStreamIdsList(db, opts.realm.id, opts.realm.settings) : []));
  }
  if (want('realm_domains')) section(async () => void (out.realm_domains = await realmDomainsList(db, opts.realm.id)));
  if (want('default_stream_groups')) {
    section(async () => void (out.realm_default_stream_groups = seesDefaults(opts) ? await defaultStreamGroupsList(db, opts.realm.id) : []));
  }
  await Promise.all(jobs);
  return out;
}
