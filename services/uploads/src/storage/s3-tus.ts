import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload as S3Upload } from '@aws-sdk/lib-storage';
import { DataStore, ERRORS, Upload } from '@tus/utils';

interface State {
  upload: { id: string; size?: number; offset: number; metadata?: Record<string, string | null>; creation_date?: string };
  /** Received pieces in order: one object per PATCH body. */
  chunks: Array<{ key: string; size: number }>;
}

const STATE_PREFIX = 'tus-state/';

/**
 * A tus datastore on plain S3 operations (put, get, delete, list), so it works on any
 * S3-compatible store. Each PATCH body is spooled to a temporary file and stored as one chunk
 * object, bytes received before a dropped connection included; the upload's state lives in
 * `tus-state/<id>.json`, shared by every replica. When the last byte arrives the chunks are
 * streamed into the final object at the upload id (the path id) and deleted.
 */
export class ChunkedS3Store extends DataStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly expirationMs: number,
  ) {
    super();
    this.extensions = ['creation', 'creation-with-upload', 'creation-defer-length', 'termination', 'expiration'];
  }

  private stateKey(id: string): string {
    return `${STATE_PREFIX}${Buffer.from(id).toString('base64url')}.json`;
  }

  private async loadState(id: string): Promise<State> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.stateKey(id) }));
      return JSON.parse(await out.Body!.transformToString()) as State;
    } catch (err) {
      const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) throw ERRORS.FILE_NOT_FOUND;
      throw err;
    }
  }

  private async saveState(state: State): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: this.stateKey(state.upload.id), Body: JSON.stringify(state), ContentType: 'application/json' }),
    );
  }

  override async create(upload: Upload): Promise<Upload> {
    const state: State = {
      upload: { id: upload.id, size: upload.size, offset: 0, metadata: upload.metadata, creation_date: upload.creation_date ?? new Date().toISOString() },
      chunks: [],
    };
    await this.saveState(state);
    if (upload.size === 0) await this.finish(state);
    return upload;
  }

  override async write(src: Readable, id: string, offset: number): Promise<number> {
    const state = await this.loadState(id);
    if (state.upload.offset !== offset) throw ERRORS.INVALID_OFFSET;
    const spool = path.join(os.tmpdir(), `tus-${randomBytes(8).toString('hex')}`);
    let received = 0;
    let failure: unknown;
    const count = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        received += chunk.length;
        cb(null, chunk);
      },
    });
    try {
      await pipeline(src, count, fs.createWriteStream(spool));
    } catch (err) {
      // Keep what arrived before the connection dropped: the client resumes from there.
      failure = err;
    }
    try {
      if (received > 0) {
        const key = `${STATE_PREFIX}${Buffer.from(id).toString('base64url')}/${String(offset).padStart(15, '0')}`;
        await this.client.send(
          new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: fs.createReadStream(spool), ContentLength: received }),
        );
        state.chunks.push({ key, size: received });
        state.upload.offset += received;
        await this.saveState(state);
      }
    } finally {
      await fsp.rm(spool, { force: true });
    }
    if (failure) throw ERRORS.FILE_WRITE_ERROR;
    if (state.upload.size !== undefined && state.upload.offset === state.upload.size) await this.finish(state);
    return state.upload.offset;
  }

  /** Joins the chunks into the final object, then drops them (the state stays until the upload is adopted). */
  private async finish(state: State): Promise<void> {
    const joined = new PassThrough();
    const feeding = (async () => {
      for (const c of state.chunks) {
        const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: c.key }));
        await pipeline(out.Body as Readable, joined, { end: false });
      }
      joined.end();
    })().catch((err) => joined.destroy(err as Error));
    const contentType = state.upload.metadata?.filetype ?? 'application/octet-stream';
    await new S3Upload({ client: this.client, params: { Bucket: this.bucket, Key: state.upload.id, Body: joined, ContentType: contentType } }).done();
    await feeding;
    for (const c of state.chunks) await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: c.key }));
    state.chunks = [];
    await this.saveState(state);
  }

  override async getUpload(id: string): Promise<Upload> {
    const { upload } = await this.loadState(id);
    return new Upload({ ...upload, storage: { type: 's3', path: upload.id, bucket: this.bucket } });
  }

  override async declareUploadLength(id: string, length: number): Promise<void> {
    const state = await this.loadState(id);
    state.upload.size = length;
    await this.saveState(state);
  }

  override async remove(id: string): Promise<void> {
    const state = await this.loadState(id);
    for (const c of state.chunks) await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: c.key }));
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: id }));
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.stateKey(id) }));
  }

  /** Forgets an upload's state (not its object, which is an attachment's). */
  async forget(id: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.stateKey(id) }));
  }

  override getExpiration(): number {
    return this.expirationMs;
  }

  override async deleteExpired(): Promise<number> {
    if (this.expirationMs <= 0) return 0;
    let removed = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: STATE_PREFIX, Delimiter: '/', ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) {
        const id = Buffer.from(o.Key!.slice(STATE_PREFIX.length, -'.json'.length), 'base64url').toString();
        const state = await this.loadState(id).catch(() => null);
        if (!state || state.upload.offset === state.upload.size) continue;
        const created = Date.parse(state.upload.creation_date ?? '') || o.LastModified?.getTime() || Date.now();
        if (created + this.expirationMs < Date.now()) {
          await this.remove(id);
          removed++;
        }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return removed;
  }
}
