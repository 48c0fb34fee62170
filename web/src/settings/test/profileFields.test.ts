import { checkFieldValue, externalAccount, FIELD_TYPE, fieldChoices, profileChange, profileValueMatches, userIds, type ProfileField } from '../lib/profileFields';

const field = (type: number, extra: Partial<ProfileField> = {}): ProfileField => ({ id: 7, type, name: 'F', ...extra });

describe('custom profile fields', () => {
  it('lists a choice field in its order', () => {
    const f = field(FIELD_TYPE.SELECT, { field_data: JSON.stringify({ a: { text: 'Vim', order: '2' }, b: { text: 'Emacs', order: '1' } }) });
    expect(fieldChoices(f)).toEqual([{ key: 'b', text: 'Emacs' }, { key: 'a', text: 'Vim' }]);
    expect(fieldChoices(field(FIELD_TYPE.SELECT, { field_data: 'not json' }))).toEqual([]);
  });

  it('reads an external account field with the realm default pattern', () => {
    const f = field(FIELD_TYPE.EXTERNAL_ACCOUNT, { field_data: '{"subtype":"github"}' });
    expect(externalAccount(f, { github: { name: 'GitHub', url_pattern: 'https://github.com/%(username)s' } })).toEqual({ subtype: 'github', urlPattern: 'https://github.com/%(username)s', name: 'GitHub' });
  });

  it('sends ids for a user field and text otherwise; empty removes', () => {
    expect(profileChange(field(FIELD_TYPE.USER), [3, 4])).toEqual({ op: 'set', id: 7, value: [3, 4] });
    expect(profileChange(field(FIELD_TYPE.USER), [])).toEqual({ op: 'remove', id: 7 });
    expect(profileChange(field(FIELD_TYPE.SHORT_TEXT), '  hi ')).toEqual({ op: 'set', id: 7, value: 'hi' });
    expect(profileChange(field(FIELD_TYPE.LONG_TEXT), ' two\nlines ')).toEqual({ op: 'set', id: 7, value: ' two\nlines ' });
    expect(profileChange(field(FIELD_TYPE.PRONOUNS), '   ')).toEqual({ op: 'remove', id: 7 });
  });

  it('checks links and dates before sending', () => {
    expect(checkFieldValue(field(FIELD_TYPE.URL), 'javascript:alert(1)')).toBe('bad_url');
    expect(checkFieldValue(field(FIELD_TYPE.URL), 'https://example.com/x')).toBeUndefined();
    expect(checkFieldValue(field(FIELD_TYPE.DATE), '12/01/2020')).toBe('bad_date');
    expect(checkFieldValue(field(FIELD_TYPE.DATE), '2020-12-01')).toBeUndefined();
    expect(checkFieldValue(field(FIELD_TYPE.URL), '')).toBeUndefined();
  });

  it('knows when the store holds what was sent', () => {
    expect(userIds('[1,2]')).toEqual([1, 2]);
    expect(userIds(undefined)).toEqual([]);
    expect(profileValueMatches('[1,2]', { op: 'set', id: 7, value: [1, 2] })).toBe(true);
    expect(profileValueMatches('[1]', { op: 'set', id: 7, value: [1, 2] })).toBe(false);
    expect(profileValueMatches(undefined, { op: 'remove', id: 7 })).toBe(true);
    expect(profileValueMatches('x', { op: 'set', id: 7, value: 'x' })).toBe(true);
  });
});
