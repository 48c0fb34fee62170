/**
 * Who may see a channel, read its messages and see its subscribers: the one rule, for every
 * service (the family keeps it in one library file too, zerver/lib/streams.py). What a role
 * and a subscription give; the group settings that grant more (can_subscribe_group and the
 * others) are checked beside it by the channel's permission checks.
 *
 * - A web-public channel is open to everyone in the realm, guests included, and its messages to
 *   spectators too.
 * - Another public channel is open to everyone but guests; a subscribed guest sees it too.
 * - A private channel is open to its subscribers; an organization administrator sees that it
 *   exists and who is in it, but reads none of its messages.
 * - History from before one's own subscription is read only where history is public to
 *   subscribers; elsewhere only one's own copies (user_messages rows) are.
 */
import { isAdmin, isGuest, ROLE } from '@chat/contracts';

type HasRole = { role: number };

/** The columns of a channel the rule reads. */
export interface ChannelAccessFacts {
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
}

export interface ChannelAccess {
  /** May learn the channel exists: its name, description and settings. */
  canSee: boolean;
  /** May read its messages (the family's content access) and post, typing notices included. */
  canReadContent: boolean;
  /** May read messages they have no copy of (sent before they joined). */
  canReadHistory: boolean;
  /** May see its subscriber list. */
  canSeeSubscribers: boolean;
}

/**
 * What `viewer` (null: a spectator, not logged in) may do with `channel`, given their
 * subscription row to it (null or inactive: not subscribed).
 */
export function channelAccess(viewer: HasRole | null, channel: ChannelAccessFacts, subscription: { active: boolean } | null): ChannelAccess {
  if (viewer === null) {
    const open = channel.isWebPublic;
    return { canSee: open, canReadContent: open, canReadHistory: open && channel.historyPublicToSubscribers, canSeeSubscribers: false };
  }
  const subscribed = subscription?.active === true;
  const admin = isAdmin(viewer);
  const publicToViewer = !channel.inviteOnly && (!isGuest(viewer) || channel.isWebPublic);
  const canReadContent = publicToViewer || subscribed;
  return {
    canSee: canReadContent || (channel.inviteOnly && admin),
    canReadContent,
    canReadHistory: canReadContent && channel.historyPublicToSubscribers,
    // A public channel's subscribers are as open as the channel; a private one's, to the people
    // who may see it.
    canSeeSubscribers: !channel.inviteOnly || admin || subscribed,
  };
}

/**
 * The SQL twin of `channelAccess(...).canSee` for listing the people who may see a channel:
 * active subscribers, plus everyone whose role is at most this (roles are ordered owner first).
 */
export function channelSeenUpToRole(channel: Pick<ChannelAccessFacts, 'inviteOnly' | 'isWebPublic'>): number {
  return channel.inviteOnly ? ROLE.ADMINISTRATOR : channel.isWebPublic ? ROLE.GUEST : ROLE.MEMBER;
}
