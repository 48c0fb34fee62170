import { ROLE } from '@chat/contracts';
import { avatarUrl, canSeeDeliveryEmail, EMAIL_VISIBILITY, isoMinutes, profileData, profileDataByUser, userObject, type UserObjectRow } from '..';

const realmUrl = 'https://chat.test';

function user(extra: Partial<UserObjectRow> = {}): UserObjectRow {
  return {
    id: 10, email: 'user10@chat.test', deliveryEmail: 'hamlet@example.test', fullName: 'Hamlet', role: ROLE.MEMBER,
    isBot: false, botType: null, botOwnerId: null, isActive: true, isImportedStub: false,
    dateJoined: new Date('2024-05-01T09:30:45.678Z'), timezone: 'Europe/Oslo', avatarSource: 'G', avatarVersion: 1,
    settings: { email_address_visibility: EMAIL_VISIBILITY.ADMINS }, ...extra,
  };
}

const member = { id: 20, role: ROLE.MEMBER };
const admin = { id: 21, role: ROLE.ADMINISTRATOR };

describe('canSeeDeliveryEmail', () => {
  const target = (visibility: number, extra = {}) => ({ id: 10, isBot: false, visibility, ...extra });

  it('follows the target\'s visibility setting by role', () => {
    expect(canSeeDeliveryEmail(member, target(EMAIL_VISIBILITY.EVERYONE))).toBe(true);
    expect(canSeeDeliveryEmail({ id: 22, role: ROLE.GUEST }, target(EMAIL_VISIBILITY.MEMBERS))).toBe(false);
    expect(canSeeDeliveryEmail(member, target(EMAIL_VISIBILITY.MEMBERS))).toBe(true);
    expect(canSeeDeliveryEmail(member, target(EMAIL_VISIBILITY.MODERATORS))).toBe(false);
    expect(canSeeDeliveryEmail({ id: 23, role: ROLE.MODERATOR }, target(EMAIL_VISIBILITY.MODERATORS))).toBe(true);
    expect(canSeeDeliveryEmail(member, target(EMAIL_VISIBILITY.ADMINS))).toBe(false);
    expect(canSeeDeliveryEmail(admin, target(EMAIL_VISIBILITY.ADMINS))).toBe(true);
    expect(canSeeDeliveryEmail({ id: 24, role: ROLE.OWNER }, target(EMAIL_VISIBILITY.NOBODY))).toBe(false);
  });

  it('always shows people their own address and everyone a bot\'s, and spectators none', () => {
    expect(canSeeDeliveryEmail({ id: 10, role: ROLE.GUEST }, target(EMAIL_VISIBILITY.NOBODY))).toBe(true);
    expect(canSeeDeliveryEmail(member, target(EMAIL_VISIBILITY.NOBODY, { isBot: true }))).toBe(true);
    expect(canSeeDeliveryEmail(null, target(EMAIL_VISIBILITY.EVERYONE))).toBe(false);
  });
});

it('isoMinutes gives minute precision with an explicit offset', () => {
  expect(isoMinutes(new Date('2024-05-01T09:30:45.678Z'))).toBe('2024-05-01T09:30+00:00');
});

describe('profile data', () => {
  const values = [
    { userId: 10, fieldId: 1, value: '555', renderedValue: null },
    { userId: 10, fieldId: 2, value: '**hi**', renderedValue: '<p><strong>hi</strong></p>' },
    { userId: 11, fieldId: 1, value: '777', renderedValue: null },
  ];

  it('keys values by field id, with rendered_value only for rendered types', () => {
    expect(profileData(values.slice(0, 2))).toEqual({ '1': { value: '555' }, '2': { value: '**hi**', rendered_value: '<p><strong>hi</strong></p>' } });
  });

  it('groups by user, and gives the users asked for an entry even without values', () => {
    const byUser = profileDataByUser(values, [10, 12]);
    expect(byUser.get(10)).toEqual(profileData(values.slice(0, 2)));
    expect(byUser.get(11)).toEqual({ '1': { value: '777' } });
    expect(byUser.get(12)).toEqual({});
  });
});

describe('userObject', () => {
  it('builds the full User object of a person', () => {
    expect(userObject(user(), admin, { realmUrl, clientGravatar: false, profileData: { '1': { value: '555' } } })).toEqual({
      user_id: 10,
      delivery_email: 'hamlet@example.test',
      email: 'user10@chat.test',
      full_name: 'Hamlet',
      date_joined: '2024-05-01T09:30+00:00',
      is_active: true,
      is_owner: false,
      is_admin: false,
      is_guest: false,
      is_bot: false,
      bot_type: null,
      bot_owner_id: null,
      role: ROLE.MEMBER,
      timezone: 'Europe/Oslo',
      avatar_url: avatarUrl(user(), realmUrl),
      avatar_version: 1,
      is_imported_stub: false,
      profile_data: { '1': { value: '555' } },
    });
  });

  it('hides the real address from viewers the setting excludes, and from spectators', () => {
    expect(userObject(user(), member, { realmUrl, clientGravatar: false }).delivery_email).toBeNull();
    expect(userObject(user(), null, { realmUrl, clientGravatar: false }).delivery_email).toBeNull();
  });

  it('derives the role flags', () => {
    const owner = userObject(user({ role: ROLE.OWNER }), admin, { realmUrl, clientGravatar: false });
    expect(owner).toMatchObject({ is_owner: true, is_admin: true, is_guest: false });
    const guest = userObject(user({ role: ROLE.GUEST }), admin, { realmUrl, clientGravatar: false });
    expect(guest).toMatchObject({ is_owner: false, is_admin: false, is_guest: true });
  });

  it('gives bots their type and owner and never profile data', () => {
    const bot = userObject(user({ isBot: true, botType: 2, botOwnerId: 20 }), member, { realmUrl, clientGravatar: false, profileData: {} });
    expect(bot).toMatchObject({ is_bot: true, bot_type: 2, bot_owner_id: 20 });
    expect(bot).not.toHaveProperty('profile_data');
  });

  it('leaves profile_data out when it was not asked for', () => {
    expect(userObject(user(), member, { realmUrl, clientGravatar: false })).not.toHaveProperty('profile_data');
  });

  it('leaves avatar_url for the client to compute only when the address is public', () => {
    const publicUser = user({ settings: { email_address_visibility: EMAIL_VISIBILITY.EVERYONE } });
    expect(userObject(publicUser, member, { realmUrl, clientGravatar: true }).avatar_url).toBeNull();
    expect(userObject(publicUser, member, { realmUrl, clientGravatar: false }).avatar_url).toBe(avatarUrl(publicUser, realmUrl));
    expect(userObject(user(), member, { realmUrl, clientGravatar: true }).avatar_url).toBe(avatarUrl(user(), realmUrl));
  });
});
