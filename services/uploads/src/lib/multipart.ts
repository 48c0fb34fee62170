import type { Request, Response } from 'express';
import multer, { MulterError, type StorageEngine } from 'multer';
import { errors } from '@chat/contracts';
import type { Storage } from '../storage';
import { fileInfo } from './files';

export interface ReceivedFile {
  /** Storage key the bytes were written to. */
  key: string;
  size: number;
  /** Name as uploaded (extension added from the type when missing). */
  name: string;
  contentType: string;
}

/** The storage backend failed (as opposed to the client sending a bad body): a server error. */
class StorageFailure extends Error {
  constructor(override readonly cause: unknown) {
    super('storage write failed');
  }
}

/**
 * A multer storage engine that streams the file part straight into our storage, so a body is
 * never held in memory whatever its size. `keyFor` names the object from the uploaded name.
 */
function streamingEngine(storage: Storage, keyFor: (name: string) => string): StorageEngine {
  return {
    _handleFile(_req, file, cb) {
      const info = fileInfo(file.originalname, file.mimetype);
      const key = keyFor(info.name);
      storage.write(key, file.stream, info.contentType).then(
        (size) => cb(null, { path: key, size, filename: info.name, mimetype: info.contentType } as Partial<Express.Multer.File>),
        (err) => cb(new StorageFailure(err)),
      );
    },
    _removeFile(_req, file, cb) {
      storage.remove(file.path).then(() => cb(null), (err) => cb(err as Error));
    },
  };
}

export interface ReceiveOptions {
  storage: Storage;
  maxBytes: number;
  /** For the error message: the limit as configured. */
  maxMib: number;
  keyFor: (name: string) => string;
  /** Errors for "no file" and "more than one file" (the avatar endpoint words them its own way). */
  noFile?: () => Error;
  tooMany?: () => Error;
}

/**
 * Reads a multipart body with exactly one file part into storage. Bodies announcing more than
 * the limit are refused before a byte is read; bodies that turn out larger are cut off at the
 * limit, their partial file deleted, and the rest of the request discarded unread.
 */
export async function receiveOneFile(req: Request, res: Response, opts: ReceiveOptions): Promise<ReceivedFile> {
  const noFile = opts.noFile ?? errors.noFileUploaded;
  const tooMany = opts.tooMany ?? errors.oneFileAtATime;
  if (!req.is('multipart/form-data')) throw noFile();
  // Room for the part headers and a few small text fields around the file.
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > opts.maxBytes + 64 * 1024) {
    // Nothing of the body is read: close the connection after answering rather than drain it.
    res.setHeader('Connection', 'close');
    throw errors.fileTooLarge(opts.maxMib);
  }
  const upload = multer({
    storage: streamingEngine(opts.storage, opts.keyFor),
    limits: { fileSize: opts.maxBytes, files: 1, fields: 50, fieldSize: 64 * 1024, parts: 60 },
    // Browsers and HTTP libraries send the file name as raw UTF-8 in the part header.
    defParamCharset: 'utf8',
  } as multer.Options).any();
  try {
    await new Promise<void>((resolve, reject) => upload(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
  } catch (err) {
    if (err instanceof MulterError) {
      if (err.code === 'LIMIT_FILE_SIZE') throw errors.fileTooLarge(opts.maxMib);
      if (err.code === 'LIMIT_FILE_COUNT') throw tooMany();
      throw errors.badRequest('Invalid multipart body');
    }
    if (err instanceof StorageFailure) throw err.cause;
    // Anything else came from parsing a malformed or truncated body.
    throw errors.badRequest('Invalid multipart body');
  }
  const files = (req.files as Express.Multer.File[] | undefined) ?? [];
  if (files.length === 0) throw noFile();
  const [f] = files;
  return { key: f.path, size: f.size, name: f.filename, contentType: f.mimetype };
}

/**
 * Reads the single file of a multipart body into memory, for small images (avatars, emoji)
 * whose limit is a few MiB. `wrongCount` is the error for no file or more than one.
 */
export async function receiveSmallFile(req: Request, res: Response, maxMib: number, wrongCount: () => Error): Promise<Buffer> {
  if (!req.is('multipart/form-data')) throw wrongCount();
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxMib * 1024 * 1024 + 64 * 1024) {
    res.setHeader('Connection', 'close');
    throw errors.fileTooLarge(maxMib);
  }
  const parse = multer({ storage: multer.memoryStorage(), limits: { fileSize: maxMib * 1024 * 1024, files: 1, fields: 20 } }).any();
  try {
    await new Promise<void>((resolve, reject) => parse(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
  } catch (err) {
    if (err instanceof MulterError && err.code === 'LIMIT_FILE_SIZE') throw errors.fileTooLarge(maxMib);
    if (err instanceof MulterError && err.code === 'LIMIT_FILE_COUNT') throw wrongCount();
    throw errors.badRequest('Invalid multipart body');
  }
  const files = (req.files as Express.Multer.File[] | undefined) ?? [];
  if (files.length !== 1) throw wrongCount();
  return files[0].buffer;
}
