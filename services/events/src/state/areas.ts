/**
 * Sections whose data other areas own (users: linkifiers, navigation views, saved snippets,
 * alert words, statuses, profile fields, channel folders). Read from the shared database, each
 * in the shape the API gives it.
 */
import type { Db } from '@chat/db';
import {
  alertWordList, channelFolderObject, customProfileFieldObject, linkifierObject, navigationViewObject, PROFILE_FIELD_TYPES,
  realmPlaygroundList, savedSnippetObject, userStatusObject,
} from '@chat/wire';
import type { StateOptions, Want } from '.';

async function linkifiers(db: Db, opts: StateOptions) {
  // Clients without URL-template support cannot use modern linkifiers at all.
  if (opts.clientCapabilities.linkifier_url_template !== true) return [];
  const rows = await db.linkifier.findMany({ where: { realmId: opts.realm.id }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
  return rows.map(linkifierObject);
}

export async function areaSections(db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  const realmId = opts.realm.id;
  const userId = opts.identity.userId;
  const out: Record<string, unknown> = {};
  const jobs: Array<Promise<void>> = [];
  const section = (run: () => Promise<void>) => jobs.push(run());

  if (want('realm_linkifiers')) section(async () => void (out.realm_linkifiers = await linkifiers(db, opts)));
  if (want('realm_filters')) out.realm_filters = [];
  if (want('realm_playgrounds')) {
    section(async () => void (out.realm_playgrounds = realmPlaygroundList(await db.realmPlayground.findMany({ where: { realmId } }))));
  }
  if (want('navigation_view', 'navigation_views')) {
    section(async () => {
      const rows = userId === undefined ? [] : await db.navigationView.findMany({ where: { userId }, orderBy: { id: 'asc' } });
      out.navigation_views = rows.map(navigationViewObject);
    });
  }
  if (want('saved_snippets')) {
    section(async () => {
      const rows = userId === undefined ? [] : await db.savedSnippet.findMany({ where: { userId }, orderBy: { id: 'asc' } });
      out.saved_snippets = rows.map(savedSnippetObject);
    });
  }
  if (want('alert_words')) {
    section(async () => {
      const rows = userId === undefined ? [] : await db.alertWord.findMany({ where: { userId }, orderBy: { id: 'asc' } });
      out.alert_words = alertWordList(rows);
    });
  }
  if (want('user_status')) {
    section(async () => {
      const rows = await db.userStatus.findMany({ where: { realmId } });
      // Users whose status is empty are left out.
      const statuses = rows.map((s) => [String(s.userId), userStatusObject(s)] as const);
      out.user_status = Object.fromEntries(statuses.filter(([, status]) => Object.keys(status).length));
    });
  }
  if (want('custom_profile_fields')) {
    section(async () => {
      const rows = await db.customProfileField.findMany({ where: { realmId }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
      out.custom_profile_fields = rows.map(customProfileFieldObject);
      out.custom_profile_field_types = PROFILE_FIELD_TYPES;
    });
  }
  if (want('channel_folder', 'channel_folders')) {
    section(async () => {
      const rows = await db.channelFolder.findMany({ where: { realmId }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
      out.channel_folders = rows.map(channelFolderObject);
    });
  }
  await Promise.all(jobs);
  return out;
}
