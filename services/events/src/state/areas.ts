/**
 * Sections whose data other areas own (users: linkifiers, navigation views, saved snippets,
 * alert words, statuses, profile fields, channel folders). Read from the shared database, each
 * in the shape the API gives it.
 */
import type { Db } from '@chat/db';
import type { StateOptions, Want } from '.';

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** Custom profile field types as clients list them (id, name), in display order. */
export const PROFILE_FIELD_TYPES: Record<string, { id: number; name: string }> = {
  SHORT_TEXT: { id: 1, name: 'Text (short)' },
  LONG_TEXT: { id: 2, name: 'Text (long)' },
  SELECT: { id: 3, name: 'List of options' },
  DATE: { id: 4, name: 'Date picker' },
  URL: { id: 5, name: 'Link' },
  USER: { id: 6, name: 'Person picker' },
  EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
  PRONOUNS: { id: 8, name: 'Pronouns' },
};

async function linkifiers(db: Db, opts: StateOptions) {
  // Clients without URL-template support cannot use modern linkifiers at all.
  if (opts.clientCapabilities.linkifier_url_template !== true) return [];
  const rows = await db.linkifier.findMany({ where: { realmId: opts.realm.id }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
  return rows.map((l) => ({
    id: l.id,
    pattern: l.pattern,
    url_template: l.urlTemplate,
    reverse_template: l.reverseTemplate,
    alternative_url_templates: l.alternativeUrlTemplates,
    example_input: l.exampleInput,
  }));
}

export async function areaSections(db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  const realmId = opts.realm.id;
  const userId = opts.identity.userId;
  const out: Record<string, unknown> = {};
  const jobs: Array<Promise<void>> = [];
  const section = (run: () => Promise<void>) => jobs.push(run());

  if (want('realm_linkifiers')) section(async () => void (out.realm_linkifiers = await linkifiers(db, opts)));
  if (want('realm_filters')) out.realm_filters = [];
  if (want('navigation_view', 'navigation_views')) {
    section(async () => {
      const rows = userId === undefined ? [] : await db.navigationView.findMany({ where: { userId }, orderBy: { id: 'asc' } });
      out.navigation_views = rows.map((v) => ({ fragment: v.fragment, is_pinned: v.isPinned, ...(v.name !== null ? { name: v.name } : {}) }));
    });
  }
  if (want('saved_snippets')) {
    section(async () => {
      const rows = userId === undefined ? [] : await db.savedSnippet.findMany({ where: { userId }, orderBy: { id: 'asc' } });
      out.saved_snippets = rows.map((s) => ({ id: s.id, title: s.title, content: s.content, date_created: seconds(s.dateCreated) }));
    });
  }
  if (want('alert_words')) {
    section(async () => {
      const rows = userId === undefined ? [] : await db.alertWord.findMany({ where: { userId }, orderBy: { id: 'asc' } });
      out.alert_words = rows.map((w) => w.word);
    });
  }
  if (want('user_status')) {
    section(async () => {
      const rows = await db.userStatus.findMany({ where: { realmId } });
      out.user_status = Object.fromEntries(
        rows
          .filter((s) => s.statusText || s.emojiName)
          .map((s) => [
            String(s.userId),
            {
              ...(s.statusText ? { status_text: s.statusText } : {}),
              ...(s.emojiName ? { emoji_name: s.emojiName, emoji_code: s.emojiCode, reaction_type: s.reactionType } : {}),
            },
          ]),
      );
    });
  }
  if (want('custom_profile_fields')) {
    section(async () => {
      const rows = await db.customProfileField.findMany({ where: { realmId }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
      out.custom_profile_fields = rows.map((f) => ({
        id: f.id,
        name: f.name,
        type: f.fieldType,
        hint: f.hint,
        field_data: Object.keys((f.fieldData ?? {}) as object).length ? JSON.stringify(f.fieldData) : '',
        order: f.order,
        display_in_profile_summary: f.displayInProfileSummary,
        required: f.required,
        editable_by_user: f.editableByUser,
      }));
      out.custom_profile_field_types = PROFILE_FIELD_TYPES;
    });
  }
  if (want('channel_folder', 'channel_folders')) {
    section(async () => {
      const rows = await db.channelFolder.findMany({ where: { realmId }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
      out.channel_folders = rows.map((f) => ({
        id: f.id,
        name: f.name,
        description: f.description,
        rendered_description: f.renderedDescription,
        order: f.order,
        creator_id: f.creatorId,
        date_created: seconds(f.dateCreated),
        is_archived: f.isArchived,
      }));
    });
  }
  if (want('drafts')) out.drafts = [];
  await Promise.all(jobs);
  return out;
}
