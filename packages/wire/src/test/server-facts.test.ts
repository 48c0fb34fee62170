import { FEATURE_LEVEL, SERVER_VERSION } from '@chat/contracts';
import { serverFacts, supportedPermissionSettings, versionFields } from '..';

it('gives the version under both names, the merge base falling back to the version', () => {
  expect(versionFields('')).toEqual({
    zulip_version: SERVER_VERSION, zulip_feature_level: FEATURE_LEVEL, zulip_merge_base: SERVER_VERSION,
    svc_version: SERVER_VERSION, svc_feature_level: FEATURE_LEVEL, svc_merge_base: SERVER_VERSION,
  });
  expect(versionFields('abc123')).toMatchObject({ zulip_merge_base: 'abc123', svc_merge_base: 'abc123' });
});

it('points server_emoji_data_url at the realm', () => {
  const facts = serverFacts({ realmUrl: 'https://team.example.org', realmDefaults: {} });
  expect(facts.server_emoji_data_url).toBe('https://team.example.org/static/generated/emoji/emoji_api.json');
});

it('describes every group setting with its default group', () => {
  const settings = supportedPermissionSettings({ can_invite_users_group: 'role:members', can_access_all_users_group: 'role:everyone' });
  expect(settings.realm.can_invite_users_group).toMatchObject({ default_group_name: 'role:members', require_system_group: false });
  expect(settings.realm.can_access_all_users_group).toMatchObject({ require_system_group: true, allow_nobody_group: false });
  expect(settings.stream.can_subscribe_group.default_group_name).toBe('role:nobody');
  // The channel settings that only people who joined may hold, as the family marks them.
  const noEveryone = Object.entries(settings.stream).filter(([, c]) => !c.allow_everyone_group).map(([k]) => k);
  expect(noEveryone.sort()).toEqual(['can_add_subscribers_group', 'can_administer_channel_group', 'can_subscribe_group']);
  expect(Object.keys(settings.group).sort()).toEqual(
    ['can_add_members_group', 'can_join_group', 'can_leave_group', 'can_manage_group', 'can_mention_group', 'can_remove_members_group'],
  );
});
