import type { Readable } from 'node:stream';
import type { DataStore } from '@tus/utils';
import type { UploadsConfig } from '../config';
import { LocalStorage } from './local';
import { S3Storage } from './s3';

/** How a served file should be presented by whatever ends up sending its bytes. */
export interface ServeOptions {
  /** Name the browser saves the file as. */
  filename: string;
  contentType: string;
  /** Download (attachment) rather than display (inline). */
  download: boolean;
}

/**
 * Where uploaded bytes live. Every key is a storage-agnostic relative path
 * ("<realm>/<xx>/<random>/<name>", "avatars/...", "thumbnail/..."); the database keeps the
 * metadata (owner, name, type, size), so a backend only stores and returns bytes.
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  /** Stores `body` under `key`, replacing any object there; resolves with the bytes written. */
  write(key: string, body: Readable | Buffer, contentType: string): Promise<number>;
  /** The object's bytes, or null when there is none. */
  read(key: string): Promise<{ stream: Readable; size: number } | null>;
  /** Reads a whole (small) object into memory: avatars and thumbnail sources. */
  readBuffer(key: string): Promise<Buffer | null>;
  exists(key: string): Promise<boolean>;
  /** Deletes the object if it exists. */
  remove(key: string): Promise<void>;
  /**
   * A short-lived URL the client can fetch the object from directly (S3 signed URL), or null
   * when this service must send the bytes itself (local disk).
   */
  directUrl(key: string, opts: ServeOptions): Promise<string | null>;
  /** Absolute path of the object on local disk, for sendFile (ranges, conditional GETs). */
  localPath(key: string): string | null;
  /**
   * The tus datastore writing into this same storage, so that every replica sharing it can
   * continue any unfinished upload. Upload ids are path ids: a finished upload is already at
   * its final key.
   */
  tusDataStore(expirationMs: number): DataStore;
  /** Marks a tus upload finished, so the expiry sweep leaves its bytes alone (an attachment's now). */
  finishTusUpload(id: string): Promise<void>;
  /** Forgets a tus upload's bookkeeping, if any (when its attachment is deleted). */
  forgetTusUpload(id: string): Promise<void>;
  /** Creates what the backend needs (folder, bucket); safe to call on every start. */
  init(): Promise<void>;
  close(): void;
}

export function createStorage(config: UploadsConfig): Storage {
  if (config.UPLOADS_BACKEND === 's3') {
    return new S3Storage({
      bucket: config.S3_BUCKET,
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      signedUrlSeconds: config.S3_SIGNED_URL_SECONDS,
    });
  }
  return new LocalStorage(config.UPLOADS_DIR);
}

/** RFC 6266 Content-Disposition with an RFC 8187 fallback for non-ASCII names. */
export function contentDisposition(opts: Pick<ServeOptions, 'filename' | 'download'>): string {
  const kind = opts.download ? 'attachment' : 'inline';
  if (/^[\x20-\x7e]*$/.test(opts.filename)) {
    return `${kind}; filename="${opts.filename.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  }
  return `${kind}; filename*=utf-8''${encodeURIComponent(opts.filename)}`;
}
