/**
 * The email gateway's addresses, shared by the service that sends missed-message mails (users)
 * and the listener that receives mail (messaging), so neither imports the other.
 *
 * - A missed-message reply address is `mm<32 hex>@<mail domain>`: single use, valid five days,
 *   as the family's server makes them. Mail to it is posted in the conversation it names as the
 *   person the notification was for.
 * - A channel's address is `[<channel slug>.]<32 hex token>[.<option>...]@<mail domain>` (the
 *   token is a channel_email_addresses row); `+` separates parts as well as `.`, as in the family.
 */
import { randomBytes } from 'node:crypto';
import type { Db, Tx } from '@chat/db';

/** Five days, the family's `MissedMessageEmailAddress.EXPIRY_SECONDS`. */
export const MISSED_MESSAGE_ADDRESS_EXPIRY_SECONDS = 5 * 24 * 3600;
/** A reply address posts once, the family's `ALLOWED_USES`. */
export const MISSED_MESSAGE_ADDRESS_ALLOWED_USES = 1;

/** Where a reply goes: a channel's topic, or a direct-message conversation. */
export type ReplyConversation =
  | { type: 'channel'; channelId: number; topic: string }
  /** The participants of the direct message (the replying person may be among them or not). */
  | { type: 'direct'; userIds: number[] };

const DOMAIN_RE = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** Whether a setting is a usable mail domain (config validation of EMAIL_GATEWAY_DOMAIN). */
export function isMailDomain(value: string): boolean {
  return DOMAIN_RE.test(value);
}

/** The domain of incoming-mail addresses: EMAIL_GATEWAY_DOMAIN, else EXTERNAL_HOST without its port. */
export function emailGatewayDomain(config: { EMAIL_GATEWAY_DOMAIN?: string; EXTERNAL_HOST: string }): string {
  if (config.EMAIL_GATEWAY_DOMAIN) return config.EMAIL_GATEWAY_DOMAIN.toLowerCase();
  const bracketed = /^\[([^\]]+)\](:\d+)?$/.exec(config.EXTERNAL_HOST);
  const host = bracketed ? bracketed[1]! : config.EXTERNAL_HOST.replace(/:\d+$/, '');
  return (host || 'localhost').toLowerCase();
}

/** The local part of an address at the gateway's domain, or null for any other address. */
export function gatewayLocalPart(address: string, domain: string): string | null {
  const at = address.lastIndexOf('@');
  if (at <= 0) return null;
  if (address.slice(at + 1).toLowerCase() !== domain.toLowerCase()) return null;
  return address.slice(0, at);
}

/** `mm` and 32 hex characters: the family's test for a missed-message address. */
export function isMissedMessageToken(localPart: string): boolean {
  return /^mm[0-9a-f]{32}$/i.test(localPart);
}

/**
 * Makes a new reply address for one notification mail to `userId` about `conversation`, and
 * returns it (`mm<32 hex>@<domain>`). One per mail: each is usable once.
 */
export async function createMissedMessageAddress(
  db: Db | Tx,
  input: { realmId: number; userId: number; conversation: ReplyConversation; messageId?: number },
  domain: string,
): Promise<string> {
  const token = `mm${randomBytes(16).toString('hex')}`;
  const c = input.conversation;
  await db.missedMessageEmailAddress.create({
    data: {
      realmId: input.realmId,
      userId: input.userId,
      emailToken: token,
      channelId: c.type === 'channel' ? c.channelId : null,
      topic: c.type === 'channel' ? c.topic : null,
      // The others in the conversation: a reply is addressed to them (a note to oneself: nobody).
      dmUserIds: c.type === 'direct' ? [...new Set(c.userIds)].filter((id) => id !== input.userId).sort((a, b) => a - b) : [],
      messageId: input.messageId ?? null,
    },
  });
  return `${token}@${domain}`;
}

export interface MissedMessageAddress {
  id: number;
  realmId: number;
  userId: number;
  conversation: ReplyConversation;
  messageId: number | null;
  createdAt: Date;
  timesUsed: number;
  /** Why it can no longer be used, or null while it can. */
  unusable: 'expired' | 'used' | null;
}

/** The reply address of a token, or null when there is none. */
export async function findMissedMessageAddress(db: Db | Tx, token: string, now = new Date()): Promise<MissedMessageAddress | null> {
  const row = await db.missedMessageEmailAddress.findUnique({ where: { emailToken: token.toLowerCase() } });
  if (!row) return null;
  const expired = now.getTime() > row.timestamp.getTime() + MISSED_MESSAGE_ADDRESS_EXPIRY_SECONDS * 1000;
  return {
    id: row.id,
    realmId: row.realmId,
    userId: row.userId,
    conversation: row.channelId !== null ? { type: 'channel', channelId: row.channelId, topic: row.topic ?? '' } : { type: 'direct', userIds: row.dmUserIds },
    messageId: row.messageId,
    createdAt: row.timestamp,
    timesUsed: row.timesUsed,
    unusable: expired ? 'expired' : row.timesUsed >= MISSED_MESSAGE_ADDRESS_ALLOWED_USES ? 'used' : null,
  };
}

/**
 * Counts one use of a reply address, if it is still usable; false when it expired or was used
 * up meanwhile. One conditional UPDATE, so two deliveries racing for the last use get one each
 * way: true for one, false for the other.
 */
export async function useMissedMessageAddress(db: Db | Tx, id: number, now = new Date()): Promise<boolean> {
  const since = new Date(now.getTime() - MISSED_MESSAGE_ADDRESS_EXPIRY_SECONDS * 1000);
  const { count } = await db.missedMessageEmailAddress.updateMany({
    where: { id, timesUsed: { lt: MISSED_MESSAGE_ADDRESS_ALLOWED_USES }, timestamp: { gte: since } },
    data: { timesUsed: { increment: 1 } },
  });
  return count === 1;
}

/** Options a channel address may carry after its token (the family's optional address parts). */
export interface ChannelAddressOptions {
  showSender?: boolean;
  includeFooter?: boolean;
  includeQuotes?: boolean;
  /** true: the text part is posted when there is one (the default); false: `prefer-html`. */
  preferText?: boolean;
}

const OPTION_PARTS: Record<string, (o: ChannelAddressOptions) => void> = {
  'show-sender': (o) => (o.showSender = true),
  'include-footer': (o) => (o.includeFooter = true),
  'include-quotes': (o) => (o.includeQuotes = true),
  'prefer-text': (o) => (o.preferText = true),
  'prefer-html': (o) => (o.preferText = false),
};

/**
 * Splits a channel address's local part into its token and options: the parts that are not
 * options are `[slug, token]` or `[token]`. Null when that shape is not there.
 */
export function decodeChannelAddress(localPart: string): { token: string; options: ChannelAddressOptions } | null {
  const parts = localPart.toLowerCase().split(/[.+]/);
  const options: ChannelAddressOptions = {};
  const rest: string[] = [];
  for (const part of parts) {
    const set = OPTION_PARTS[part];
    if (set) set(options);
    else rest.push(part);
  }
  if (rest.length < 1 || rest.length > 2) return null;
  const token = rest[rest.length - 1]!;
  return /^[0-9a-f]{32}$/.test(token) ? { token, options } : null;
}
