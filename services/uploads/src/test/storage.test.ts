import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Upload } from '@tus/utils';
import { readConfig } from '../config';
import { createStorage, type Storage } from '../storage';
import { startS3, type S3Server } from './support';

// The same contract, run against both backends: the service must not care which it has.
let s3: S3Server;
let dir: string;
const backends: Record<string, () => Storage> = {
  local: () => createStorage(readConfig({ UPLOADS_DIR: dir })),
  s3: () => createStorage(readConfig({ ...s3.env, S3_BUCKET: 'contract-test' })),
};

beforeAll(async () => {
  s3 = await startS3('unused');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-test-'));
});
afterAll(async () => {
  await s3.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(Object.keys(backends))('%s storage', (name) => {
  let storage: Storage;
  beforeAll(async () => {
    storage = backends[name]();
    await storage.init(); // creates the bucket for S3
    await storage.init(); // and is safe to repeat
  });
  afterAll(() => storage.close());

  it('writes streams and buffers and reads them back', async () => {
    const big = Buffer.alloc(12 * 1024 * 1024 + 17, 7); // several S3 parts
    expect(await storage.write('1/ab/k1/big.bin', Readable.from([big.subarray(0, 1000), big.subarray(1000)]), 'application/octet-stream')).toBe(big.length);
    expect(await storage.write('1/ab/k2/small.txt', Buffer.from('hi'), 'text/plain')).toBe(2);
    const read = await storage.read('1/ab/k1/big.bin');
    expect(read!.size).toBe(big.length);
    const chunks: Buffer[] = [];
    for await (const c of read!.stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(big)).toBe(true);
    expect((await storage.readBuffer('1/ab/k2/small.txt'))!.toString()).toBe('hi');
  });

  it('reports missing objects as null and removes idempotently', async () => {
    expect(await storage.read('1/zz/none/x')).toBeNull();
    expect(await storage.readBuffer('1/zz/none/x')).toBeNull();
    expect(await storage.exists('1/ab/k2/small.txt')).toBe(true);
    await storage.remove('1/ab/k2/small.txt');
    await storage.remove('1/ab/k2/small.txt');
    expect(await storage.exists('1/ab/k2/small.txt')).toBe(false);
  });

  it('keeps nothing of a write whose source fails', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1024));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.write('1/ab/k3/broken.bin', failing, 'application/octet-stream')).rejects.toThrow();
    expect(await storage.exists('1/ab/k3/broken.bin')).toBe(false);
  });

  it('hands out direct URLs only where the store serves them (S3, signed and short-lived)', async () => {
    await storage.write('1/ab/k4/report.pdf', Buffer.from('%PDF'), 'application/pdf');
    const url = await storage.directUrl('1/ab/k4/report.pdf', { filename: 'report.pdf', contentType: 'application/pdf', download: true });
    if (name === 'local') {
      expect(url).toBeNull();
      expect(storage.localPath('1/ab/k4/report.pdf')).toBe(path.join(dir, '1/ab/k4/report.pdf'));
      expect(() => storage.localPath('../escape')).toThrow();
      return;
    }
    expect(url).toMatch(/X-Amz-Signature=/);
    expect(url).toMatch(/X-Amz-Expires=60/);
    const res = await fetch(url!);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('%PDF');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="report.pdf"');
    expect(res.headers.get('content-type')).toBe('application/pdf');
    // (s3rver accepts any V4 signature, so refusal of a forged one is S3's to prove, not ours.)
  });

  it('sweeps abandoned resumable uploads but never finished ones', async () => {
    const fresh = name === 'local' ? backends.local() : backends.s3();
    const store = fresh.tusDataStore(50);
    const mk = (id: string) => new Upload({ id, size: 10, offset: 0, metadata: {}, creation_date: new Date().toISOString() });
    const abandoned = '1/ab/AAAAAAAAAAAAAAAAAAAAAAAA/abandoned.bin';
    const finished = '1/ab/BBBBBBBBBBBBBBBBBBBBBBBB/finished.bin';
    await store.create(mk(abandoned));
    await store.create(mk(finished));
    expect(await store.write(Readable.from([Buffer.alloc(4)]), abandoned, 0)).toBe(4);
    expect(await store.write(Readable.from([Buffer.alloc(10)]), finished, 0)).toBe(10);
    await fresh.finishTusUpload(finished);
    expect((await store.getUpload(abandoned)).offset).toBe(4);
    await new Promise((r) => setTimeout(r, 100));
    expect(await store.deleteExpired()).toBe(1);
    await expect(store.getUpload(abandoned)).rejects.toBeDefined();
    expect(await fresh.exists(abandoned)).toBe(false);
    expect((await fresh.readBuffer(finished))!.length).toBe(10);
    await fresh.forgetTusUpload(finished);
    await expect(store.getUpload(finished)).rejects.toBeDefined();
    expect(await fresh.exists(finished)).toBe(true);
    fresh.close();
  });
});
