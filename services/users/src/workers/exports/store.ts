import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Response } from 'express';
import type { UsersConfig } from '../../config';

/**
 * Where finished export tarballs are kept, by their key (exports/<realm>/<random>/<name>): a
 * folder, or the S3-compatible store the uploads service uses, so that any replica can serve
 * what another wrote.
 */
export interface ExportStore {
  /** Stores the tarball at `file` under `key`, whole or not at all. */
  put(file: string, key: string): Promise<void>;
  /** Sends the stored tarball as the response; false when there is none. */
  send(key: string, res: Response): Promise<boolean>;
  /** Removes it; a missing one is already gone. */
  remove(key: string): Promise<void>;
}

const TARBALL = 'application/gzip';

export function localExportStore(dir: string): ExportStore {
  return {
    async put(file, key) {
      const target = path.join(dir, key);
      await mkdir(path.dirname(target), { recursive: true });
      // Copied aside, then renamed: a reader never sees half a tarball.
      await copyFile(file, `${target}.partial`);
      await rename(`${target}.partial`, target);
    },
    send(key, res) {
      return new Promise((resolve, reject) => {
        // dotfiles: the default folder is .data/exports.
        res.sendFile(path.resolve(dir, key), { headers: { 'Content-Type': TARBALL }, dotfiles: 'allow' }, (err) => {
          if (!err) return resolve(true);
          if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !res.headersSent) return resolve(false);
          reject(err);
        });
      });
    },
    async remove(key) {
      const target = path.join(dir, key);
      await rm(target, { force: true });
      await rm(path.dirname(target), { recursive: true, force: true });
    },
  };
}

export function s3ExportStore(config: UsersConfig): ExportStore {
  const client = new S3Client({
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    credentials: config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
      ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
      : undefined,
    // As the uploads service: older S3-compatible stores reject checksums they did not ask for.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = config.S3_BUCKET;
  return {
    async put(file, key) {
      await new Upload({ client, params: { Bucket, Key: key, Body: createReadStream(file), ContentType: TARBALL } }).done();
    },
    async send(key, res) {
      let object;
      try {
        object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
      } catch (err) {
        const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
        if (e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) return false;
        throw err;
      }
      res.status(200).type(TARBALL);
      if (object.ContentLength !== undefined) res.setHeader('Content-Length', String(object.ContentLength));
      await pipeline(object.Body as Readable, res);
      return true;
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}

export function createExportStore(config: UsersConfig): ExportStore {
  const backend = config.EXPORT_BACKEND ?? config.UPLOADS_BACKEND;
  return backend === 's3' ? s3ExportStore(config) : localExportStore(config.EXPORT_DIR);
}
