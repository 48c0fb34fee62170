import type { MessageObject } from '@chat/contracts';
import type { QueueInfo } from '@chat/queues';
import { formatKey, formatMessage, formatOther, type Payload } from '../workers/fanout/format';

// The fan-out formats once per formatKey: queues with equal keys must get equal events, for every
// registration field and payload field the formatters read.
const base: QueueInfo = {
  queueId: 'q0', userId: 1, realmId: 1, eventTypes: null, narrow: [], allPublicStreams: false, clientCapabilities: {},
  applyMarkdown: true, clientGravatar: true, slimPresence: false, idleTimeoutSecs: 600, clientName: 'test',
};
const variants: Array<Partial<QueueInfo>> = [
  {}, { userId: 2 }, { userId: 3 }, { queueId: 'sender' }, { applyMarkdown: false }, { clientGravatar: false },
  { clientCapabilities: { empty_topic_name: true } }, { clientCapabilities: { bulk_message_deletion: true } },
  { clientCapabilities: { simplified_presence_events: true } }, { slimPresence: true }, { eventTypes: ['presence'] },
  { narrow: [['topic', 'other']] }, { narrow: [['is', 'starred']] }, { idleTimeoutSecs: 5, clientName: 'other', realmId: 1 },
];
const queues = variants.map((v, i) => ({ ...base, queueId: `q${i}`, ...v }));

const message = {
  id: 9, type: 'stream', sender_id: 1, content: '<p>x</p>', content_type: 'text/html', avatar_url: 'https://a.test/1', subject: '',
  display_recipient: 'c', stream_id: 3,
} as unknown as MessageObject;
const payloads: Payload[] = [
  {
    event: { type: 'message', message }, users: [1, 2, 3], stream_id: 3, public_stream: true, sender_id: 1, sender_gravatar: true,
    sender_queue_id: 'sender', local_id: '1.5', user_flags: { 1: ['read'], 2: ['starred'] }, raw_content: 'x', topic: '',
  } as Payload,
  { event: { type: 'delete_message', message_ids: [1, 2], topic: '' }, users: [1, 2, 3], user_flags: { 2: ['read'] } } as unknown as Payload,
  {
    event: { type: 'presence', presences: {} }, users: 'realm', capability: 'simplified_presence_events',
    fallback_event: { type: 'presence', email: 'a@x', user_id: 1 },
  } as unknown as Payload,
];

const format = (q: QueueInfo, p: Payload) => JSON.stringify(p.event.type === 'message' ? formatMessage(q, p as never) : formatOther(q, p));

it('gives equal events to queues with equal format keys, and tells apart those that differ', () => {
  for (const p of payloads) {
    const byKey = new Map<string, string>();
    const outputs = new Set<string>();
    for (const q of queues) {
      const out = format(q, p);
      outputs.add(out);
      const key = formatKey(q, p);
      if (byKey.has(key)) expect(out).toBe(byKey.get(key));
      else byKey.set(key, out);
    }
    // The variants do produce different events, so the check above is not vacuous.
    expect(outputs.size).toBeGreaterThan(2);
  }
  const m = payloads[0]!;
  expect(formatKey(queues[1]!, m)).not.toBe(formatKey(queues[2]!, m)); // user 2 starred, user 3 no flags
  expect(formatKey(queues[0]!, m)).not.toBe(formatKey(queues[3]!, m)); // the sender's queue gets local_message_id
  expect(formatKey(queues[2]!, m)).toBe(formatKey({ ...queues[2]!, queueId: 'another' }, m));
});
