import { startHarness, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('outgoing-webhook bots', () => {
  it('creates one with its service, lists it and announces it with the service', async () => {
    const before = await h.lastEventId();
    const me = h.as(h.realm.member);
    // The family's clients send the URL JSON-encoded.
    const res = await me.post('/bots').send({ full_name: 'Echo', short_name: 'echo', bot_type: '3', payload_url: '"http://bots.example.com/echo"', interface_type: '2' });
    expect(res.body).toMatchObject({ result: 'success', user_id: expect.any(Number) });
    const rows = await h.db.botService.findMany({ where: { botId: res.body.user_id } });
    expect(rows).toEqual([expect.objectContaining({ name: 'echo', baseUrl: 'http://bots.example.com/echo', interface: 2, token: expect.stringMatching(/^[A-Za-z0-9]{32}$/) })]);
    const service = { base_url: 'http://bots.example.com/echo', interface: 2, token: rows[0]!.token };
    const listed = (await me.get('/bots')).body.bots.find((b: { user_id: number }) => b.user_id === res.body.user_id);
    expect(listed).toMatchObject({ bot_type: 3, services: [service] });
    const add = (await h.eventsSince(before)).find((e) => e.type === 'realm_bot')!;
    expect(add.event).toMatchObject({ op: 'add', bot: { user_id: res.body.user_id, bot_type: 3, services: [service] } });

    // A plain URL and the default interface; service_name names the service.
    const plain = await me.post('/bots').send({ full_name: 'Plain', short_name: 'plain', bot_type: '3', payload_url: 'https://bots.example.com/plain', service_name: 'helper' });
    expect(await h.db.botService.findFirst({ where: { botId: plain.body.user_id } })).toMatchObject({ name: 'helper', interface: 1, baseUrl: 'https://bots.example.com/plain' });
  });

  it('refuses bad URLs, interfaces and embedded bots with the family\'s errors, writing nothing', async () => {
    const me = h.as(h.realm.member);
    const count = await h.db.user.count();
    const cases: Array<[Record<string, string>, string]> = [
      [{ payload_url: '"not a url"' }, 'payload_url is not a URL'],
      [{ payload_url: '"ftp://example.com/x"' }, 'payload_url is not a URL'],
      [{}, 'payload_url is not a URL'],
      [{ payload_url: '"http://example.com"', interface_type: '7' }, 'Invalid interface type'],
    ];
    for (const [extra, msg] of cases) {
      const res = await me.post('/bots').send({ full_name: 'Bad', short_name: 'bad', bot_type: '3', ...extra });
      expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg });
    }
    expect((await me.post('/bots').send({ full_name: 'Embedded', short_name: 'emb', bot_type: '4' })).body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Embedded bots are not enabled.' });
    expect(await h.db.user.count()).toBe(count);
  });

  it('changes the service with PATCH /bots/{id} and tells the owner', async () => {
    const me = h.as(h.realm.member);
    const created = await me.post('/bots').send({ full_name: 'Changer', short_name: 'changer', bot_type: '3', payload_url: '"http://bots.example.com/a"' });
    const before = await h.lastEventId();
    const res = await me.patch(`/bots/${created.body.user_id}`).send({ service_payload_url: '"http://bots.example.com/b"', service_interface: '2' });
    expect(res.body).toMatchObject({ result: 'success', service_payload_url: 'http://bots.example.com/b', service_interface: 2 });
    const row = await h.db.botService.findFirstOrThrow({ where: { botId: created.body.user_id } });
    expect(row).toMatchObject({ baseUrl: 'http://bots.example.com/b', interface: 2 });
    const update = (await h.eventsSince(before)).find((e) => e.type === 'realm_bot')!;
    expect(update.users).toContain(h.realm.member.id);
    expect(update.event).toEqual({ type: 'realm_bot', op: 'update', bot: { user_id: created.body.user_id, services: [{ base_url: 'http://bots.example.com/b', interface: 2, token: row.token }] } });
    expect((await me.patch(`/bots/${created.body.user_id}`).send({ service_payload_url: '"nope"' })).body.msg).toBe('service_payload_url is not a URL');
    expect((await me.patch(`/bots/${created.body.user_id}`).send({ service_payload_url: '"http://x.example"', service_interface: '5' })).body.msg).toBe('Invalid interface type');
    expect(await h.db.botService.findFirstOrThrow({ where: { botId: created.body.user_id } })).toMatchObject({ baseUrl: 'http://bots.example.com/b' });
  });
});
