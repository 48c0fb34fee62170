import {
  actorFromIdentity, ApiError, checkAdmin, checkNotBot, checkNotGuest, checkOwner,
  isAdmin, isGuest, isMember, isModerator, isOwner, optionalActor, ROLE,
} from '..';

const { OWNER, ADMINISTRATOR, MODERATOR, MEMBER, GUEST } = ROLE;

/** Each role against each predicate: lower role numbers carry more rights. */
const TABLE: Array<[number, { owner: boolean; admin: boolean; moderator: boolean; member: boolean; guest: boolean }]> = [
  [OWNER, { owner: true, admin: true, moderator: true, member: true, guest: false }],
  [ADMINISTRATOR, { owner: false, admin: true, moderator: true, member: true, guest: false }],
  [MODERATOR, { owner: false, admin: false, moderator: true, member: true, guest: false }],
  [MEMBER, { owner: false, admin: false, moderator: false, member: true, guest: false }],
  [GUEST, { owner: false, admin: false, moderator: false, member: false, guest: true }],
];

function errorOf(fn: () => void): ApiError | undefined {
  try {
    fn();
  } catch (err) {
    return err as ApiError;
  }
  return undefined;
}

describe('actor role predicates', () => {
  it.each(TABLE)('role %i', (role, want) => {
    const a = { role };
    expect({ owner: isOwner(a), admin: isAdmin(a), moderator: isModerator(a), member: isMember(a), guest: isGuest(a) }).toEqual(want);
  });

  it('checks throw the catalogue errors, and only when the predicate fails', () => {
    for (const [role, want] of TABLE) {
      expect(errorOf(() => checkAdmin({ role }))?.toJSON()).toEqual(want.admin ? undefined : expect.objectContaining({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' }));
      expect(errorOf(() => checkOwner({ role }))?.toJSON()).toEqual(want.owner ? undefined : expect.objectContaining({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' }));
      expect(errorOf(() => checkNotGuest({ role }))?.toJSON()).toEqual(want.guest ? expect.objectContaining({ code: 'BAD_REQUEST', msg: 'Insufficient permission' }) : undefined);
    }
    expect(errorOf(() => checkNotBot({ isBot: true }))?.toJSON()).toEqual(expect.objectContaining({ msg: 'This endpoint does not accept bot requests.' }));
    expect(errorOf(() => checkNotBot({ isBot: false }))).toBeUndefined();
  });
});

describe('actorFromIdentity', () => {
  const base = { realmId: 3, realmUrl: 'http://chat.example' };

  it('keeps exactly the caller fields of a signed-in identity', () => {
    const actor = actorFromIdentity({ ...base, userId: 7, email: 'a@example.com', role: MEMBER, isBot: false, clientIp: '10.0.0.1' });
    expect(actor).toEqual({ ...base, userId: 7, email: 'a@example.com', role: MEMBER, isBot: false });
  });

  it('refuses an identity without a user as not logged in', () => {
    const err = errorOf(() => actorFromIdentity(base));
    expect(err).toBeInstanceOf(ApiError);
    expect(err!.status).toBe(401);
  });

  it('gives spectators no actor where a route allows them', () => {
    expect(optionalActor(base)).toBeNull();
    expect(optionalActor({ ...base, userId: 7, email: 'a@example.com', role: GUEST, isBot: false })).toMatchObject({ userId: 7, role: GUEST });
  });
});
