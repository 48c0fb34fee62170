import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * One-click unsubscribe links, the family's `/accounts/unsubscribe/<type>/<token>`: opened from
 * a mail without logging in, so the token itself proves which person and which kind of mail it
 * is for. It is the person's id and an HMAC of (realm, person, kind) under INTERNAL_SECRET: no
 * row to store or expire, and a link of one kind or one realm does nothing for another.
 */

/** Each kind of mail and the personal setting its link turns off. */
export const UNSUBSCRIBE_KINDS = {
  missed_messages: 'enable_offline_email_notifications',
  digest: 'enable_digest_emails',
  login: 'enable_login_emails',
} as const;

export type UnsubscribeKind = keyof typeof UNSUBSCRIBE_KINDS;

export function isUnsubscribeKind(kind: string): kind is UnsubscribeKind {
  return Object.hasOwn(UNSUBSCRIBE_KINDS, kind);
}

function mac(secret: string, realmId: number, userId: number, kind: UnsubscribeKind): Buffer {
  return createHmac('sha256', secret).update(`unsubscribe:${realmId}:${userId}:${kind}`).digest().subarray(0, 18);
}

export function unsubscribeToken(secret: string, realmId: number, userId: number, kind: UnsubscribeKind): string {
  return `${userId}-${mac(secret, realmId, userId, kind).toString('base64url')}`;
}

/** The person a token names, or null when it was not made by this server for this realm and kind. */
export function unsubscribeTokenUser(secret: string, realmId: number, kind: UnsubscribeKind, token: string): number | null {
  const m = /^(\d{1,10})-([A-Za-z0-9_-]{24})$/.exec(token);
  if (!m) return null;
  const userId = Number(m[1]);
  const given = Buffer.from(m[2]!, 'base64url');
  const expected = mac(secret, realmId, userId, kind);
  return given.length === expected.length && timingSafeEqual(given, expected) ? userId : null;
}

export function unsubscribeUrl(realmUrl: string, secret: string, realmId: number, userId: number, kind: UnsubscribeKind): string {
  return `${realmUrl}/accounts/unsubscribe/${kind}/${unsubscribeToken(secret, realmId, userId, kind)}`;
}

/**
 * The headers a mail with an unsubscribe link carries: List-Unsubscribe (RFC 2369), and
 * List-Unsubscribe-Post (RFC 8058), which lets a mail program unsubscribe with one POST.
 */
export function unsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
