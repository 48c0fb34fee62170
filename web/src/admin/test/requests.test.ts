import { createChannelParams, generalFields, privacyOf, retentionParam } from '../channelFields';
import { toParams } from '../formModel';
import { emailInviteParams, invitableRoles, linkInviteParams, parseEmails, sortInvites, type InviteForm } from '../invites';
import { assignableRoles, canChangeRole, canDeactivate, filterUsers, parseUserIds, profileEntry } from '../people';
import { choicesData, createFieldParams, EMPTY_FIELD, formOf, nextChoiceKey, updateFieldParams } from '../profileFieldForm';
import { moved } from '../reorder';
import { sectionAccess, sectionFromHash, visibleSections } from '../sections';
import { groupRights, subgroupCandidates } from '../groupFields';

const form: InviteForm = { emails: 'a@x.org, b@x.org\nc@x.org;a@x.org', inviteAs: 400, expiresInMinutes: 1440, includeDefaults: true, streamIds: [3], groupIds: [], notifyReferrer: true };

describe('invitations', () => {
  test('addresses split on commas, semicolons and new lines, each once', () => {
    expect(parseEmails(form.emails)).toEqual(['a@x.org', 'b@x.org', 'c@x.org']);
    expect(parseEmails('  ')).toEqual([]);
  });

  test('email invitations', () => {
    expect(emailInviteParams(form)).toEqual({
      invitee_emails: 'a@x.org,b@x.org,c@x.org',
      invite_as: 400,
      invite_expires_in_minutes: 1440,
      stream_ids: [3],
      include_realm_default_subscriptions: true,
      notify_referrer_on_join: true,
    });
  });

  test('links take no addresses; a link that never expires sends null', () => {
    expect(linkInviteParams({ ...form, expiresInMinutes: null, groupIds: [9] })).toEqual({
      invite_as: 400,
      invite_expires_in_minutes: null,
      stream_ids: [3],
      include_realm_default_subscriptions: true,
      group_ids: [9],
    });
  });

  test('who may be invited as what', () => {
    expect(invitableRoles({ isOwner: true, isAdmin: true })).toContain(100);
    expect(invitableRoles({ isOwner: false, isAdmin: true })).not.toContain(100);
    expect(invitableRoles({ isOwner: false, isAdmin: false })).toEqual([600, 400]);
  });

  test('newest first', () => {
    const inv = (id: number, invited: number) => ({ id, invited, invited_by_user_id: 1, expiry_date: null, invited_as: 400, is_multiuse: false });
    expect(sortInvites([inv(1, 10), inv(2, 30), inv(3, 20)]).map((i) => i.id)).toEqual([2, 3, 1]);
  });
});

describe('channels', () => {
  test('creating a private channel', () => {
    expect(createChannelParams({ name: ' plans ', description: 'd', privacy: 'private', historyPublic: false, announce: false, subscribers: [1, 2], folderId: 4, isDefault: false })).toEqual({
      subscriptions: [{ name: 'plans', description: 'd' }],
      invite_only: true,
      is_web_public: false,
      history_public_to_subscribers: false,
      announce: false,
      principals: [1, 2],
      folder_id: 4,
    });
  });

  test('a public channel always shows its history; a default one says so', () => {
    const p = createChannelParams({ name: 'x', description: '', privacy: 'web_public', historyPublic: false, announce: true, subscribers: [], folderId: null, isDefault: true });
    expect(p).toMatchObject({ invite_only: false, is_web_public: true, history_public_to_subscribers: true, is_default_stream: true });
    expect(p).not.toHaveProperty('folder_id');
  });

  test('editing: privacy, folder, name and retention in the words PATCH takes', () => {
    const fields = generalFields([{ id: 4, name: 'Team' }], 'No folder');
    expect(toParams(fields, { privacy: 'private', folder_id: -1, name: ' new ', message_retention_days: null })).toEqual({
      new_name: 'new',
      is_private: true,
      is_web_public: false,
      folder_id: null,
      message_retention_days: 'realm_default',
    });
    expect(retentionParam(-1)).toBe('unlimited');
    expect(retentionParam(30)).toBe(30);
    expect(privacyOf({ invite_only: false, is_web_public: true })).toBe('web_public');
  });
});

describe('users', () => {
  const users = [
    { user_id: 1, full_name: 'Ada Lovelace', email: 'user1@x', delivery_email: 'ada@x.org', role: 100, is_active: true, is_bot: false, avatar_url: null },
    { user_id: 2, full_name: 'Bob', email: 'bob@x.org', role: 400, is_active: true, is_bot: false, avatar_url: null },
  ];

  test('search by name, email or id', () => {
    expect(filterUsers(users, 'ada').map((u) => u.user_id)).toEqual([1]);
    expect(filterUsers(users, 'ADA@X').map((u) => u.user_id)).toEqual([1]);
    expect(filterUsers(users, '2').map((u) => u.user_id)).toEqual([2]);
    expect(filterUsers(users, '').length).toBe(2);
  });

  test('administrators do not change owners; nobody deactivates themselves', () => {
    const admin = { userId: 3, isOwner: false, isAdmin: true };
    expect(canChangeRole(admin, users[0]!)).toBe(false);
    expect(canChangeRole(admin, users[1]!)).toBe(true);
    expect(canDeactivate(admin, users[0]!)).toBe(false);
    expect(canDeactivate({ userId: 1, isOwner: true, isAdmin: true }, users[0]!)).toBe(false);
    expect(assignableRoles(admin)).not.toContain(100);
  });

  test('profile data entries: text trimmed, empty removes, people as ids', () => {
    expect(profileEntry(5, 1, ' hi ')).toEqual({ id: 5, value: 'hi' });
    expect(profileEntry(5, 2, 'line\n')).toEqual({ id: 5, value: 'line\n' });
    expect(profileEntry(5, 1, '')).toEqual({ id: 5, value: null });
    expect(profileEntry(6, 6, [3, 4])).toEqual({ id: 6, value: [3, 4] });
    expect(profileEntry(6, 6, [])).toEqual({ id: 6, value: null });
    expect(parseUserIds('[3,4]')).toEqual([3, 4]);
    expect(parseUserIds('nope')).toEqual([]);
  });
});

describe('profile fields', () => {
  test('a choice field keeps its choices’ keys and drops empty ones', () => {
    expect(choicesData([{ key: '3', text: 'Red' }, { key: '0', text: ' ' }, { key: '1', text: 'Blue ' }])).toEqual({ 3: { text: 'Red', order: '0' }, 1: { text: 'Blue', order: '1' } });
    expect(nextChoiceKey([{ key: '3', text: '' }, { key: '1', text: '' }])).toBe('4');
  });

  test('creating and editing', () => {
    const f = { ...EMPTY_FIELD, name: ' Team ', type: 7, subtype: 'custom', urlPattern: 'https://x/%(username)s' };
    expect(createFieldParams(f)).toEqual({ name: 'Team', hint: '', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://x/%(username)s' }, display_in_profile_summary: false, required: false, editable_by_user: true });
    expect(updateFieldParams(f)).not.toHaveProperty('field_type');
    expect(createFieldParams({ ...EMPTY_FIELD, name: 'Bio', type: 2 })).not.toHaveProperty('field_data');
  });

  test('an existing field read back into the form', () => {
    const back = formOf({ name: 'Colour', type: 3, field_data: '{"1":{"text":"Blue","order":"1"},"0":{"text":"Red","order":"0"}}', required: true });
    expect(back.choices).toEqual([{ key: '0', text: 'Red' }, { key: '1', text: 'Blue' }]);
    expect(back.required).toBe(true);
    expect(back.editableByUser).toBe(true);
  });
});

describe('sections and order', () => {
  const member = { isOwner: false, isAdmin: false, isGuest: false, canInvite: false };
  const admin = { isOwner: false, isAdmin: true, isGuest: false, canInvite: true };
  test('who sees what', () => {
    expect(sectionAccess('auth-methods', admin)).toBe('read');
    expect(sectionAccess('auth-methods', { ...admin, isOwner: true })).toBe('edit');
    expect(sectionAccess('data-exports-admin', member)).toBe('hidden');
    expect(sectionAccess('invites', { ...member, canInvite: true })).toBe('edit');
    expect(sectionAccess('organization-settings', member)).toBe('read');
    expect(visibleSections({ ...member, isGuest: true }).map((s) => s.id)).toEqual(['organization-profile', 'emoji-settings']);
  });

  test('hash names, old ones too', () => {
    expect(sectionFromHash('users')).toBe('users');
    expect(sectionFromHash('profile')).toBe('organization-profile');
    expect(sectionFromHash('default-streams-list')).toBe('default-channels-list');
    expect(sectionFromHash('nonsense')).toBe('organization-profile');
  });

  test('moving an item', () => {
    expect(moved([1, 2, 3], 2, -1)).toEqual([2, 1, 3]);
    expect(moved([1, 2, 3], 3, 1)).toEqual([1, 2, 3]);
  });
});

describe('user groups', () => {
  const g = (id: number, name: string, extra: Record<string, unknown> = {}) => ({ id, name, description: '', members: [] as number[], direct_subgroup_ids: [] as number[], is_system_group: false, ...extra });
  test('rights: administrators, the realm setting, or the group’s own', () => {
    const design = g(20, 'design', { can_manage_group: { direct_members: [7], direct_subgroups: [] }, can_add_members_group: 1 });
    const map = new Map([[20, design]]);
    expect(groupRights(design, 7, false, 1, map)).toEqual({ manage: true, addMembers: true, removeMembers: true });
    expect(groupRights(design, 8, false, 1, map)).toEqual({ manage: false, addMembers: false, removeMembers: false });
    expect(groupRights(design, 8, true, 1, map).manage).toBe(true);
    expect(groupRights(g(1, 'role:owners', { is_system_group: true }), 8, true, 1, map).manage).toBe(false);
  });

  test('a group cannot take itself or a group containing it', () => {
    const a = g(1, 'a');
    const b = g(2, 'b', { direct_subgroup_ids: [1] });
    const c = g(3, 'c');
    expect(subgroupCandidates(a, [a, b, c]).map((x) => x.name)).toEqual(['c']);
  });
});
