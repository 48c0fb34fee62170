import type { Request, Response, Router } from 'express';
import { Server } from '@tus/server';
import type { Locker } from '@tus/utils';
import { ApiError, errors, type Identity } from '@chat/contracts';
import type { Services } from '../context';
import { doCreateAttachment } from '../actions/attachments';
import { checkUploadWithinQuota } from '../actions/quota';
import { fileInfo, isPathId, newPathId } from '../lib/files';
import { uploadResult } from './uploads';

export const TUS_PATH = '/api/v1/tus';

type TusRequest = Parameters<NonNullable<ConstructorParameters<typeof Server>[0]['onUploadCreate']>>[0];

/** The express request behind the tus library's request object (it keeps the Node one). */
function identityOf(req: TusRequest): Identity | undefined {
  return (req as unknown as { runtime?: { node?: { req?: Request } } }).runtime?.node?.req?.identity;
}

/** A tus hook's way of answering with our error envelope. */
function refuse(err: { status: number; toJSON(): unknown }) {
  return { status_code: err.status, body: JSON.stringify(err.toJSON()) };
}

/** Our errors become tus hook answers with our envelope; anything else stays a failure. */
function rethrowAsTus(err: unknown): never {
  if (err instanceof ApiError) throw refuse(err);
  throw err;
}

/**
 * The resumable upload endpoint: the tus protocol (creation, creation-with-upload, deferred
 * length, termination, expiration) served by @tus/server. Upload ids are path ids, so a finished
 * upload is already where a plain upload would be, and the last request answers like
 * POST /user_uploads. Unfinished uploads and their locks live in the shared storage and Redis,
 * so any replica can continue any upload.
 */
export function createTusServer(services: Services, locker: Locker): Server {
  const maxMib = services.config.MAX_FILE_UPLOAD_SIZE_MIB;
  const datastore = services.storage.tusDataStore(services.config.TUS_EXPIRY_HOURS * 3600 * 1000);
  const encodeId = (id: string) => Buffer.from(id).toString('base64url');

  return new Server({
    path: TUS_PATH,
    datastore,
    locker,
    maxSize: maxMib * 1024 * 1024,
    // A finished upload is an attachment: deleting it goes through DELETE /attachments/{id}.
    disableTerminationForFinishedUploads: true,
    namingFunction: (req, metadata) => {
      const identity = identityOf(req);
      if (!identity?.userId) throw refuse(errors.notLoggedIn());
      const { name } = fileInfo(metadata?.filename ?? undefined, metadata?.filetype ?? undefined);
      return newPathId(identity.realmId, name);
    },
    // Path ids contain slashes; the URL carries them encoded as one segment.
    generateUrl: (_req, { path, id }) => `${path}/${encodeId(id)}`,
    getFileIdFromRequest: (req, segment) => {
      if (!segment) return undefined;
      const id = Buffer.from(segment, 'base64url').toString();
      const identity = identityOf(req);
      if (!isPathId(id) || !identity || Number(id.split('/')[0]) !== identity.realmId) return undefined;
      return id;
    },
    onIncomingRequest: async (req, id) => {
      const identity = identityOf(req);
      if (!identity?.userId) throw refuse(errors.notLoggedIn());
      if (req.method === 'POST') return;
      // Only the uploader may see or continue an upload; to anyone else it does not exist.
      const upload = await datastore.getUpload(id).catch(() => null);
      if (!upload || upload.metadata?.owner_id !== String(identity.userId)) {
        throw { status_code: 404, body: 'The file for this url was not found\n' };
      }
    },
    onUploadCreate: async (req, upload) => {
      const identity = identityOf(req)!;
      // With the length announced, an upload that cannot fit is refused before any byte is kept.
      if (upload.size !== undefined) await checkUploadWithinQuota(services.db, identity.realmId, upload.size).catch(rethrowAsTus);
      const { name, contentType } = fileInfo(upload.metadata?.filename ?? undefined, upload.metadata?.filetype ?? undefined);
      return { metadata: { ...upload.metadata, filename: name, filetype: contentType, owner_id: String(identity.userId) } };
    },
    onUploadFinish: async (req, upload) => {
      const identity = identityOf(req)!;
      const name = upload.metadata?.filename ?? 'uploaded-file';
      try {
        await doCreateAttachment(services, {
          realmId: identity.realmId,
          ownerId: identity.userId!,
          pathId: upload.id,
          fileName: name,
          size: upload.size ?? upload.offset,
          contentType: upload.metadata?.filetype ?? 'application/octet-stream',
        });
      } catch (err) {
        // Refused (the quota, with a deferred length or uploads racing): the bytes go too.
        await datastore.remove(upload.id).catch(() => undefined);
        rethrowAsTus(err);
      }
      await services.storage.finishTusUpload(upload.id);
      return {
        status_code: 200,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ result: 'success', msg: '', ...uploadResult(upload.id, name) }),
      };
    },
    onResponseError: (_req, err) => {
      if ('status_code' in err && err.status_code === 413) return refuse(errors.fileTooLarge(maxMib));
      return undefined;
    },
  });
}

/** The one version of the tus protocol served here. */
const TUS_RESUMABLE = '1.0.0';

/**
 * The protocol's own answer to a request without a version this server speaks: 412 with
 * Tus-Version listing what it does speak (the library answers a wrong version 400, and a
 * missing one 412 without the list). GET is outside the protocol and needs no version; OPTIONS
 * is how a client learns the versions.
 */
function refuseUnsupportedVersion(req: Request, res: Response): boolean {
  if (req.method === 'OPTIONS' || req.method === 'GET' || req.headers['tus-resumable'] === TUS_RESUMABLE) return false;
  res.status(412).set({ 'Tus-Resumable': TUS_RESUMABLE, 'Tus-Version': TUS_RESUMABLE, 'Content-Type': 'text/plain; charset=utf-8' }).send('Unsupported version\n');
  return true;
}

export function tusRoutes(router: Router, tus: Server): void {
  const handle = async (req: Request, res: Response) => {
    if (!req.identity?.userId) throw errors.notLoggedIn();
    if (refuseUnsupportedVersion(req, res)) return;
    // The router saw a path relative to /api/v1; the tus server matches the full one.
    req.url = req.originalUrl;
    await tus.handle(req, res);
  };
  router.all(['/tus', '/tus/*rest'], (req, res, next) => {
    handle(req, res).catch(next);
  });
}
