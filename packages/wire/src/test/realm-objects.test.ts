import type { ChannelFolder, CustomProfileField, Linkifier } from '@chat/db';
import { channelFolderObject, customProfileFieldObject, linkifierObject, PROFILE_FIELD_TYPES } from '..';

const created = new Date('2024-05-01T09:30:45.678Z');
const createdSeconds = Math.floor(created.getTime() / 1000);

describe('linkifierObject', () => {
  it('gives every field under its API name, nulls included', () => {
    const row: Linkifier = {
      id: 7, realmId: 1, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://tracker.test/{id}',
      reverseTemplate: null, alternativeUrlTemplates: ['https://t.test/{id}'], exampleInput: null, order: 3,
    };
    expect(linkifierObject(row)).toEqual({
      id: 7,
      pattern: '#(?P<id>[0-9]+)',
      url_template: 'https://tracker.test/{id}',
      reverse_template: null,
      alternative_url_templates: ['https://t.test/{id}'],
      example_input: null,
    });
  });
});

describe('channelFolderObject', () => {
  it('gives the creation time in whole seconds', () => {
    const row: ChannelFolder = {
      id: 2, realmId: 1, name: 'Teams', description: '**all**', renderedDescription: '<p><strong>all</strong></p>',
      order: 4, creatorId: null, dateCreated: created, isArchived: true,
    };
    expect(channelFolderObject(row)).toEqual({
      id: 2,
      name: 'Teams',
      description: '**all**',
      rendered_description: '<p><strong>all</strong></p>',
      order: 4,
      creator_id: null,
      date_created: createdSeconds,
      is_archived: true,
    });
  });
});

describe('customProfileFieldObject', () => {
  const base: CustomProfileField = {
    id: 5, realmId: 1, name: 'Team', hint: 'Which team', fieldType: 3, fieldData: {}, order: 2,
    displayInProfileSummary: false, required: true, editableByUser: false,
  };

  it('sends empty field_data as "" and leaves display_in_profile_summary out when false', () => {
    const out = customProfileFieldObject(base);
    expect(out).toEqual({ id: 5, name: 'Team', type: 3, hint: 'Which team', field_data: '', order: 2, required: true, editable_by_user: false });
    expect(out).not.toHaveProperty('display_in_profile_summary');
  });

  it('JSON-encodes field_data and marks summary fields', () => {
    const data = { a: { text: 'Alpha', order: '1' } };
    const out = customProfileFieldObject({ ...base, fieldData: data, displayInProfileSummary: true });
    expect(JSON.parse(out.field_data as string)).toEqual(data);
    expect(out.display_in_profile_summary).toBe(true);
  });

  it('treats a null field_data as none', () => {
    expect(customProfileFieldObject({ ...base, fieldData: null }).field_data).toBe('');
  });
});

it('names every custom profile field type with its id', () => {
  const ids = Object.values(PROFILE_FIELD_TYPES).map((t) => t.id);
  expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(PROFILE_FIELD_TYPES.SELECT).toEqual({ id: 3, name: 'List of options' });
});
