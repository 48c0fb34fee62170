/**
 * Objects an organization shares with everyone in it: linkifiers, channel folders and custom
 * profile fields, as their list endpoints, their events and register all give them.
 */
import type { ChannelFolder, CustomProfileField, Linkifier } from '@chat/db';
import { unixSeconds } from './time';

export function linkifierObject(l: Linkifier) {
  return {
    id: l.id,
    pattern: l.pattern,
    url_template: l.urlTemplate,
    reverse_template: l.reverseTemplate,
    alternative_url_templates: l.alternativeUrlTemplates,
    example_input: l.exampleInput,
  };
}

export function channelFolderObject(f: ChannelFolder) {
  return {
    id: f.id,
    name: f.name,
    description: f.description,
    rendered_description: f.renderedDescription,
    order: f.order,
    creator_id: f.creatorId,
    date_created: unixSeconds(f.dateCreated),
    is_archived: f.isArchived,
  };
}

/**
 * A custom profile field. field_data travels JSON-encoded ("" when there is none), and
 * display_in_profile_summary is present only when true, as clients of this API expect.
 */
export function customProfileFieldObject(f: CustomProfileField): Record<string, unknown> {
  const data = f.fieldData as Record<string, unknown> | null;
  const out: Record<string, unknown> = {
    id: f.id,
    name: f.name,
    type: f.fieldType,
    hint: f.hint,
    field_data: data && Object.keys(data).length ? JSON.stringify(data) : '',
    order: f.order,
    required: f.required,
    editable_by_user: f.editableByUser,
  };
  if (f.displayInProfileSummary) out.display_in_profile_summary = true;
  return out;
}

/** custom_profile_field_types of register: each type's id and the name clients show for it. */
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
