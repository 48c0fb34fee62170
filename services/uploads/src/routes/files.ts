import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import { errors, optionalActor } from '@chat/contracts';
import type { Services } from '../context';
import { accessAttachmentFile } from '../actions/access';
import { serveStoredFile } from '../lib/serve';
import { verifyFileToken } from '../lib/tokens';
import { THUMBNAIL_FORMATS } from '../workers/thumbnails';
import { decodePath } from './uploads';

/** Uploaded files as browsers fetch them, outside /api/v1; every request is access-checked. */
export function fileRoutes(router: Router, services: Services): void {
  const optional = { auth: 'optional' } as const;
  const param = (req: { params: unknown }, i: number) => (req.params as Record<string, string>)[i];

  router.get(
    /^\/user_uploads\/temporary\/([^/]+)\/([^/]+)$/,
    endpoint(async ({ req, res }) => {
      const pathId = verifyFileToken(services.config.INTERNAL_SECRET, param(req, 0));
      if (!pathId) throw errors.invalidUploadToken();
      const filename = decodePath(param(req, 1));
      if (pathId.split('/').pop() !== filename) throw errors.badRequest('Invalid filename');
      const attachment = await services.db.attachment.findUnique({ where: { pathId } });
      if (!attachment) throw errors.fileNotFound();
      await serveStoredFile(services.storage, res, { key: pathId, filename, contentType: attachment.contentType });
    }, optional),
  );

  router.get(
    /^\/user_uploads\/thumbnail\/(\d+\/.+)\/([^/]+)$/,
    endpoint(async ({ req, res, identity }) => {
      const pathId = decodePath(param(req, 0));
      const name = decodePath(param(req, 1));
      const format = THUMBNAIL_FORMATS.find((f) => f.name === name);
      if (!format) throw errors.fileNotFound();
      const attachment = await accessAttachmentFile(services, identity.realmId, optionalActor(identity), pathId);
      const ready = Array.isArray(attachment.thumbnails) && (attachment.thumbnails as Array<{ name: string }>).some((t) => t.name === name);
      // Until the job has made the thumbnail, the original stands in for it.
      if (!ready) {
        const filename = pathId.split('/').pop()!;
        return void (await serveStoredFile(services.storage, res, { key: pathId, filename, contentType: attachment.contentType }));
      }
      await serveStoredFile(services.storage, res, { key: `thumbnail/${pathId}/${name}`, filename: name, contentType: format.contentType });
    }, optional),
  );

  router.get(
    /^\/user_uploads\/download\/(\d+\/.+)$/,
    endpoint(async ({ req, res, identity }) => {
      const pathId = decodePath(param(req, 0));
      const attachment = await accessAttachmentFile(services, identity.realmId, optionalActor(identity), pathId);
      const filename = pathId.split('/').pop()!;
      await serveStoredFile(services.storage, res, { key: pathId, filename, contentType: attachment.contentType, download: true });
    }, optional),
  );

  router.get(
    /^\/user_uploads\/(\d+\/.+)$/,
    endpoint(async ({ req, res, identity }) => {
      const pathId = decodePath(param(req, 0));
      const attachment = await accessAttachmentFile(services, identity.realmId, optionalActor(identity), pathId);
      const filename = pathId.split('/').pop()!;
      await serveStoredFile(services.storage, res, { key: pathId, filename, contentType: attachment.contentType });
    }, optional),
  );
}
