import type { Services } from '../context';

/** Longest a replica trusts its copy without a change being announced (a lost version key). */
const MAX_AGE_MS = 60_000;

/**
 * Who has anything to push to: the users with an end-to-end encrypted device or a legacy token.
 * Most people of most realms have neither, and a message event for them needs no database read.
 *
 * Each replica keeps the set in memory. Every change of devices or tokens bumps a version key in
 * Redis after it commits (bumpDeviceVersion); a replica reads that key once per batch of events
 * and reloads the set (one query) only when it moved. A registration racing a message may miss
 * that one message, as a registration a moment later would.
 */
export class DeviceHolders {
  private users = new Set<number>();
  private version: string | null | undefined;
  private loadedAt = 0;

  constructor(private readonly services: Services) {}

  /** The current set; costs one Redis GET, and one query when devices changed. */
  async current(): Promise<Set<number>> {
    const version = await this.services.redis.get(deviceVersionKey(this.services));
    if (version !== this.version || Date.now() - this.loadedAt > MAX_AGE_MS) {
      const rows = await this.services.db.$queryRawUnsafe<Array<{ user_id: number }>>(
        `SELECT user_id FROM push_devices UNION SELECT user_id FROM push_device_tokens`,
      );
      this.users = new Set(rows.map((r) => r.user_id));
      this.version = version;
      this.loadedAt = Date.now();
    }
    return this.users;
  }
}

export function deviceVersionKey(services: Pick<Services, 'keys'>): string {
  return services.keys.pushDeviceHoldersVersion();
}

/** Announces a committed change of someone's devices or tokens to every replica's cache. */
export async function bumpDeviceVersion(services: Pick<Services, 'keys' | 'redis'>): Promise<void> {
  await services.redis.incr(deviceVersionKey(services));
}
