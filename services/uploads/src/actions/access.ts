import { errors, isGuest, type Actor } from '@chat/contracts';
import { realmPolicies } from '@chat/realm';
import type { Services } from '../context';
import { linkedPathIds } from '../lib/files';
import { claimAttachment } from './links';

/**
 * Who may read an uploaded file:
 * - its uploader, always;
 * - anyone who can read a message linking to it: a recipient of the message (user_messages),
 *   a subscriber of a channel whose history is public to subscribers, or, for a message in a
 *   public channel, any non-guest member of the realm;
 * - anyone at all, logged in or not, once it is linked from a web-public channel of a realm
 *   that allows spectators.
 * Links are recorded by the message-event consumer; until it has seen a message, the newest
 * messages of the realm are searched directly, so a link works the moment a send returns.
 */
export async function accessAttachmentFile(services: Services, realmId: number, viewer: Actor | null, pathId: string) {
  const realmSegment = Number(pathId.split('/')[0]);
  if (realmSegment !== realmId) throw errors.fileNotFound();
  const attachment = await services.db.attachment.findUnique({ where: { pathId } });
  if (!attachment || attachment.realmId !== realmId) throw errors.fileNotFound();
  if (viewer && viewer.userId === attachment.ownerId) return attachment;

  const check = () => (viewer ? readable(services, attachment.id, viewer) : webPublic(services, attachment.id));
  if (!viewer && !(await spectatorsAllowed(services, realmId))) throw errors.notLoggedIn();
  if (await check()) return attachment;
  if ((await claimRecentLinks(services, attachment)) && (await check())) return attachment;
  if (!viewer) throw errors.notLoggedIn();
  throw errors.fileAccessDenied();
}

async function spectatorsAllowed(services: Services, realmId: number): Promise<boolean> {
  const realm = await services.db.realm.findUnique({ where: { id: realmId }, select: { settings: true, deactivated: true } });
  return !!realm && !realm.deactivated && realmPolicies(realm.settings).enable_spectator_access;
}

/** Whether `reader` can read some message that links to the attachment. */
export async function readable(services: Services, attachmentId: number, reader: Pick<Actor, 'userId' | 'role'>): Promise<boolean> {
  const rows = await services.db.$queryRawUnsafe<unknown[]>(
    `SELECT 1 FROM attachment_messages am
       JOIN messages m ON m.id = am.message_id
       LEFT JOIN streams st ON st.id = m.stream_id
      WHERE am.attachment_id = $1 AND (
            ($3 AND st.id IS NOT NULL AND NOT st.invite_only)
         OR EXISTS (SELECT 1 FROM user_messages um WHERE um.user_id = $2 AND um.message_id = m.id)
         OR (st.history_public_to_subscribers AND EXISTS (
              SELECT 1 FROM subscriptions sub WHERE sub.user_id = $2 AND sub.stream_id = st.id AND sub.active)))
      LIMIT 1`,
    attachmentId,
    reader.userId,
    !isGuest(reader),
  );
  return rows.length > 0;
}

async function webPublic(services: Services, attachmentId: number): Promise<boolean> {
  const rows = await services.db.$queryRawUnsafe<unknown[]>(
    `SELECT 1 FROM attachment_messages am
       JOIN messages m ON m.id = am.message_id
       JOIN streams st ON st.id = m.stream_id
      WHERE am.attachment_id = $1 AND st.is_web_public AND NOT st.invite_only
      LIMIT 1`,
    attachmentId,
  );
  return rows.length > 0;
}

/** How far back the direct search looks; older messages are the consumer's job. */
const RECENT_MESSAGES = 1000;

/**
 * Claims links from the realm's newest messages that the consumer may not have processed yet.
 * Returns whether any new link was recorded. Bounded to the last RECENT_MESSAGES messages of
 * the realm above the upload's floor, so a refused request never scans a realm's history.
 */
async function claimRecentLinks(
  services: Services,
  a: { id: number; realmId: number; pathId: string; messageIdFloor: number },
): Promise<boolean> {
  // The ASCII part of the path id: a link may percent-encode the file name.
  const prefix = a.pathId.split('/').slice(0, 3).join('/');
  const candidates = await services.db.$queryRawUnsafe<Array<{ id: number; content: string }>>(
    `SELECT recent.id, recent.content FROM (
        SELECT id, content FROM messages WHERE realm_id = $1 AND id > $2 ORDER BY id DESC LIMIT ${RECENT_MESSAGES}
     ) recent
     WHERE strpos(recent.content, $3) > 0
       AND NOT EXISTS (SELECT 1 FROM attachment_messages am WHERE am.attachment_id = $4 AND am.message_id = recent.id)
     ORDER BY recent.id`,
    a.realmId,
    a.messageIdFloor,
    `/user_uploads/${prefix}/`,
    a.id,
  );
  let claimed = false;
  for (const m of candidates) {
    if (!linkedPathIds(m.content).includes(a.pathId)) continue;
    if (await claimAttachment(services, a.id, m.id)) claimed = true;
  }
  return claimed;
}
