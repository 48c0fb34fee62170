import { keyspace, type Keyspace } from '../keys';

/*
 * Every key builder of keys.ts, described as a pattern over what its arguments can hold, and a
 * proof that no two of them can produce the same string: the patterns are regular languages and
 * their pairwise intersections must be empty. Key prefixes handed to a library (the rate
 * limiters, BullMQ) are described with the tail that library appends, so a library's keys cannot
 * land on ours either. Adding a builder without describing it here fails the first test.
 */

/** One or more characters of a class; everything else in a pattern is literal text. */
interface Var {
  name: string;
  test: (c: string) => boolean;
}
type Part = string | Var;

const digits: Var = { name: 'digits', test: (c) => c >= '0' && c <= '9' };
const hex: Var = { name: 'hex', test: (c) => /[0-9a-f]/.test(c) };
const letters: Var = { name: 'letters', test: (c) => /[A-Za-z]/.test(c) };
/** Anything at all: the conservative choice for ids and subjects we do not control. */
const any: Var = { name: 'any', test: () => true };
/** Queue ids are `<ms>:<hex>` (packages/queues); written as two parts so the pattern is exact. */
const queueId: Part[] = [digits, ':', hex];

interface Described {
  /** Keyspace member that builds it. */
  builder: keyof Keyspace;
  /** Arguments for the sample call, which must match `parts`. */
  args: unknown[];
  parts: (prefix: string) => Part[];
  /** For a key prefix handed to a library: a sample of what the library appends. */
  appended?: string;
}

const DESCRIBED: Described[] = [
  { builder: 'stream', args: [3], parts: (p) => [`${p}{s:`, digits, '}:events'] },
  { builder: 'publishedMarker', args: [3, '42'], parts: (p) => [`${p}{s:`, digits, '}:published:', digits] },
  { builder: 'queueEvents', args: ['1700000000000:ab12'], parts: (p) => [`${p}{q:`, ...queueId, '}:events'] },
  { builder: 'queueMeta', args: ['1700000000000:ab12'], parts: (p) => [`${p}{q:`, ...queueId, '}:meta'] },
  { builder: 'queueWakeChannel', args: ['1700000000000:ab12'], parts: (p) => [`${p}wake:`, ...queueId] },
  { builder: 'userQueues', args: [2, 7], parts: (p) => [`${p}qidx:user:`, digits, ':', digits] },
  { builder: 'realmQueues', args: [2], parts: (p) => [`${p}qidx:realm:`, digits] },
  { builder: 'publicStreamQueues', args: [2], parts: (p) => [`${p}qidx:public:`, digits] },
  { builder: 'partitionLease', args: [3], parts: (p) => [`${p}events:lease:`, digits] },
  { builder: 'eventsReplicas', args: [], parts: (p) => [`${p}events:replicas`] },
  { builder: 'authCache', args: ['some-api-key'], parts: (p) => [`${p}auth:`, hex] },
  { builder: 'authForgetChannel', args: [], parts: (p) => [`${p}auth:forget`] },
  // rate-limiter-flexible stores `<keyPrefix>:<key>`.
  { builder: 'rateLimitPrefix', args: [], parts: (p) => [`${p}rl`, ':', any], appended: ':10.0.0.1' },
  { builder: 'loginFailurePrefix', args: ['basic', 'ip'], parts: (p) => [`${p}loginfail:basic:ip`, ':', any], appended: ':10.0.0.1' },
  { builder: 'loginFailurePrefix', args: ['basic', 'account'], parts: (p) => [`${p}loginfail:basic:account`, ':', any], appended: ':2:a@b.c' },
  { builder: 'loginFailurePrefix', args: ['password', 'ip'], parts: (p) => [`${p}loginfail:password:ip`, ':', any], appended: ':10.0.0.1' },
  { builder: 'loginFailurePrefix', args: ['password', 'account'], parts: (p) => [`${p}loginfail:password:account`, ':', any], appended: ':2:a@b.c' },
  { builder: 'tusLock', args: ['upload-1'], parts: (p) => [`${p}tus:lock:`, any] },
  { builder: 'tusReleaseChannel', args: [], parts: (p) => [`${p}tus:release`] },
  { builder: 'pageSession', args: ['sid_-1'], parts: (p) => [`${p}session:`, any] },
  { builder: 'oneTimeToken', args: ['reset', 'Ab12'], parts: (p) => [`${p}token:`, letters, ':', any] },
  { builder: 'pageLimit', args: [3600, 'confirm:2:a@b.c'], parts: (p) => [`${p}pagelimit:`, digits, ':', any] },
  { builder: 'botAvatarHandover', args: ['Ab12'], parts: (p) => [`${p}bot-avatar:`, any] },
  { builder: 'pushDeviceHoldersVersion', args: [], parts: (p) => [`${p}push:device-holders:version`] },
  { builder: 'pushLegacyPending', args: [7], parts: (p) => [`${p}push:legacy-pending:`, digits] },
  { builder: 'missedMailPending', args: [2, 7], parts: (p) => [`${p}{mm:`, digits, ':', digits, '}:pending'] },
  { builder: 'missedMailBatch', args: [2, 7], parts: (p) => [`${p}{mm:`, digits, ':', digits, '}:batch'] },
  { builder: 'fullMembersAnnouncedUntil', args: [], parts: (p) => [`${p}users:full-members:announced-until`] },
  { builder: 'urlPreview', args: ['https://example.com/'], parts: (p) => [`${p}url-preview:`, hex] },
  // rate-limiter-flexible stores `<prefix>:<key>` (a sender's address or a realm's id).
  { builder: 'inboundMailLimitPrefix', args: ['sender'], parts: (p) => [`${p}inmail:`, letters, ':', any], appended: ':someone@example.com' },
  // BullMQ stores `<prefix>:<queue>:<suffix>`.
  { builder: 'bullPrefix', args: [], parts: (p) => [`{${p}bull}`, ':', any], appended: ':push:wait' },
];

/** Keyspace members that are not key builders. */
const NOT_KEYS = new Set(['prefix', 'partitions', 'groups', 'patterns', 'partitionOf', 'allPartitions', 'streamForRealm', 'allStreams', 'partitionOfStream']);

/** The NFA of a pattern: one state per literal character or class, plus the accepting one. */
function automaton(parts: Part[]): Array<{ test: (c: string) => boolean; loops: boolean }> {
  const steps: Array<{ test: (c: string) => boolean; loops: boolean }> = [];
  for (const part of parts) {
    if (typeof part === 'string') for (const ch of part) steps.push({ test: (c) => c === ch, loops: false });
    else steps.push({ test: part.test, loops: true });
  }
  return steps;
}

function moves(steps: ReturnType<typeof automaton>, state: number, c: string): number[] {
  const out: number[] = [];
  if (state < steps.length && steps[state]!.test(c)) out.push(state + 1);
  // After a class, more characters of it may follow.
  if (state > 0 && steps[state - 1]!.loops && steps[state - 1]!.test(c)) out.push(state);
  return out;
}

/** Printable ASCII plus one character beyond it, standing in for every other one. */
const ALPHABET = [...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)), 'é'];

/** A string both patterns accept, or null when their languages are disjoint. */
function commonString(a: Part[], b: Part[]): string | null {
  const A = automaton(a);
  const B = automaton(b);
  const seen = new Map<string, string>([['0,0', '']]);
  const todo: Array<[number, number]> = [[0, 0]];
  while (todo.length) {
    const [i, j] = todo.shift()!;
    const path = seen.get(`${i},${j}`)!;
    if (i === A.length && j === B.length) return path;
    for (const c of ALPHABET) {
      for (const ni of moves(A, i, c)) {
        for (const nj of moves(B, j, c)) {
          const k = `${ni},${nj}`;
          if (!seen.has(k)) {
            seen.set(k, path + c);
            todo.push([ni, nj]);
          }
        }
      }
    }
  }
  return null;
}

function regex(parts: Part[]): RegExp {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const cls: Record<string, string> = { digits: '[0-9]+', hex: '[0-9a-f]+', letters: '[A-Za-z]+', any: '.+' };
  return new RegExp(`^${parts.map((p) => (typeof p === 'string' ? esc(p) : cls[p.name])).join('')}$`);
}

/** The sample key of a description, with what a library appends to a prefix. */
const sample = (keys: Keyspace, d: Described) => (keys[d.builder] as (...args: unknown[]) => string)(...d.args) + (d.appended ?? '');

const label = (d: Described) => `${d.builder}(${d.args.map((a) => JSON.stringify(a)).join(', ')})`;

describe('the keyspace', () => {
  const keys = keyspace('chat:', { partitions: 8 });

  it('describes every key builder, and each description matches what the builder makes', () => {
    const builders = Object.entries(keys).filter(([name, v]) => typeof v === 'function' && !NOT_KEYS.has(name)).map(([name]) => name);
    expect(builders.filter((b) => !DESCRIBED.some((d) => d.builder === b))).toEqual([]);
    for (const d of DESCRIBED) {
      const key = sample(keys, d);
      expect({ builder: label(d), key, matches: regex(d.parts('chat:')).test(key) }).toEqual({ builder: label(d), key, matches: true });
    }
  });

  it.each(['chat:', ''])('has no two builders that can make the same key (prefix %j)', (prefix) => {
    const clashes: string[] = [];
    for (let i = 0; i < DESCRIBED.length; i++) {
      for (let j = i + 1; j < DESCRIBED.length; j++) {
        const both = commonString(DESCRIBED[i]!.parts(prefix), DESCRIBED[j]!.parts(prefix));
        if (both !== null) clashes.push(`${label(DESCRIBED[i]!)} and ${label(DESCRIBED[j]!)} both make ${JSON.stringify(both)}`);
      }
    }
    expect(clashes).toEqual([]);
  });

  it('finds a clash where there is one', () => {
    // The check itself: a lease named by realm would collide with one named by partition.
    expect(commonString(['x:events:lease:', digits], ['x:events:lease:', any])).toBe('x:events:lease:0');
    expect(commonString(['x:{q:', any, '}:meta'], ['x:{q:', any, '}:events'])).toBeNull();
    expect(commonString(['x:rl', ':', any], ['x:rl:', digits])).toBe('x:rl:0');
  });

  it('keeps every key under the prefix (BullMQ\'s inside its hash tag)', () => {
    for (const d of DESCRIBED) {
      const key = sample(keys, d);
      expect({ key, under: key.startsWith('chat:') || key.startsWith('{chat:') }).toEqual({ key, under: true });
    }
  });

  it('has SCAN patterns that match exactly the index sets', () => {
    const glob = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    const indexes = glob(keys.patterns.queueIndexes());
    const realms = glob(keys.patterns.realmQueueIndexes());
    for (const d of DESCRIBED) {
      const key = sample(keys, d);
      expect({ key, index: indexes.test(key) }).toEqual({ key, index: ['userQueues', 'realmQueues', 'publicStreamQueues'].includes(d.builder) });
      expect({ key, realm: realms.test(key) }).toEqual({ key, realm: d.builder === 'realmQueues' });
    }
  });
});
