/**
 * CPU time of the fan-out per message, a figure that does not depend on how busy the machine
 * is: `node --import tsx services/events/bench/fanout-cpu.ts`. Delivers channel messages to
 * BENCH_RECIPIENTS (200) queues, one per recipient, through `Fanout.deliver` against the local
 * Redis, one message per batch as at 10 messages a second, and prints this process's CPU
 * milliseconds per message (median of BENCH_ROUNDS rounds of BENCH_MESSAGES messages) and
 * Redis's own (INFO's used_cpu_sys + used_cpu_user, shared with anyone else using it).
 */
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { QueueStore } from '@chat/queues';
import type { MessageObject } from '@chat/contracts';
import { Fanout, type StreamEntry } from '../src/workers/fanout/deliver';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 200);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const REALM = 1;

const redisCpuMs = async (redis: Redis) => {
  const info = await redis.info('cpu');
  const f = (k: string) => Number(new RegExp(`${k}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return (f('used_cpu_sys') + f('used_cpu_user')) * 1000;
};

async function main() {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const prefix = `bench:fanout:${randomBytes(4).toString('hex')}:`;
  const store = new QueueStore(redis, prefix);
  const users = Array.from({ length: RECIPIENTS }, (_, i) => 1000 + i);
  try {
    for (const userId of users) {
      await store.create({
        userId, realmId: REALM, eventTypes: ['message'], narrow: [], allPublicStreams: false,
        clientCapabilities: {}, applyMarkdown: true, clientGravatar: true, idleTimeoutSecs: 600, clientName: 'bench',
      });
    }
    const fanout = new Fanout(store);
    let seq = 0;
    const entry = (): StreamEntry => {
      seq++;
      const message: MessageObject = {
        id: seq, type: 'stream', sender_id: users[0]!, sender_full_name: 'User 0', sender_email: 'user0@bench.test', sender_realm_str: '',
        avatar_url: 'https://secure.gravatar.com/avatar/0?d=identicon&version=1', client: 'bench', content: `<p>bench message ${seq}, sent=${Date.now()}</p>`,
        content_type: 'text/html', display_recipient: 'bench channel', is_me_message: false, reactions: [], recipient_id: 7, stream_id: 3,
        subject: 'bench', topic_links: [], submessages: [], timestamp: Math.floor(Date.now() / 1000),
      };
      const flags = Object.fromEntries(users.map((u, i) => [String(u), i === 0 ? ['read'] : []]));
      return {
        id: `${Date.now()}-${seq}`, realmId: REALM,
        payload: {
          event: { type: 'message', message }, users, stream_id: 3, public_stream: true, sender_id: users[0]!, sender_gravatar: true,
          user_flags: flags, raw_content: `bench message ${seq}`, topic: 'bench',
        },
      };
    };
    for (let i = 0; i < 50; i++) await fanout.deliver(0, [entry()]);
    const rounds: Array<{ own: number; redis: number }> = [];
    for (let r = 0; r < ROUNDS; r++) {
      const redis0 = await redisCpuMs(redis);
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < MESSAGES; i++) await fanout.deliver(0, [entry()]);
      const cpu = process.cpuUsage(cpu0);
      rounds.push({ own: (cpu.user + cpu.system) / 1000 / MESSAGES, redis: ((await redisCpuMs(redis)) - redis0) / MESSAGES });
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(JSON.stringify({
      recipients: RECIPIENTS, appended: fanout.appended,
      fanout_cpu_ms_per_message: Number(median(rounds.map((r) => r.own)).toFixed(2)),
      redis_cpu_ms_per_message: Number(median(rounds.map((r) => r.redis)).toFixed(2)),
    }));
  } finally {
    const keys = await redis.keys(`${prefix}*`);
    for (let i = 0; i < keys.length; i += 1000) await redis.del(...keys.slice(i, i + 1000));
    redis.disconnect();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
