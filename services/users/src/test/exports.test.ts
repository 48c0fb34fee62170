import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { extract } from 'tar';
import { TEST_REALM_URL } from '@chat/testing';
import { ROLE_NAMES, startHarness, userOf, type Harness } from './support';

let h: Harness;
let exportDir: string;
let publicChannel: number;
let privateChannel: number;
const ids: Record<string, number> = {};

beforeAll(async () => {
  // A folder whose name starts with a dot, as the default .data/exports does.
  exportDir = await mkdtemp(path.join(tmpdir(), '.exports-test-'));
  h = await startHarness({ EXPORT_DIR: exportDir, EXPORT_MAX_MESSAGES: '50' });
  const { db, realm } = h;
  const realmId = realm.realmId;
  publicChannel = (await db.stream.create({ data: { realmId, name: 'general', nameKey: 'general' } })).id;
  privateChannel = (await db.stream.create({ data: { realmId, name: 'secret', nameKey: 'secret', inviteOnly: true } })).id;
  for (const [user, stream] of [[realm.member, publicChannel], [realm.owner, privateChannel], [realm.member, privateChannel]] as const) {
    await db.subscription.create({ data: { userId: user.id, streamId: stream } });
  }
  const send = async (name: string, senderId: number, data: { streamId?: number; conversationId?: number }, to: number[]) => {
    const m = await db.message.create({
      data: { realmId, senderId, recipientType: data.streamId ? 'stream' : 'private', ...data, topic: data.streamId ? 'hello' : '', content: name, renderedContent: `<p>${name}</p>` },
    });
    await db.userMessage.createMany({ data: to.map((userId) => ({ userId, messageId: m.id })) });
    ids[name] = m.id;
  };
  const dm = (a: number, b: number) => db.directConversation.create({ data: { realmId, memberKey: [a, b].sort().join(','), memberIds: [a, b].sort() } });
  await send('public words', realm.member.id, { streamId: publicChannel }, [realm.member.id]);
  await send('private words', realm.owner.id, { streamId: privateChannel }, [realm.owner.id, realm.member.id]);
  await send('owner dm', realm.member.id, { conversationId: (await dm(realm.member.id, realm.owner.id)).id }, [realm.member.id, realm.owner.id]);
  await send('guest dm', realm.member.id, { conversationId: (await dm(realm.member.id, realm.guest.id)).id }, [realm.member.id, realm.guest.id]);
});
afterAll(async () => {
  await h?.close();
  await rm(exportDir, { recursive: true, force: true });
});

const admins = ['owner', 'administrator'];
const adminIds = () => [h.realm.owner.id, h.realm.admin.id].sort((a, b) => a - b);

/** The weekly limit counts every request: tests start from a clean week. */
async function newWeek() {
  await h.db.realmExport.updateMany({ data: { dateRequested: new Date(Date.now() - 8 * 86_400_000) } });
}

async function finished(id: number) {
  for (let i = 0; i < 200; i++) {
    const row = await h.db.realmExport.findUniqueOrThrow({ where: { id } });
    if (row.status >= 3) return row;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`export ${id} did not finish`);
}

async function setSetting(userId: number, name: string, value: boolean | number) {
  const user = await h.db.user.findUniqueOrThrow({ where: { id: userId } });
  await h.db.user.update({ where: { id: userId }, data: { settings: { ...(user.settings as Record<string, boolean | number | string>), [name]: value } } });
}

/** Unpacks a finished export's tarball (fetched through its URL) and reads its JSON files. */
async function unpack(url: string) {
  const res = await h.as().site(new URL(url).pathname).buffer(true).parse((r, cb) => {
    const chunks: Buffer[] = [];
    r.on('data', (c: Buffer) => chunks.push(c));
    r.on('end', () => cb(null, Buffer.concat(chunks)));
  });
  expect(res.status).toBe(200);
  const dir = await mkdtemp(path.join(tmpdir(), 'unpacked-'));
  await writeFile(path.join(dir, 'x.tar.gz'), res.body as Buffer);
  await extract({ file: path.join(dir, 'x.tar.gz'), cwd: dir });
  const [top] = (await readdir(dir)).filter((n) => n.startsWith('chat-export-'));
  const read = async (name: string) => JSON.parse(await readFile(path.join(dir, top!, name), 'utf8'));
  const files = await readdir(path.join(dir, top!));
  const messages = files.filter((f) => f.startsWith('messages-')).sort();
  const all = [];
  for (const f of messages) all.push(...(await read(f)).messages);
  const out = { realm: await read('realm.json'), messages: all as Array<{ id: number; content: string }>, files };
  await rm(dir, { recursive: true, force: true });
  return out;
}

describe('POST /export/realm', () => {
  beforeEach(newWeek);

  it.each(ROLE_NAMES)('as the %s', async (name) => {
    const before = await h.lastEventId();
    const res = await h.as(userOf(h.realm, name)).post('/export/realm').send({});
    if (!admins.includes(name)) {
      expect(res.body).toEqual({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
      expect(await h.eventsSince(before)).toEqual([]);
      return;
    }
    expect(res.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    const row = await finished(res.body.id);
    expect(row).toMatchObject({ status: 3, exportType: 1, actingUserId: userOf(h.realm, name).id });
    const events = (await h.eventsSince(before)).filter((e) => e.type === 'realm_export');
    // Requested, started, succeeded: each sends the whole list to the human administrators.
    expect(events).toHaveLength(3);
    for (const e of events) expect(e.users).toEqual(adminIds());
    const mine = events.map((e) => (e.event.exports as Array<Record<string, unknown>>).find((x) => x.id === res.body.id)!);
    expect(mine.map((x) => x.pending)).toEqual([true, true, false]);
    expect(mine[2]).toEqual({
      id: res.body.id,
      acting_user_id: userOf(h.realm, name).id,
      export_time: row.dateRequested.getTime() / 1000,
      export_url: `${TEST_REALM_URL}/user_avatars/${row.exportPath}`,
      deleted_timestamp: null,
      failed_timestamp: null,
      pending: false,
      export_type: 1,
    });
    expect(row.exportPath).toMatch(new RegExp(`^exports/${h.realm.realmId}/[A-Za-z0-9_-]{24}/chat-export-[^/]+\\.tar\\.gz$`));
  });

  it('writes public data only in a public export', async () => {
    const id = (await h.as(h.realm.admin).post('/export/realm').send({ export_type: '1' })).body.id;
    const row = await finished(id);
    const { realm, messages, files } = await unpack((await h.as(h.realm.admin).get('/export/realm')).body.exports.find((e: { id: number }) => e.id === id).export_url);
    expect(row.status).toBe(3);
    expect(files).toEqual(expect.arrayContaining(['realm.json', 'stats.json', 'messages-000001.json']));
    expect(realm.realm).toMatchObject({ id: h.realm.realmId });
    expect(realm.channels.map((c: { id: number }) => c.id)).toEqual([publicChannel]);
    expect(realm.subscriptions).toEqual([expect.objectContaining({ user_id: h.realm.member.id, stream_id: publicChannel })]);
    expect(realm.users.map((u: { id: number }) => u.id)).toEqual(expect.arrayContaining([h.realm.owner.id, h.realm.guest.id, h.realm.bot.id]));
    expect(JSON.stringify(realm.users)).not.toContain('api_key');
    expect(messages.map((m) => m.content)).toEqual(['public words']);
  });

  it('adds the private data of the people who consented to a full export', async () => {
    await setSetting(h.realm.owner.id, 'allow_private_data_export', true);
    try {
      const id = (await h.as(h.realm.owner).post('/export/realm').send({ export_type: '2' })).body.id;
      const row = await finished(id);
      expect(row).toMatchObject({ status: 3, exportType: 2 });
      const url = (await h.as(h.realm.owner).get('/export/realm')).body.exports.find((e: { id: number }) => e.id === id).export_url;
      const { realm, messages } = await unpack(url);
      expect(realm.channels.map((c: { id: number }) => c.id).sort()).toEqual([publicChannel, privateChannel].sort());
      // The owner consented: what they received is in; the guest's conversation is not.
      expect(messages.map((m) => m.content)).toEqual(['public words', 'private words', 'owner dm']);
    } finally {
      await setSetting(h.realm.owner.id, 'allow_private_data_export', false);
    }
  });

  it('refuses bad export types', async () => {
    expect((await h.as(h.realm.admin).post('/export/realm').send({ export_type: '3' })).body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid export_type' });
    expect((await h.as(h.realm.admin).post('/export/realm').send({ export_type: 'x' })).body.msg).toBe('export_type is not an integer');
  });

  it('needs a consenting owner for a full export, and an owner with a visible address for a public one', async () => {
    const count = await h.db.realmExport.count();
    expect((await h.as(h.realm.admin).post('/export/realm').send({ export_type: '2' })).body).toEqual({
      result: 'error', code: 'BAD_REQUEST',
      msg: 'Make sure at least one Organization Owner is consenting to the export or contact support@chat.test for help.',
    });
    await setSetting(h.realm.owner.id, 'email_address_visibility', 4);
    try {
      expect((await h.as(h.realm.admin).post('/export/realm').send({})).body.msg).toBe(
        'Make sure at least one Organization Owner allows other Administrators to see their email address or contact support@chat.test for help',
      );
    } finally {
      await setSetting(h.realm.owner.id, 'email_address_visibility', 1);
    }
    expect(await h.db.realmExport.count()).toBe(count);
  });

  it('allows five exports a week', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await h.as(h.realm.admin).post('/export/realm').send({});
      expect(res.body.result).toBe('success');
      await finished(res.body.id);
    }
    const count = await h.db.realmExport.count();
    expect((await h.as(h.realm.admin).post('/export/realm').send({})).body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Exceeded rate limit.' });
    expect(await h.db.realmExport.count()).toBe(count);
  });

  it('leaves large organizations to the server administrators', async () => {
    const realmId = h.realm.realmId;
    await h.db.message.createMany({
      data: Array.from({ length: 50 }, (_, i) => ({ realmId, senderId: h.realm.member.id, recipientType: 'stream', streamId: publicChannel, topic: 'bulk', content: `m${i}`, renderedContent: '' })),
    });
    try {
      expect((await h.as(h.realm.admin).post('/export/realm').send({})).body.msg).toBe('Please request a manual export from support@chat.test.');
    } finally {
      await h.db.message.deleteMany({ where: { topic: 'bulk' } });
    }
  });

  it('writes an export again when the replica writing it stopped midway', async () => {
    // As BullMQ hands on a stalled job: the row says started, and the job runs again.
    const row = await h.db.realmExport.create({ data: { realmId: h.realm.realmId, actingUserId: h.realm.admin.id, exportType: 1, status: 2 } });
    await h.app.services.exports.add({ exportId: row.id, realmUrl: TEST_REALM_URL });
    expect(await finished(row.id)).toMatchObject({ status: 3, exportPath: expect.any(String) });
  });

  it('marks an export that cannot be written as failed', async () => {
    // A file where the realm's export folder would go makes writing fail.
    await mkdir(path.join(exportDir, 'exports'), { recursive: true });
    const blocker = path.join(exportDir, 'exports', String(h.realm.realmId));
    await rm(blocker, { recursive: true, force: true });
    await writeFile(blocker, 'not a folder');
    try {
      const before = await h.lastEventId();
      const id = (await h.as(h.realm.admin).post('/export/realm').send({})).body.id;
      const row = await finished(id);
      expect(row).toMatchObject({ status: 4, exportPath: null });
      const last = (await h.eventsSince(before)).filter((e) => e.type === 'realm_export').pop()!;
      expect((last.event.exports as Array<Record<string, unknown>>).find((x) => x.id === id)).toMatchObject({
        pending: false, export_url: null, failed_timestamp: row.dateFailed!.getTime() / 1000,
      });
      expect((await h.as(h.realm.admin).delete(`/export/realm/${id}`)).body.msg).toBe('Export failed, nothing to delete');
    } finally {
      await rm(blocker, { force: true });
    }
  });
});

describe('GET and DELETE /export/realm', () => {
  beforeEach(newWeek);

  it.each(ROLE_NAMES)('GET as the %s', async (name) => {
    const res = await h.as(userOf(h.realm, name)).get('/export/realm');
    if (admins.includes(name)) {
      expect(res.body.result).toBe('success');
      expect(res.body.exports.map((e: { id: number }) => e.id)).toEqual((await h.db.realmExport.findMany({ orderBy: { id: 'asc' } })).map((e) => e.id));
    } else {
      expect(res.body.code).toBe('UNAUTHORIZED_PRINCIPAL');
    }
  });

  it.each(ROLE_NAMES)('DELETE as the %s', async (name) => {
    const id = (await h.as(h.realm.admin).post('/export/realm').send({})).body.id;
    const row = await finished(id);
    const file = path.join(exportDir, row.exportPath!);
    const before = await h.lastEventId();
    const res = await h.as(userOf(h.realm, name)).delete(`/export/realm/${id}`);
    if (!admins.includes(name)) {
      expect(res.body.code).toBe('UNAUTHORIZED_PRINCIPAL');
      await expect(readFile(file)).resolves.toBeInstanceOf(Buffer);
      return;
    }
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const after = await h.db.realmExport.findUniqueOrThrow({ where: { id } });
    expect(after.status).toBe(5);
    await expect(readFile(file)).rejects.toThrow();
    const [event] = await h.eventsSince(before);
    expect(event).toMatchObject({ type: 'realm_export', users: adminIds() });
    expect((event!.event.exports as Array<Record<string, unknown>>).find((x) => x.id === id)).toMatchObject({
      deleted_timestamp: after.dateDeleted!.getTime() / 1000, pending: false,
    });
    // The download address is gone with it.
    expect((await h.as().site(new URL(`${TEST_REALM_URL}/user_avatars/${row.exportPath}`).pathname)).status).toBe(404);
    expect((await h.as(h.realm.admin).delete(`/export/realm/${id}`)).body.msg).toBe('Export already deleted');
  });

  it('refuses unknown and unfinished exports', async () => {
    expect((await h.as(h.realm.admin).delete('/export/realm/999999')).body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid data export ID' });
    expect((await h.as(h.realm.admin).delete('/export/realm/99999999999')).body.msg).toBe('Invalid data export ID');
    const pending = await h.db.realmExport.create({ data: { realmId: h.realm.realmId, actingUserId: h.realm.admin.id, exportType: 1, status: 2, dateRequested: new Date(0) } });
    expect((await h.as(h.realm.admin).delete(`/export/realm/${pending.id}`)).body.msg).toBe('Export still in progress');
    const other = await h.db.realmExport.create({ data: { realmId: h.realm.realmId + 1000, actingUserId: 1, exportType: 1, status: 3, exportPath: 'x' } });
    expect((await h.as(h.realm.admin).delete(`/export/realm/${other.id}`)).body.msg).toBe('Invalid data export ID');
    await h.db.realmExport.deleteMany({ where: { id: { in: [pending.id, other.id] } } });
  });

  it('serves a finished export only at its own address in its own realm', async () => {
    const id = (await h.as(h.realm.admin).post('/export/realm').send({})).body.id;
    const row = await finished(id);
    const pathname = `/user_avatars/${row.exportPath}`;
    const ok = await h.as().site(pathname);
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('application/gzip');
    expect((await h.as().site(pathname.replace(/\/[^/]+\.tar\.gz$/, '/other.tar.gz'))).status).toBe(404);
    expect((await h.as(undefined, h.realm.realmId + 1000).site(pathname)).status).toBe(404);
  });
});

describe('export consent', () => {
  it.each(ROLE_NAMES)('GET /export/realm/consents as the %s', async (name) => {
    const res = await h.as(userOf(h.realm, name)).get('/export/realm/consents');
    if (!admins.includes(name)) {
      expect(res.body.code).toBe('UNAUTHORIZED_PRINCIPAL');
      return;
    }
    const humans = await h.db.user.findMany({ where: { realmId: h.realm.realmId, isActive: true, isBot: false }, orderBy: { id: 'asc' } });
    expect(res.body.export_consents).toEqual(humans.map((u) => ({ user_id: u.id, consented: false })));
  });

  it('tells the administrators when someone changes their consent', async () => {
    const before = await h.lastEventId();
    expect((await h.as(h.realm.member).patch('/settings').send({ allow_private_data_export: 'true' })).body.result).toBe('success');
    const events = await h.eventsSince(before);
    expect(events.find((e) => e.type === 'realm_export_consent')).toMatchObject({
      users: adminIds(),
      event: { type: 'realm_export_consent', user_id: h.realm.member.id, consented: true },
    });
    expect(events.find((e) => e.type === 'user_settings')).toMatchObject({ users: [h.realm.member.id], event: { property: 'allow_private_data_export', value: true } });
    const consents = (await h.as(h.realm.admin).get('/export/realm/consents')).body.export_consents;
    expect(consents).toContainEqual({ user_id: h.realm.member.id, consented: true });
    expect((await h.as(h.realm.member).patch('/settings').send({ allow_private_data_export: 'false' })).body.result).toBe('success');
    expect((await h.eventsSince(before)).filter((e) => e.type === 'realm_export_consent').map((e) => e.event.consented)).toEqual([true, false]);
  });

  it('tells the administrators the consent of people who join or come back, not of bots', async () => {
    const before = await h.lastEventId();
    const created = await h.as(h.realm.admin).post('/users').send({ email: 'newcomer@chat.test', password: 'tall-quiet-harbor-42', full_name: 'Newcomer' });
    expect(created.body.result).toBe('success');
    const id = created.body.user_id as number;
    const consentEvents = async (since: bigint) => (await h.eventsSince(since)).filter((e) => e.type === 'realm_export_consent');
    expect(await consentEvents(before)).toEqual([expect.objectContaining({ users: adminIds(), event: { type: 'realm_export_consent', user_id: id, consented: false } })]);
    await setSetting(id, 'allow_private_data_export', true);
    expect((await h.as(h.realm.admin).delete(`/users/${id}`)).body.result).toBe('success');
    const back = await h.lastEventId();
    expect((await h.as(h.realm.admin).post(`/users/${id}/reactivate`)).body.result).toBe('success');
    expect((await consentEvents(back)).map((e) => e.event)).toEqual([{ type: 'realm_export_consent', user_id: id, consented: true }]);
    const bot = await h.lastEventId();
    const made = await h.as(h.realm.member).post('/bots').send({ full_name: 'Helper', short_name: 'helper' });
    expect(made.body.result).toBe('success');
    expect(await consentEvents(bot)).toEqual([]);
  });
});
