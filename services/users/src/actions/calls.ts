import { errors, type Actor } from '@chat/contracts';
import type { Services } from '../context';
import { newMeetingId, signTicket, signedApiUrl, verifyTicket, xmlField } from '../lib/bigbluebutton';

/**
 * Video calls. Clients put a call link into a message; the realm's video_chat_provider says
 * which provider they use. This server has no Zoom credentials setting, so Zoom calls (and its
 * OAuth browser flow) are refused the way the family's server refuses them when unconfigured.
 * BigBlueButton needs BIG_BLUE_BUTTON_URL and BIG_BLUE_BUTTON_SECRET.
 */

/** Raised wherever a Zoom call or its OAuth flow is asked for. */
export function checkZoomConfigured(): never {
  throw errors.badRequest('Zoom credentials have not been configured');
}

function bigBlueButton(services: Services): { url: string; secret: string } {
  const { BIG_BLUE_BUTTON_URL: url, BIG_BLUE_BUTTON_SECRET: secret } = services.config;
  if (!url || !secret) throw errors.badRequest('BigBlueButton is not configured.');
  return { url, secret };
}

/**
 * GET /calls/bigbluebutton/create: a link to this server's join page carrying a signed ticket
 * (meeting, name, voice only, creator). The meeting itself is made on the BigBlueButton server
 * when someone opens the link, so a link posted long ago still works.
 */
export function doCreateBigBlueButtonCall(services: Services, actor: Actor, meetingName: string, voiceOnly: boolean): string {
  bigBlueButton(services);
  const ticket = signTicket(
    { meeting_id: newMeetingId(), name: meetingName, lock_settings_disable_cam: voiceOnly, moderator: actor.userId },
    services.config.INTERNAL_SECRET,
  );
  return `/calls/bigbluebutton/join?bigbluebutton=${encodeURIComponent(ticket)}`;
}

/**
 * GET /calls/bigbluebutton/join: (re)creates the meeting on the BigBlueButton server, which is
 * idempotent for a meeting id, and answers the signed URL that joins it as the caller: moderator
 * for the link's creator, viewer for everyone else.
 */
export async function doJoinBigBlueButtonCall(services: Services, actor: Actor, token: string): Promise<string> {
  const server = bigBlueButton(services);
  const ticket = verifyTicket(token, services.config.INTERNAL_SECRET);
  if (!ticket) throw errors.badRequest('Invalid signature.');
  const createUrl = signedApiUrl(server.url, server.secret, 'create', {
    meetingID: ticket.meeting_id,
    name: ticket.name,
    lockSettingsDisableCam: String(ticket.lock_settings_disable_cam),
  });
  let xml: string;
  try {
    const res = await fetch(createUrl, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    xml = await res.text();
  } catch (err) {
    services.log.warn({ err: (err as Error).message }, 'BigBlueButton create failed');
    throw errors.badRequest('Error connecting to the BigBlueButton server.');
  }
  if (xmlField(xml, 'messageKey') === 'checksumError') throw errors.badRequest('Error authenticating to the BigBlueButton server.');
  const createTime = xmlField(xml, 'createTime');
  if (xmlField(xml, 'returncode') !== 'SUCCESS' || !createTime) {
    throw errors.badRequest('BigBlueButton server returned an unexpected error.');
  }
  const me = await services.db.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { fullName: true } });
  return signedApiUrl(server.url, server.secret, 'join', {
    meetingID: ticket.meeting_id,
    role: ticket.moderator === actor.userId ? 'MODERATOR' : 'VIEWER',
    fullName: me.fullName,
    // Ties the join to this creation of the meeting: an old join URL stops working once the
    // server has dropped the meeting and it is made again.
    createTime,
  });
}
