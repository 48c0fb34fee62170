import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import { actorFromIdentity, errors } from '@chat/contracts';
import type { Services } from '../context';
import { accessAttachmentFile } from '../actions/access';
import { doCreateAttachment } from '../actions/attachments';
import { checkUploadWithinQuota } from '../actions/quota';
import { newPathId } from '../lib/files';
import { receiveOneFile } from '../lib/multipart';
import { signFileToken } from '../lib/tokens';

/** How long a temporary file URL (for native downloaders) stays valid. */
const TEMPORARY_URL_SECONDS = 60;
/** More than the boundaries and part headers of any upload request take. */
const MULTIPART_OVERHEAD = 64 * 1024;

/** The response of a finished upload, plain or resumable. */
export function uploadResult(pathId: string, fileName: string) {
  const url = `/user_uploads/${pathId}`;
  return { uri: url, url, filename: fileName };
}

export function uploadRoutes(router: Router, services: Services): void {
  const maxMib = services.config.MAX_FILE_UPLOAD_SIZE_MIB;

  router.post(
    '/user_uploads',
    endpoint(async ({ req, res, identity }) => {
      const actor = actorFromIdentity(identity);
      // A body that cannot fit is refused before it is stored. The multipart framing is
      // allowed for generously; the exact size is checked again when the file is recorded.
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared)) await checkUploadWithinQuota(services.db, actor.realmId, Math.max(0, declared - MULTIPART_OVERHEAD));
      const file = await receiveOneFile(req, res, {
        storage: services.storage,
        maxBytes: maxMib * 1024 * 1024,
        maxMib,
        keyFor: (name) => newPathId(actor.realmId, name),
      });
      try {
        await doCreateAttachment(services, {
          realmId: actor.realmId,
          ownerId: actor.userId,
          pathId: file.key,
          fileName: file.name,
          size: file.size,
          contentType: file.contentType,
        });
      } catch (err) {
        await services.storage.remove(file.key).catch(() => undefined);
        throw err;
      }
      return uploadResult(file.key, file.name);
    }),
  );

  // A temporary URL that works without credentials, for clients that hand the download to
  // another program. Same access rule as the file itself.
  router.get(
    /^\/user_uploads\/(\d+\/.+)$/,
    endpoint(async ({ req, identity }) => {
      const pathId = decodePath((req.params as Record<string, string>)[0]);
      const attachment = await accessAttachmentFile(services, identity.realmId, actorFromIdentity(identity), pathId);
      const filename = pathId.split('/').pop()!;
      const direct = await services.storage.directUrl(pathId, { filename, contentType: attachment.contentType, download: false });
      if (direct) return { url: direct };
      const token = signFileToken(services.config.INTERNAL_SECRET, pathId, TEMPORARY_URL_SECONDS);
      return { url: `/user_uploads/temporary/${token}/${encodeURIComponent(filename)}` };
    }),
  );
}

/** A URL path below /user_uploads/ back to the path id it was built from. */
export function decodePath(raw: string): string {
  try {
    return raw.split('/').map(decodeURIComponent).join('/');
  } catch {
    throw errors.fileNotFound();
  }
}
