/**
 * Sections whose data other areas own (users: linkifiers, navigation views, saved snippets,
 * alert words, statuses, profile fields, channel folders; messaging: search stop words). Read
 * from the shared database with register's other small sections (register-rows.ts), each in the
 * shape the API gives it.
 */
import type { Db } from '@chat/db';
import { SEARCH_STOP_WORDS } from '@chat/contracts';
import {
  alertWordList, channelFolderObject, customProfileFieldObject, linkifierObject, navigationViewObject, PROFILE_FIELD_TYPES,
  realmPlaygroundList, savedSnippetObject, userStatusObject,
} from '@chat/wire';
import { registerRows } from './register-rows';
import type { StateOptions, Want } from '.';

export async function areaSections(db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  const userId = opts.identity.userId;
  const rows = await registerRows(db, opts);
  const out: Record<string, unknown> = {};
  // Clients without URL-template support cannot use modern linkifiers at all.
  if (want('realm_linkifiers')) out.realm_linkifiers = opts.clientCapabilities.linkifier_url_template === true ? rows.linkifiers.map(linkifierObject) : [];
  if (want('realm_filters')) out.realm_filters = [];
  if (want('realm_playgrounds')) out.realm_playgrounds = realmPlaygroundList(rows.playgrounds);
  if (want('navigation_view', 'navigation_views')) out.navigation_views = userId === undefined ? [] : rows.navigationViews.map(navigationViewObject);
  if (want('saved_snippets')) out.saved_snippets = userId === undefined ? [] : rows.savedSnippets.map(savedSnippetObject);
  if (want('alert_words')) out.alert_words = userId === undefined ? [] : alertWordList(rows.alertWords);
  if (want('user_status')) {
    // Users whose status is empty are left out.
    const statuses = rows.userStatuses.map((s) => [String(s.userId), userStatusObject(s)] as const);
    out.user_status = Object.fromEntries(statuses.filter(([, status]) => Object.keys(status).length));
  }
  if (want('custom_profile_fields')) {
    out.custom_profile_fields = rows.customProfileFields.map(customProfileFieldObject);
    out.custom_profile_field_types = PROFILE_FIELD_TYPES;
  }
  if (want('channel_folder', 'channel_folders')) out.channel_folders = rows.channelFolders.map(channelFolderObject);
  // What message search ignores (the messaging service searches with this stop list).
  if (want('stop_words')) out.stop_words = SEARCH_STOP_WORDS;
  return out;
}
