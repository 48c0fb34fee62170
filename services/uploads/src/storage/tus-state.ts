import fs from 'node:fs/promises';
import path from 'node:path';
import type { KvStore, Upload } from '@tus/utils';

/**
 * Where the local backend keeps the state of unfinished resumable uploads: one JSON file per
 * upload in one folder (`<root>/.tus/`), named by the encoded upload id, because upload ids are
 * path ids with slashes. One flat folder is what lets the expiry sweep list them.
 */
export class FolderKvStore implements KvStore<Upload> {
  constructor(private readonly directory: string) {}

  private file(key: string): string {
    return path.join(this.directory, `${Buffer.from(key).toString('base64url')}.json`);
  }

  async get(key: string): Promise<Upload | undefined> {
    try {
      return JSON.parse(await fs.readFile(this.file(key), 'utf8')) as Upload;
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: Upload): Promise<void> {
    await fs.mkdir(this.directory, { recursive: true });
    // Written aside and renamed: a replica reading it never sees half a file.
    const temp = `${this.file(key)}.${process.pid}.tmp`;
    await fs.writeFile(temp, JSON.stringify(value));
    await fs.rename(temp, this.file(key));
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }

  async list(): Promise<string[]> {
    const names = await fs.readdir(this.directory).catch(() => [] as string[]);
    return names.filter((n) => n.endsWith('.json')).map((n) => Buffer.from(n.slice(0, -5), 'base64url').toString());
  }
}
