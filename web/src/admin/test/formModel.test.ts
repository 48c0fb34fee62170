import { admin } from '../../i18n/strings/admin';
import { changedValues, invalidReason, minutesToSeconds, parseDays, readValues, settledDraft, timeLimitChoice, toParams, type FieldDef } from '../formModel';
import { DEFAULTS_SUBSECTIONS } from '../defaultsFields';
import { joinRestrictionsField, PERMISSION_SUBSECTIONS, PROFILE_SUBSECTIONS, SETTINGS_SUBSECTIONS } from '../realmFields';
import { GENERAL_FIELDS, GROUP_PERMISSION_FIELDS } from '../groupFields';
import { generalFields, PERMISSION_FIELDS } from '../channelFields';

const fields: FieldDef[] = [
  { name: 'name', kind: 'text', label: 'admin.field.name' },
  { name: 'invite_required', kind: 'bool', label: 'admin.field.invite_required' },
  { name: 'can_invite_users_group', kind: 'group', label: 'admin.field.can_invite_users_group' },
  { name: 'message_content_edit_limit_seconds', kind: 'timeLimit', label: 'admin.field.message_content_edit_limit_seconds' },
  joinRestrictionsField,
];

const reg = {
  realm_name: 'Acme',
  realm_invite_required: true,
  realm_can_invite_users_group: { direct_members: [2, 1], direct_subgroups: [] },
  realm_message_content_edit_limit_seconds: 600,
  realm_emails_restricted_to_domains: false,
  realm_disallow_disposable_email_addresses: true,
};

describe('settings forms', () => {
  const current = readValues(fields, reg, 'realm_');

  test('current values are read from the snapshot under the prefix, or by the field', () => {
    expect(current).toEqual({
      name: 'Acme',
      invite_required: true,
      can_invite_users_group: { direct_members: [2, 1], direct_subgroups: [] },
      message_content_edit_limit_seconds: 600,
      org_join_restrictions: 'no_disposable_email',
    });
  });

  test('only what differs is a change (group settings compared without order)', () => {
    const draft = { name: 'Acme', invite_required: false, can_invite_users_group: { direct_members: [1, 2], direct_subgroups: [] } };
    expect(changedValues(fields, current, draft)).toEqual({ invite_required: false });
  });

  test('the request: group settings as {new}, joined choices as their two booleans, null kept', () => {
    const params = toParams(fields, { can_invite_users_group: 7, org_join_restrictions: 'only_selected_domain', message_content_edit_limit_seconds: null, name: 'New' });
    expect(params).toEqual({
      name: 'New',
      can_invite_users_group: { new: 7 },
      message_content_edit_limit_seconds: null,
      emails_restricted_to_domains: true,
      disallow_disposable_email_addresses: false,
    });
  });

  test('a draft entry is dropped once the store holds its value', () => {
    expect(settledDraft(fields, { ...current, invite_required: false }, { invite_required: false, name: 'Other' })).toEqual({ name: 'Other' });
  });

  test('problems found before sending', () => {
    const limit = fields[3]!;
    expect(invalidReason(limit, NaN)).toBe('admin.invalid.minutes');
    expect(invalidReason(limit, null)).toBeNull();
    expect(invalidReason(limit, 120)).toBeNull();
    expect(invalidReason(fields[0]!, '  ')).toBe('admin.invalid.required');
    const retention: FieldDef = { name: 'message_retention_days', kind: 'retention', label: 'admin.field.message_retention_days' };
    expect(invalidReason(retention, -1)).toBeNull();
    expect(invalidReason(retention, 0)).toBe('admin.invalid.days');
    expect(invalidReason(retention, null)).toBe('admin.invalid.days');
    expect(invalidReason({ ...retention, nullable: true }, null)).toBeNull();
  });

  test('time limits: presets and typed minutes', () => {
    expect(timeLimitChoice(null)).toBe('0');
    expect(timeLimitChoice(600)).toBe('2');
    expect(timeLimitChoice(900)).toBe('custom');
    expect(minutesToSeconds(' 15 ')).toBe(900);
    expect(minutesToSeconds('0')).toBeNaN();
    expect(minutesToSeconds('1.5')).toBeNaN();
    expect(parseDays('30')).toBe(30);
    expect(parseDays('0')).toBeNaN();
    expect(parseDays('0', 0)).toBe(0);
  });

  test('every field of every form has its words', () => {
    const all = [
      ...[...PROFILE_SUBSECTIONS, ...SETTINGS_SUBSECTIONS, ...PERMISSION_SUBSECTIONS, ...DEFAULTS_SUBSECTIONS].flatMap((s) => [s.title, ...s.fields.flatMap((f) => [f.label, ...(f.options ?? []).map((o) => o.label)])]),
      ...[...GENERAL_FIELDS, ...GROUP_PERMISSION_FIELDS, ...PERMISSION_FIELDS, ...generalFields([], 'none')].flatMap((f) => [f.label, ...(f.options ?? []).map((o) => o.label)]),
    ];
    const missing = all.filter((key) => !(key in admin));
    expect(missing).toEqual([]);
  });
});
