import type { User } from '@chat/client';
import { botEditApplied, botEditParams, botTypeKey, ownerChoices } from '../bots';
import { addDomainParams, domainPath, domainsSummary, isListed, normalizeDomain, removalLiftsRestriction, sortDomains } from '../domains';

const user = (id: number, name: string, more: Partial<User> = {}): User => ({ user_id: id, email: `${id}@x.org`, full_name: name, avatar_url: null, is_active: true, is_bot: false, role: 400, ...more });

describe('allowed domains', () => {
  const list = [
    { domain: 'zeta.org', allow_subdomains: false },
    { domain: 'example.com', allow_subdomains: true },
  ];

  test('a typed domain as the server stores it', () => {
    expect(normalizeDomain('  Example.COM ')).toBe('example.com');
    expect(addDomainParams(' Mail.Example.org', true)).toEqual({ domain: 'mail.example.org', allow_subdomains: true });
  });

  test('listed by name; the summary marks subdomains as the family does', () => {
    expect(sortDomains(list).map((d) => d.domain)).toEqual(['example.com', 'zeta.org']);
    expect(domainsSummary(list)).toBe('*.example.com, zeta.org');
    expect(domainsSummary([])).toBe('');
  });

  test('a domain already listed is known before sending, whatever its case', () => {
    expect(isListed(list, 'EXAMPLE.com ')).toBe(true);
    expect(isListed(list, 'example.net')).toBe(false);
  });

  test('one domain per path, escaped', () => {
    expect(domainPath('example.com')).toBe('/realm/domains/example.com');
    expect(domainPath('a/b')).toBe('/realm/domains/a%2Fb');
  });

  test('only removing the last domain of a restricted list lifts the restriction', () => {
    expect(removalLiftsRestriction([list[0]!], true)).toBe(true);
    expect(removalLiftsRestriction([list[0]!], false)).toBe(false);
    expect(removalLiftsRestriction(list, true)).toBe(false);
  });
});

describe('editing bots', () => {
  const bot = { full_name: 'Build bot', bot_owner_id: 3 };

  test('only what changed is sent; a blank name is not', () => {
    expect(botEditParams(bot, { fullName: 'Build bot', ownerId: 3 })).toEqual({});
    expect(botEditParams(bot, { fullName: '  CI bot ', ownerId: 3 })).toEqual({ full_name: 'CI bot' });
    expect(botEditParams(bot, { fullName: '   ', ownerId: 5 })).toEqual({ bot_owner_id: 5 });
  });

  test('a bot without an owner keeps none until one is chosen', () => {
    expect(botEditParams({ full_name: 'x', bot_owner_id: null }, { fullName: 'x', ownerId: null })).toEqual({});
    expect(botEditParams({ full_name: 'x' }, { fullName: 'x', ownerId: 4 })).toEqual({ bot_owner_id: 4 });
  });

  test('the change has arrived when the store shows every part sent', () => {
    expect(botEditApplied({ full_name: 'CI bot', bot_owner_id: 3 }, { full_name: 'CI bot' })).toBe(true);
    expect(botEditApplied({ full_name: 'CI bot', bot_owner_id: 3 }, { full_name: 'CI bot', bot_owner_id: 5 })).toBe(false);
    expect(botEditApplied({ full_name: 'Build bot', bot_owner_id: 5 }, { bot_owner_id: 5 })).toBe(true);
  });

  test('owners: active people, not bots, by name; a deactivated current owner stays listed', () => {
    const people = [user(1, 'Zed'), user(2, 'Amy'), user(3, 'Gone', { is_active: false }), user(4, 'Other bot', { is_bot: true }), user(5, 'Left', { is_active: false })];
    expect(ownerChoices(people, 3).map((u) => u.user_id)).toEqual([2, 3, 1]);
    expect(ownerChoices(people, null).map((u) => u.user_id)).toEqual([2, 1]);
  });

  test('type names, with a fallback', () => {
    expect(botTypeKey(2)).toBe('admin.bots.type.2');
    expect(botTypeKey(null)).toBe('admin.bots.type.1');
    expect(botTypeKey(9)).toBe('admin.bots.type.unknown');
  });
});
