import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import type { DataStore } from '@tus/utils';
import type { ServeOptions, Storage } from './index';
import { FolderKvStore } from './tus-state';

/** State of unfinished resumable uploads, beside the files (never a valid path id: no realm). */
const TUS_STATE_DIR = '.tus';

/**
 * Files on a local (or network-mounted) disk below one root folder. Writes go to a temporary
 * name and are renamed into place, so a reader never sees half a file.
 */
export class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  readonly root: string;
  private tusStore?: DataStore;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  async init(): Promise<void> {
    await fsp.mkdir(this.root, { recursive: true });
  }

  /** Keys come from our own path ids, but a key must never reach outside the root anyway. */
  private resolve(key: string): string {
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error(`storage key outside the root: ${key}`);
    return full;
  }

  async write(key: string, body: Readable | Buffer, _contentType: string): Promise<number> {
    const target = this.resolve(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, fs.createWriteStream(temp));
      const { size } = await fsp.stat(temp);
      await fsp.rename(temp, target);
      return size;
    } catch (err) {
      await fsp.rm(temp, { force: true });
      throw err;
    }
  }

  async read(key: string): Promise<{ stream: Readable; size: number } | null> {
    const file = this.resolve(key);
    try {
      const { size } = await fsp.stat(file);
      return { stream: fs.createReadStream(file), size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async readBuffer(key: string): Promise<Buffer | null> {
    try {
      return await fsp.readFile(this.resolve(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    return fsp.access(this.resolve(key)).then(
      () => true,
      () => false,
    );
  }

  async remove(key: string): Promise<void> {
    await fsp.rm(this.resolve(key), { force: true });
    // Drop the folders the key created ("<realm>/<xx>/<random>/"), never the root.
    let dir = path.dirname(this.resolve(key));
    while (dir !== this.root && dir.startsWith(this.root)) {
      const removed = await fsp.rmdir(dir).then(
        () => true,
        () => false,
      );
      if (!removed) break;
      dir = path.dirname(dir);
    }
  }

  async directUrl(_key: string, _opts: ServeOptions): Promise<string | null> {
    return null;
  }

  localPath(key: string): string {
    return this.resolve(key);
  }

  tusDataStore(expirationMs: number): DataStore {
    this.tusStore ??= new FileStore({
      directory: this.root,
      configstore: new FolderKvStore(path.join(this.root, TUS_STATE_DIR)),
      expirationPeriodInMilliseconds: expirationMs,
    }) as unknown as DataStore;
    return this.tusStore;
  }

  async finishTusUpload(id: string): Promise<void> {
    // FileStore's sweep reads the stored offset, which it never updates itself.
    const state = new FolderKvStore(path.join(this.root, TUS_STATE_DIR));
    const upload = await state.get(id);
    if (upload && upload.size !== undefined) await state.set(id, { ...upload, offset: upload.size } as typeof upload);
  }

  async forgetTusUpload(id: string): Promise<void> {
    await new FolderKvStore(path.join(this.root, TUS_STATE_DIR)).delete(id);
  }

  close(): void {}
}
