import { ROLE, ROLES } from '@chat/contracts';
import { channelAccess, channelSeenUpToRole } from '..';

const KINDS = {
  webPublic: { inviteOnly: false, isWebPublic: true, historyPublicToSubscribers: true },
  public: { inviteOnly: false, isWebPublic: false, historyPublicToSubscribers: true },
  privateShared: { inviteOnly: true, isWebPublic: false, historyPublicToSubscribers: true },
  privateProtected: { inviteOnly: true, isWebPublic: false, historyPublicToSubscribers: false },
};

it('gives each role what the family gives it, with and without a subscription', () => {
  const guest = { role: ROLE.GUEST };
  const member = { role: ROLE.MEMBER };
  const admin = { role: ROLE.ADMINISTRATOR };
  const on = { active: true };
  expect(channelAccess(guest, KINDS.public, null)).toEqual({ canSee: false, canReadContent: false, canReadHistory: false, canSeeSubscribers: true });
  expect(channelAccess(guest, KINDS.webPublic, null)).toMatchObject({ canSee: true, canReadContent: true, canReadHistory: true });
  expect(channelAccess(guest, KINDS.public, on)).toMatchObject({ canSee: true, canReadContent: true, canReadHistory: true });
  expect(channelAccess(member, KINDS.public, null)).toMatchObject({ canSee: true, canReadContent: true, canReadHistory: true });
  expect(channelAccess(member, KINDS.privateShared, null)).toEqual({ canSee: false, canReadContent: false, canReadHistory: false, canSeeSubscribers: false });
  expect(channelAccess(member, KINDS.privateShared, { active: false })).toMatchObject({ canSee: false, canSeeSubscribers: false });
  expect(channelAccess(member, KINDS.privateProtected, on)).toEqual({ canSee: true, canReadContent: true, canReadHistory: false, canSeeSubscribers: true });
  // An administrator sees a private channel and its subscribers, but not its messages.
  expect(channelAccess(admin, KINDS.privateShared, null)).toEqual({ canSee: true, canReadContent: false, canReadHistory: false, canSeeSubscribers: true });
  // Spectators: web-public channels only, without their subscribers.
  expect(channelAccess(null, KINDS.webPublic, null)).toEqual({ canSee: true, canReadContent: true, canReadHistory: true, canSeeSubscribers: false });
  expect(channelAccess(null, KINDS.public, null).canSee).toBe(false);
});

it('lists by role exactly the unsubscribed people the rule lets see each kind of channel', () => {
  for (const channel of Object.values(KINDS)) {
    for (const role of ROLES) {
      expect({ channel, role, sees: role <= channelSeenUpToRole(channel) }).toEqual({ channel, role, sees: channelAccess({ role }, channel, null).canSee });
    }
  }
});
