import { localTime, profileFields, visibleEmail } from '../info';
import { activityOf } from '../presence';

const user = (extra: Record<string, unknown> = {}) => ({ user_id: 5, email: 'iago@example.com', full_name: 'Iago', avatar_url: null, is_active: true, is_bot: false, role: 400, ...extra }) as any;

describe('user card info', () => {
  it('shows the real email where visible, never the stand-in', () => {
    expect(visibleEmail(user({ delivery_email: 'real@example.com' }))).toBe('real@example.com');
    expect(visibleEmail(user())).toBe('iago@example.com');
    expect(visibleEmail(user({ email: 'user5@chat.example.com' }))).toBeUndefined();
  });
  it('gives the local time in the person\'s zone, or nothing', () => {
    const at = new Date(Date.UTC(2026, 0, 1, 13, 5));
    expect(localTime('UTC', true, at)).toMatch(/13:05/);
    expect(localTime('UTC', false, at)).toMatch(/1:05/);
    expect(localTime('Not/AZone', true, at)).toBeUndefined();
    expect(localTime(undefined, true, at)).toBeUndefined();
  });
  it('lists filled-in profile fields in order, by type', () => {
    const reg = {
      custom_profile_fields: [
        { id: 3, name: 'Team', type: 3, order: 2, field_data: '{"a":{"text":"Backend","order":"1"}}' },
        { id: 1, name: 'Phone', type: 1, order: 1 },
        { id: 4, name: 'GitHub', type: 7, order: 3, field_data: '{"subtype":"github"}' },
        { id: 5, name: 'Manager', type: 6, order: 4 },
        { id: 6, name: 'Empty', type: 1, order: 5 },
        { id: 7, name: 'Bio', type: 2, order: 6 },
      ],
    } as any;
    const u = user({ profile_data: { '1': { value: '123' }, '3': { value: 'a' }, '4': { value: 'iago' }, '5': { value: '[7]' }, '6': { value: '' }, '7': { value: '*hi*', rendered_value: '<p><em>hi</em></p>' } } });
    expect(profileFields(reg, u)).toEqual([
      { id: 1, name: 'Phone', text: '123' },
      { id: 3, name: 'Team', text: 'Backend' },
      { id: 4, name: 'GitHub', text: 'iago', href: 'https://github.com/iago' },
      { id: 5, name: 'Manager', userIds: [7] },
      { id: 7, name: 'Bio', html: '<p><em>hi</em></p>' },
    ]);
  });
});

describe('heartbeat activity', () => {
  it('is active with focus and recent input, idle otherwise', () => {
    expect(activityOf(true, 1000, 2000)).toBe('active');
    expect(activityOf(false, 1000, 2000)).toBe('idle');
    expect(activityOf(true, 0, 6 * 60 * 1000)).toBe('idle');
  });
});
