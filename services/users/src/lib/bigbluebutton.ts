import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * BigBlueButton's API, as far as a join link needs it. Every call is a GET whose query string
 * is signed: checksum = SHA-256(call name + query string + shared secret), appended as the last
 * parameter (the scheme the family's server uses, and BigBlueButton 2.4+ accepts).
 */

/** RFC 3986 escaping: a space is %20, and nothing but letters, digits and -._~ is left bare. */
function encode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function queryString(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([k, v]) => `${encode(k)}=${encode(v)}`)
    .join('&');
}

/** `<server>/api/<call>?<query>&checksum=<sha256>`; `serverUrl` ends with a slash or gets one. */
export function signedApiUrl(serverUrl: string, secret: string, call: string, params: Record<string, string>): string {
  const query = queryString(params);
  const checksum = createHash('sha256').update(call + query + secret).digest('hex');
  const base = serverUrl.endsWith('/') ? serverUrl : `${serverUrl}/`;
  return `${base}api/${call}?${query}&checksum=${checksum}`;
}

/** The text of a flat element of an API answer (`<returncode>SUCCESS</returncode>`), if present. */
export function xmlField(xml: string, tag: string): string | undefined {
  const m = new RegExp(`<${tag}>\\s*([^<]*?)\\s*</${tag}>`).exec(xml);
  return m?.[1];
}

/** What a join link carries: the meeting, and who created it (the only moderator). */
export interface MeetingTicket {
  meeting_id: string;
  name: string;
  lock_settings_disable_cam: boolean;
  moderator: number;
}

export function newMeetingId(): string {
  return `meeting-${randomBytes(9).toString('hex')}`;
}

// The ticket is signed with a key derived from the service's internal secret, so nobody can
// point a link at another meeting of the same BigBlueButton server or make themselves moderator.
function ticketKey(internalSecret: string): Buffer {
  return createHmac('sha256', internalSecret).update('bigbluebutton join ticket').digest();
}

export function signTicket(ticket: MeetingTicket, internalSecret: string): string {
  const body = Buffer.from(JSON.stringify(ticket)).toString('base64url');
  const mac = createHmac('sha256', ticketKey(internalSecret)).update(body).digest('base64url');
  return `${body}.${mac}`;
}

/** The ticket, or null when the signature does not match or the contents are not a ticket. */
export function verifyTicket(token: string, internalSecret: string): MeetingTicket | null {
  const [body, mac, extra] = token.split('.');
  if (!body || !mac || extra !== undefined) return null;
  const expected = createHmac('sha256', ticketKey(internalSecret)).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const t = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as MeetingTicket;
    const ok =
      typeof t.meeting_id === 'string' && typeof t.name === 'string' && typeof t.lock_settings_disable_cam === 'boolean' && Number.isInteger(t.moderator);
    return ok ? t : null;
  } catch {
    return null;
  }
}
