import { PassThrough, type Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { DataStore } from '@tus/utils';
import { contentDisposition, type ServeOptions, type Storage } from './index';
import { ChunkedS3Store } from './s3-tus';

export interface S3Options {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  signedUrlSeconds: number;
}

const NOT_FOUND = new Set(['NoSuchKey', 'NotFound', 'NoSuchBucket']);

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return NOT_FOUND.has(e.name ?? '') || e.$metadata?.httpStatusCode === 404;
}

/**
 * Any S3-compatible object store. Objects are private; clients download them through
 * short-lived signed URLs that this service hands out only after its own access check.
 */
export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;
  private tusStore?: ChunkedS3Store;

  constructor(private readonly opts: S3Options) {
    this.bucket = opts.bucket;
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint,
      forcePathStyle: opts.forcePathStyle,
      credentials:
        opts.accessKeyId && opts.secretAccessKey
          ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey }
          : undefined,
      // Checksums on every request are a recent SDK default that older S3-compatible
      // stores reject; send them only where the operation requires one.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async init(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    }
  }

  async write(key: string, body: Readable | Buffer, contentType: string): Promise<number> {
    const counted = Buffer.isBuffer(body) ? null : countBytes(body);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: counted?.stream ?? body, ContentType: contentType },
      queueSize: 2,
      partSize: 5 * 1024 * 1024,
    });
    await upload.done();
    return counted ? counted.bytes() : (body as Buffer).length;
  }

  async read(key: string): Promise<{ stream: Readable; size: number } | null> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return { stream: out.Body as Readable, size: Number(out.ContentLength ?? 0) };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async readBuffer(key: string): Promise<Buffer | null> {
    const found = await this.read(key);
    if (!found) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of found.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async directUrl(key: string, opts: ServeOptions): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentType: opts.contentType,
      ResponseContentDisposition: contentDisposition(opts),
    });
    return getSignedUrl(this.client, command, { expiresIn: this.opts.signedUrlSeconds });
  }

  localPath(): null {
    return null;
  }

  tusDataStore(expirationMs: number): DataStore {
    this.tusStore ??= new ChunkedS3Store(this.client, this.bucket, expirationMs);
    return this.tusStore;
  }

  async finishTusUpload(): Promise<void> {
    // The chunked store's state already says offset === size once the last byte is in.
  }

  async forgetTusUpload(id: string): Promise<void> {
    await (this.tusDataStore(0) as ChunkedS3Store).forget(id);
  }

  close(): void {
    this.client.destroy();
  }
}

/**
 * lib-storage sends parts of an unknown-length stream as they fill, so memory stays at a few
 * parts whatever the file size; this counts the bytes on the way through.
 */
function countBytes(src: Readable): { stream: Readable; bytes(): number } {
  let n = 0;
  const out = new PassThrough({
    transform(chunk: Buffer, _enc, cb) {
      n += chunk.length;
      cb(null, chunk);
    },
  });
  src.on('error', (err) => out.destroy(err));
  src.pipe(out);
  return { stream: out, bytes: () => n };
}
