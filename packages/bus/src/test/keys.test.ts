import { keyspace, partitionOf, redisKeys } from '../keys';
import { TEST_REDIS_URL } from './support';
import { createRedis, duplicateBlocking, isCluster, parseClusterUrl, reconnectDelay } from '../redis';

/** The part of a key Redis Cluster hashes: the first non-empty {...}. */
function hashTag(key: string): string {
  const open = key.indexOf('{');
  const close = key.indexOf('}', open + 1);
  return open >= 0 && close > open + 1 ? key.slice(open + 1, close) : key;
}

describe('keyspace', () => {
  const keys = keyspace('test:keys:', { partitions: 8 });

  it('keeps every realm in one partition', () => {
    expect(keys.partitionOf(1)).toBe(1);
    expect(keys.partitionOf(9)).toBe(1);
    expect(keys.partitionOf(8)).toBe(0);
    expect(partitionOf(-3, 8)).toBe(5);
    expect(keys.streamForRealm(17)).toBe(keys.stream(1));
  });

  it('names streams under the prefix and maps them back', () => {
    expect(keys.stream(3)).toBe('test:keys:{s:3}:events');
    expect(keys.allStreams()).toHaveLength(8);
    expect(keys.partitionOfStream(keys.stream(5))).toBe(5);
    expect(keys.partitionOfStream('other:{s:5}:events')).toBeUndefined();
    expect(() => keys.stream(8)).toThrow(/outside/);
  });

  it('keeps keys that are used together on one cluster slot', () => {
    expect(hashTag(keys.publishedMarker(3, '42'))).toBe(hashTag(keys.stream(3)));
    expect(hashTag(keys.stream(3))).not.toBe(hashTag(keys.stream(4)));
    expect(keys.queueEvents('abc')).toBe('test:keys:{q:abc}:events');
    expect(hashTag(keys.queueMeta('abc'))).toBe(hashTag(keys.queueEvents('abc')));
  });

  it('names the keys other packages use under the same prefix', () => {
    expect(keys.queueWakeChannel('abc')).toBe('test:keys:wake:abc');
    expect(keys.userQueues(2, 7)).toBe('test:keys:qidx:user:2:7');
    expect(keys.realmQueues(2)).toBe('test:keys:qidx:realm:2');
    expect(keys.publicStreamQueues(2)).toBe('test:keys:qidx:public:2');
    expect(keys.partitionLease(3)).toBe('test:keys:events:lease:3');
    // SHA-256 of "key": the cache never holds an API key itself.
    expect(keys.authCache('key')).toBe('test:keys:auth:2c70e12b7a0646f92279f427c7b38e7334d8e5389cff167a1dc30e73f826b683');
    expect(keys.authForgetChannel()).toBe('test:keys:auth:forget');
    expect(keys.rateLimitPrefix()).toBe('test:keys:rl');
    expect(keys.loginFailurePrefix('basic', 'ip')).toBe('test:keys:loginfail:basic:ip');
    expect(keys.pageSession('abc')).toBe('test:keys:session:abc');
    expect(keys.oneTimeToken('reset', 'T')).toBe('test:keys:token:reset:T');
    expect(keys.pageLimit(60, 'reset:1:a@b.c')).toBe('test:keys:pagelimit:60:reset:1:a@b.c');
    expect(keys.botAvatarHandover('T')).toBe('test:keys:bot-avatar:T');
    expect(keys.pushDeviceHoldersVersion()).toBe('test:keys:push:device-holders:version');
    expect(keys.pushLegacyPending(7)).toBe('test:keys:push:legacy-pending:7');
    expect(keys.missedMailPending(2, 7)).toBe('test:keys:{mm:2:7}:pending');
    expect(keys.urlPreview('https://example.com/')).toMatch(/^test:keys:url-preview:[0-9a-f]{64}$/);
    expect(keys.tusLock('u1')).toBe('test:keys:tus:lock:u1');
    expect(keys.tusReleaseChannel()).toBe('test:keys:tus:release');
    expect(keys.eventsReplicas()).toBe('test:keys:events:replicas');
    expect(keys.bullPrefix()).toBe('{test:keys:bull}');
  });

  it('rejects prefixes that would break hash tags', () => {
    expect(() => keyspace('{x}:', { partitions: 8 })).toThrow(/braces/);
    expect(() => redisKeys('x}:')).toThrow(/braces/);
  });

  it('takes the partition count it is given, and only a positive one', () => {
    expect(keyspace('p:', { partitions: 4 }).allStreams()).toHaveLength(4);
    expect(() => keyspace('p:', { partitions: 0 })).toThrow(/partitions/);
    expect(() => keyspace('p:', { partitions: Number('abc') })).toThrow(/partitions/);
  });
});

describe('createRedis', () => {
  it('names its connections and backs off with a cap', async () => {
    const redis = createRedis(TEST_REDIS_URL, { name: 'keys test' });
    const named = createRedis(TEST_REDIS_URL, { service: 'events-a', name: 'fanout' });
    const copy = duplicateBlocking(named, 'reader');
    try {
      expect(await redis.client('GETNAME')).toBe('chat:keys_test');
      expect(await named.client('GETNAME')).toBe('events-a:fanout');
      expect(await copy.client('GETNAME')).toBe('events-a:reader');
      expect(redis.options.maxRetriesPerRequest).toBe(3);
    } finally {
      redis.disconnect();
      named.disconnect();
      copy.disconnect();
    }
    expect(reconnectDelay(1)).toBeGreaterThanOrEqual(100);
    expect(reconnectDelay(50)).toBeLessThan(2100);
  });

  it('lets blocking connections wait out an outage', () => {
    const redis = createRedis(TEST_REDIS_URL, { blocking: true, redisOptions: { lazyConnect: true } });
    expect(redis.options.maxRetriesPerRequest).toBeNull();
    redis.disconnect();
  });
});

describe('redis+cluster:// URLs', () => {
  it('parses nodes, default ports, IPv6 hosts and shared credentials', () => {
    expect(parseClusterUrl('redis+cluster://10.0.0.1:7000,10.0.0.2,[::1]:7002/')).toEqual({
      nodes: [{ host: '10.0.0.1', port: 7000 }, { host: '10.0.0.2', port: 6379 }, { host: '::1', port: 7002 }],
    });
    expect(parseClusterUrl('redis+cluster://app:p%40ss@h:1')).toEqual({ nodes: [{ host: 'h', port: 1 }], username: 'app', password: 'p@ss' });
    expect(parseClusterUrl('redis+cluster://:secret@h:1')).toEqual({ nodes: [{ host: 'h', port: 1 }], password: 'secret' });
  });

  it('leaves other URLs to a single-node connection and refuses a URL without nodes', () => {
    expect(parseClusterUrl('redis://127.0.0.1:6379')).toBeNull();
    expect(() => parseClusterUrl('redis+cluster://')).toThrow('names no node');
    const single = createRedis('redis://127.0.0.1:6379', { redisOptions: { lazyConnect: true } });
    expect(isCluster(single)).toBe(false);
    single.disconnect();
  });
});
