import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { keyspace, recordEvent } from '@chat/bus';
import type { MessageObject } from '@chat/contracts';
import { DEFAULT_STREAM_PARTITIONS } from '@chat/kit';
import { mayLinkUploads } from '../workers/links';
import { createChannel, eventually, sendChannelMessage, startHarness, type Harness } from './support';

// The link consumer acknowledges, without parsing them, the new messages that cannot link an
// upload, and still handles those that may. Uploads runs in this process, so JSON.parse shows
// which payloads it parsed.
let h: Harness;
const parse = jest.spyOn(JSON, 'parse');

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  parse.mockRestore();
  await h.close();
});

const marker = () => `marker-${randomBytes(6).toString('hex')}`;
/** Whether an event payload holding `text` was parsed (the test's own database client parses message rows). */
const parsed = (text: string) => parse.mock.calls.some(([json]) => typeof json === 'string' && json.includes('"raw_content"') && json.includes(text));

/** The `message` event of a send, with its source, as messaging records it. */
async function announce(message: { id: number; realmId: number }, content: string, users: number[]) {
  await h.env.db.$transaction((tx) =>
    recordEvent(tx, {
      realmId: message.realmId,
      type: 'message',
      users,
      event: { type: 'message', message: { id: message.id, content: `<p>${content}</p>` } as MessageObject },
      routing: { stream_id: null, public_stream: false, sender_id: users[0]!, user_flags: {}, raw_content: content, topic: '' },
    }),
  );
}

async function consumed() {
  const keys = keyspace(h.env.prefix, { partitions: DEFAULT_STREAM_PARTITIONS });
  await eventually(async () => {
    const groups = (await h.env.redis.call('xinfo', 'groups', keys.streamForRealm(h.realm.realmId))) as Array<Array<string | number>>;
    const g = groups.find((row) => row[1] === 'uploads');
    const field = (k: string) => Number(g?.[g.indexOf(k) + 1]);
    return !!g && field('pending') === 0 && field('lag') === 0;
  });
}

it('decides from the payload text whether a message may link an upload', () => {
  const head = (type: string, payload: object | string) => ({
    type,
    payload: Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)),
  });
  const plain = { event: { type: 'message', message: { id: 1, content: '<p>hi</p>' } }, users: [1], raw_content: 'hi' };
  expect(mayLinkUploads(head('message', plain))).toBe(false);
  // As Postgres prints it: a space after each colon.
  expect(mayLinkUploads(head('message', '{"event": {"type": "message"}, "users": [1], "raw_content": "hi ü"}'))).toBe(false);
  expect(mayLinkUploads(head('message', { ...plain, raw_content: 'see /user_uploads/2/ab/x/f.txt' }))).toBe(true);
  // Escapes could hide the path from a plain search: those payloads are parsed.
  expect(mayLinkUploads(head('message', '{"users": [1], "raw_content": "\\/user_uploads\\/2"}'))).toBe(true);
  expect(mayLinkUploads(head('message', '{"users": [1], "raw_content": "\\u002fuser_uploads/2"}'))).toBe(true);
  // Without its source the message row is read, as before.
  expect(mayLinkUploads(head('message', { event: { type: 'message', message: { id: 1 } }, users: [1] }))).toBe(true);
  expect(mayLinkUploads(head('update_message', { event: {}, users: [1] }))).toBe(true);
  expect(mayLinkUploads(head('delete_message', { event: {}, users: [1] }))).toBe(true);
  expect(mayLinkUploads(head('reaction', { event: {}, users: [1] }))).toBe(false);
});

it('acknowledges unparsed a message that links no upload, and links one that does', async () => {
  const channel = await createChannel(h.env.db, h.realm.realmId, 'skipping', { subscribers: [h.realm.member] });
  const text = `nothing to link ${marker()}`;
  const plain = await sendChannelMessage(h.env.db, h.realm.realmId, h.realm.member, channel.id, text);
  await announce(plain, text, [h.realm.member.id]);

  const res = await request(h.uploads.url).post('/api/v1/user_uploads').set(h.as(h.realm.member)).attach('file', Buffer.from('linked'), 'linked.txt').expect(200);
  const attachment = await h.env.db.attachment.findUniqueOrThrow({ where: { pathId: res.body.url.slice('/user_uploads/'.length) } });
  const linking = `[linked](${res.body.url}) ${marker()}`;
  const linked = await sendChannelMessage(h.env.db, h.realm.realmId, h.realm.member, channel.id, linking);
  await announce(linked, linking, [h.realm.member.id]);

  await eventually(() => h.env.db.attachmentMessage.findUnique({ where: { attachmentId_messageId: { attachmentId: attachment.id, messageId: linked.id } } }));
  await consumed();
  expect(parsed(text)).toBe(false);
  expect(parsed(linking)).toBe(true);
});
