import { outboxPayload } from '@chat/bus';
import { channelWriteStats, doWriteChannelSend, type ChannelWrite } from '../actions/send/grouped-write';
import { channelReadStats, readChannelSend } from '../actions/send/reads';
import { startHarness, type Harness } from './support';

let h: Harness;
let streamId: number;

beforeAll(async () => {
  h = await startHarness();
  const { owner, member, member2 } = h.realm;
  streamId = await h.createStream(owner, { name: 'Group commit' }, [owner, member, member2]);
});
afterAll(() => h?.close());

const recipients = () => [h.realm.owner.id, h.realm.member.id, h.realm.member2.id];

function write(content: string, senderId = h.realm.member.id): ChannelWrite {
  const users = recipients();
  return {
    realmId: h.realm.realmId, senderId, streamId, topic: 'batches', content, rendered: `<p>${content}</p>`, client: 'test',
    dateSent: new Date().toISOString().replace('Z', ''), isMe: false, hasLink: false, hasImage: false, hasAttachment: false,
    recipientIds: users, flags: users.map((u) => (u === senderId ? '1' : '0')),
    payload: outboxPayload({ realmId: h.realm.realmId, type: 'message', users, event: { type: 'message', message: { id: 0, content } as never } }),
  };
}

/** After what the event loop already had due: a statement asked for before has started. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

interface Row {
  id: number;
  content: string;
  tx: string;
  copies: number;
  event_id: number | null;
}

/** Each message of `contents` as stored, with its transaction, its copies and its outbox row. */
async function stored(contents: string[]): Promise<Row[]> {
  return h.env.db.$queryRawUnsafe<Row[]>(
    `SELECT m.id, m.content, m.xmin::text AS tx,
            (SELECT count(*)::int FROM user_messages um WHERE um.message_id = m.id) AS copies,
            (SELECT o.id::int FROM outbox o WHERE (o.payload #>> '{event,message,id}')::int = m.id) AS event_id
       FROM messages m WHERE m.content = ANY($1::text[]) ORDER BY m.id`,
    contents,
  );
}

describe('group commit of channel sends', () => {
  it('writes the sends that wait for a running write in one statement, each with its copies and its event', async () => {
    const before = channelWriteStats(h.env.db);
    // Quotes, backslashes and non-ASCII survive the arrays' text form.
    const contents = ['g1', 'g2', 'g3 "quoted" \\ back\\slash', 'g4 ünïcödé 🎉', 'g5 {braces, comma}', 'g6 NULL'];
    // One write runs at once; the five that arrive meanwhile go together.
    const first = doWriteChannelSend(h.env.db, write(contents[0]!));
    await nextTurn();
    const ids = await Promise.all([first, ...contents.slice(1).map((c) => doWriteChannelSend(h.env.db, write(c)))]);
    const rows = await stored(contents);
    expect(rows).toHaveLength(6);
    const byContent = new Map(rows.map((r) => [r.content, r]));
    contents.forEach((c, i) => expect(byContent.get(c)!.id).toBe(ids[i]));
    const batch = contents.slice(1).map((c) => byContent.get(c)!);
    expect(new Set(batch.map((r) => r.tx)).size).toBe(1);
    expect(batch[0]!.tx).not.toBe(byContent.get(contents[0]!)!.tx);
    // In the batch, ids and outbox rows follow the order the sends came in.
    expect(batch.map((r) => r.id)).toEqual([...batch.map((r) => r.id)].sort((a, b) => a - b));
    expect(batch.map((r) => r.event_id)).toEqual([...batch.map((r) => r.event_id!)].sort((a, b) => a - b));
    for (const r of rows) {
      expect(r.copies).toBe(3);
      expect(r.event_id).not.toBeNull();
    }
    const events = await h.env.db.$queryRawUnsafe<Array<{ content: string; id: number }>>(
      `SELECT payload #>> '{event,message,content}' AS content, (payload #>> '{event,message,id}')::int AS id FROM outbox WHERE id = ANY($1::int[])`,
      rows.map((r) => r.event_id),
    );
    expect(new Map(events.map((e) => [e.id, e.content]))).toEqual(new Map(rows.map((r) => [r.id, r.content])));
    const flags = await h.env.db.userMessage.findMany({ where: { messageId: byContent.get(contents[3]!)!.id }, orderBy: { userId: 'asc' } });
    expect(flags.map((f) => [f.userId, Number(f.flags)])).toEqual(recipients().sort((a, b) => a - b).map((u) => [u, u === h.realm.member.id ? 1 : 0]));
    const after = channelWriteStats(h.env.db);
    expect(after.statements - before.statements).toBe(2);
    expect(after.grouped - before.grouped).toBe(5);
  });

  it('writes the others of a refused batch alone, and refuses only the send at fault', async () => {
    const before = channelWriteStats(h.env.db);
    const nobody = 2_000_000_000;
    const sends = [write('r1'), write('r2'), write('r3'), write('r-bad', nobody), write('r4')];
    const first = doWriteChannelSend(h.env.db, sends[0]!);
    await nextTurn();
    const results = await Promise.allSettled([first, ...sends.slice(1).map((w) => doWriteChannelSend(h.env.db, w))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[3] as PromiseRejectedResult).reason).toMatchObject({ code: '23503' });
    const rows = await stored(['r1', 'r2', 'r3', 'r-bad', 'r4']);
    expect(rows.map((r) => r.content).sort()).toEqual(['r1', 'r2', 'r3', 'r4']);
    const r3 = rows.find((r) => r.content === 'r3')!;
    const r4 = rows.find((r) => r.content === 'r4')!;
    expect(r3.tx).not.toBe(r4.tx);
    expect(rows.every((r) => r.copies === 3 && r.event_id !== null)).toBe(true);
    expect(channelWriteStats(h.env.db).retriedAlone - before.retriedAlone).toBe(4);
  });

  it('answers many sends at once through the API, each stored once with its event', async () => {
    // A channel's first message, and a sender's first in a topic, are written in a transaction
    // of their own (writePathOf). Sent first and awaited, so that none of the burst's sends
    // reads the channel or the topic as new, however their reads interleave.
    const opener = await h.api.post('/api/v1/messages').set(h.as(h.realm.member)).type('form')
      .send({ type: 'stream', to: 'Group commit', topic: 'burst', content: 'opening the topic' });
    expect(opener.body.result).toBe('success');
    const contents = Array.from({ length: 24 }, (_, i) => `at once ${i}`);
    const answers = await Promise.all(contents.map((content) =>
      h.api.post('/api/v1/messages').set(h.as(h.realm.member)).type('form').send({ type: 'stream', to: 'Group commit', topic: 'burst', content })));
    expect(answers.map((a) => a.body.result)).toEqual(contents.map(() => 'success'));
    const rows = await stored(contents);
    expect(rows).toHaveLength(24);
    const byContent = new Map(rows.map((r) => [r.content, r.id]));
    contents.forEach((c, i) => expect(answers[i]!.body.id).toBe(byContent.get(c)));
    expect(rows.every((r) => r.copies === 3 && r.event_id !== null)).toBe(true);
    // The service counts its statements on /metrics: every send's read and, after the opener
    // (written in its transaction), every send's write.
    const text = await (await fetch(`${h.service.metricsUrl!}/metrics`)).text();
    const counter = (name: string) => Number(new RegExp(`^${name}\\{[^}]*\\} (\\d+)`, 'm').exec(text)?.[1]);
    const sends = (kind: string) =>
      counter(`messaging_send_${kind}_statements_total`) - counter(`messaging_send_${kind}_groups_total`) + counter(`messaging_send_${kind}s_grouped_total`);
    expect(sends('read')).toBe(25);
    expect(sends('write')).toBe(24);
  });
});

describe('grouped reads of channel sends', () => {
  it('reads for several sends in one statement what each would read alone', async () => {
    const { realmId, member, owner } = h.realm;
    const targets: Array<[number, { id: number } | { name: string }, string | null]> = [
      [member.id, { id: streamId }, 'batches'],
      [owner.id, { name: 'group COMMIT ' }, 'new topic'],
      [member.id, { name: 'no such channel' }, 'x'],
      [member.id, { id: streamId }, null],
    ];
    const readAll = () => Promise.all(targets.map(([sender, to, topic]) => readChannelSend(h.env.db, realmId, sender, to, topic, 'batches')));
    const before = channelReadStats(h.env.db);
    const together = await readAll();
    // The first read starts at once; the three asked for meanwhile go together.
    expect(channelReadStats(h.env.db).grouped - before.grouped).toBe(3);
    const alone = [];
    for (const [sender, to, topic] of targets) alone.push(await readChannelSend(h.env.db, realmId, sender, to, topic, 'batches'));
    expect(together).toEqual(alone);
    expect(together[0]!.subscriberIds).toEqual(recipients().sort((a, b) => a - b));
    expect(together[1]!.stream?.id).toBe(streamId);
    expect(together[1]!.caller?.id).toBe(owner.id);
    expect(together[2]!.stream).toBeNull();
    expect(together[0]!.readings.topicPolicy!.isInitiator).toBe(false);
    expect(together[1]!.readings.topicPolicy!.isInitiator).toBe(true);
  });
});
