import { ROLE_NAMES, startHarness, userOf, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

let n = 0;
const admins = ['owner', 'administrator'];

async function folder(name = `Folder ${++n}`) {
  const res = await h.as(h.realm.admin).post('/channel_folders/create').send({ name, description: 'About *this*' });
  expect(res.body.result).toBe('success');
  return res.body.channel_folder_id as number;
}

describe('channel folders', () => {
  it.each(ROLE_NAMES)('POST /channel_folders/create as the %s', async (name) => {
    const before = await h.lastEventId();
    const res = await h.as(userOf(h.realm, name)).post('/channel_folders/create').send({ name: `By ${name}`, description: 'Hello **there**' });
    if (admins.includes(name)) {
      expect(res.body).toMatchObject({ result: 'success', channel_folder_id: expect.any(Number) });
      const [event] = await h.eventsSince(before);
      expect(event!.event).toMatchObject({
        type: 'channel_folder', op: 'add',
        channel_folder: { id: res.body.channel_folder_id, name: `By ${name}`, description: 'Hello **there**', rendered_description: '<p>Hello <strong>there</strong></p>', creator_id: userOf(h.realm, name).id, is_archived: false },
      });
    } else {
      expect(res.body).toEqual({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
      expect(await h.eventsSince(before)).toEqual([]);
    }
  });

  it('checks name and description', async () => {
    const admin = h.as(h.realm.admin);
    const post = (body: Record<string, string>) => admin.post('/channel_folders/create').send(body).then((r) => r.body);
    expect(await post({ name: ' ', description: '' })).toMatchObject({ code: 'BAD_REQUEST', msg: "Channel folder name can't be empty." });
    expect(await post({ name: 'x'.repeat(61), description: '' })).toMatchObject({ msg: 'name is too long (limit: 60 characters)' });
    expect(await post({ name: 'ok', description: 'd'.repeat(1025) })).toMatchObject({ msg: 'description is too long (limit: 1024 characters)' });
    expect(await post({ name: 'No description' })).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'description' argument" });
    expect(await post({ name: 'x'.repeat(60), description: '' })).toMatchObject({ result: 'success' });
    expect(await post({ name: 'X'.repeat(60), description: '' })).toMatchObject({ msg: `Channel folder '${'X'.repeat(60)}' already exists` });
  });

  it.each(ROLE_NAMES)('GET /channel_folders as the %s, archived ones on request', async (name) => {
    const id = await folder();
    const archived = await folder();
    await h.as(h.realm.admin).patch(`/channel_folders/${archived}`).send({ is_archived: 'true' });
    const res = await h.as(userOf(h.realm, name)).get('/channel_folders');
    const ids = (res.body.channel_folders as Array<{ id: number }>).map((f) => f.id);
    expect(ids).toContain(id);
    expect(ids).not.toContain(archived);
    const all = await h.as(userOf(h.realm, name)).get('/channel_folders?include_archived=true');
    expect((all.body.channel_folders as Array<{ id: number }>).map((f) => f.id)).toContain(archived);
  });

  it.each(ROLE_NAMES)('PATCH /channel_folders/{id} as the %s', async (name) => {
    const id = await folder();
    const before = await h.lastEventId();
    const res = await h.as(userOf(h.realm, name)).patch(`/channel_folders/${id}`).send({ name: `Renamed ${id}`, description: 'new' });
    if (admins.includes(name)) {
      expect(res.body.result).toBe('success');
      expect((await h.eventsSince(before)).map((e) => e.event)).toEqual([
        { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { name: `Renamed ${id}` } },
        { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { description: 'new', rendered_description: '<p>new</p>' } },
      ]);
    } else {
      expect(res.body.code).toBe('UNAUTHORIZED_PRINCIPAL');
    }
  });

  it('refuses to archive a folder that still holds channels, and unknown ids', async () => {
    const id = await folder();
    await h.db.stream.create({ data: { realmId: h.realm.realmId, name: `in-folder-${id}`, nameKey: `in-folder-${id}`, folderId: id } });
    expect((await h.as(h.realm.admin).patch(`/channel_folders/${id}`).send({ is_archived: 'true' })).body.msg).toBe(
      'You need to remove all the channels from this folder to archive it.',
    );
    expect((await h.as(h.realm.admin).patch('/channel_folders/999999').send({ name: 'x' })).body.msg).toBe('Invalid channel folder ID');
  });

  it.each(ROLE_NAMES)('PATCH /channel_folders (reorder) as the %s', async (name) => {
    const all = (await h.db.channelFolder.findMany({ where: { realmId: h.realm.realmId }, orderBy: { order: 'asc' } })).map((f) => f.id);
    const order = [...all].reverse();
    const res = await h.as(userOf(h.realm, name)).patch('/channel_folders').send({ order: JSON.stringify(order) });
    if (admins.includes(name)) {
      expect(res.body.result).toBe('success');
      const after = (await h.db.channelFolder.findMany({ where: { realmId: h.realm.realmId }, orderBy: { order: 'asc' } })).map((f) => f.id);
      expect(after).toEqual(order);
    } else {
      expect(res.body.code).toBe('UNAUTHORIZED_PRINCIPAL');
    }
  });
});
