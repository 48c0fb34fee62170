import { ROLE_NAMES, startHarness, userOf, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const admins = ['owner', 'administrator'];
let n = 0;

const post = (body: Record<string, string>) => h.as(h.realm.admin).post('/realm/playgrounds').send(body).then((r) => r.body);

describe('POST /realm/playgrounds', () => {
  it.each(ROLE_NAMES)('as the %s', async (name) => {
    const before = await h.lastEventId();
    const body = { name: `Python ${name}`, pygments_language: 'Python', url_template: 'https://python.example.com?code={code}' };
    const res = await h.as(userOf(h.realm, name)).post('/realm/playgrounds').send(body);
    if (admins.includes(name)) {
      expect(res.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
      const events = await h.eventsSince(before);
      expect(events).toHaveLength(1);
      expect(events[0]!.type).toBe('realm_playgrounds');
      const active = await h.db.user.findMany({ where: { realmId: h.realm.realmId, isActive: true }, select: { id: true }, orderBy: { id: 'asc' } });
      expect(events[0]!.users).toEqual(active.map((u) => u.id));
      const list = events[0]!.event.realm_playgrounds as Array<Record<string, unknown>>;
      expect(Object.keys(events[0]!.event).sort()).toEqual(['realm_playgrounds', 'type']);
      expect(list).toContainEqual({ id: res.body.id, name: `Python ${name}`, pygments_language: 'Python', url_template: 'https://python.example.com?code={code}' });
      expect(list.map((p) => p.id)).toEqual([...list.map((p) => p.id as number)].sort((a, b) => a - b));
    } else {
      expect(res.body).toEqual({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
      expect(await h.eventsSince(before)).toEqual([]);
    }
  });

  it('trims the values it stores', async () => {
    const id = (await post({ name: '  Rust playground ', pygments_language: ' Rust ', url_template: ' https://play.rust-lang.org/?code={code} ' })).id;
    expect(await h.db.realmPlayground.findUniqueOrThrow({ where: { id } })).toMatchObject({
      name: 'Rust playground',
      pygmentsLanguage: 'Rust',
      urlTemplate: 'https://play.rust-lang.org/?code={code}',
    });
  });

  it('refuses bad input with the family messages, writing nothing', async () => {
    const good = { name: 'Go', pygments_language: 'Go', url_template: 'https://go.dev/play/?code={code}' };
    const count = await h.db.realmPlayground.count();
    expect(await post({ ...good, url_template: 'https://go.dev/{code' })).toEqual({
      result: 'error', code: 'BAD_REQUEST', msg: 'Invalid URL template.', errors: { url_template: ['Invalid URL template.'] },
    });
    expect((await post({ ...good, url_template: 'https://go.dev/play' })).msg).toBe('Missing the required variable "code" in the URL template');
    expect((await post({ ...good, url_template: 'https://go.dev/{lang}/{code}' })).msg).toBe('"code" should be the only variable present in the URL template');
    expect((await post({ ...good, pygments_language: 'Go<script>' })).msg).toBe('Invalid characters in pygments language');
    expect((await post({ ...good, pygments_language: 'x'.repeat(41) })).msg).toBe('pygments_language is too long (limit: 40 characters)');
    expect((await post({ ...good, name: '   ' })).msg).toBe('This field cannot be blank.');
    expect((await post({ ...good, pygments_language: '' })).msg).toBe('This field cannot be blank.');
    expect(await post({ name: 'x', pygments_language: 'Go' })).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'url_template' argument" });
    expect(await h.db.realmPlayground.count()).toBe(count);
  });

  it('refuses a second playground of one name and language', async () => {
    const body = { name: `Dup ${++n}`, pygments_language: 'C++', url_template: 'https://godbolt.org/{#code}' };
    expect((await post(body)).result).toBe('success');
    expect((await post(body)).msg).toBe('Realm playground with this Realm, Pygments language and Name already exists.');
    // Another language, or another name, is fine.
    expect((await post({ ...body, pygments_language: 'C' })).result).toBe('success');
    expect((await post({ ...body, name: `Dup ${++n}` })).result).toBe('success');
  });
});

describe('DELETE /realm/playgrounds/{id}', () => {
  it.each(ROLE_NAMES)('as the %s', async (name) => {
    const id = (await post({ name: `Del ${++n}`, pygments_language: 'Ruby', url_template: 'https://ruby.test/?c={code}' })).id as number;
    const before = await h.lastEventId();
    const res = await h.as(userOf(h.realm, name)).delete(`/realm/playgrounds/${id}`);
    if (admins.includes(name)) {
      expect(res.body).toEqual({ result: 'success', msg: '' });
      expect(await h.db.realmPlayground.findUnique({ where: { id } })).toBeNull();
      const [event] = await h.eventsSince(before);
      expect(event!.type).toBe('realm_playgrounds');
      expect((event!.event.realm_playgrounds as Array<{ id: number }>).map((p) => p.id)).not.toContain(id);
    } else {
      expect(res.body.code).toBe('UNAUTHORIZED_PRINCIPAL');
      expect(await h.db.realmPlayground.findUnique({ where: { id } })).not.toBeNull();
    }
  });

  it('knows unknown playgrounds and those of other realms', async () => {
    expect((await h.as(h.realm.admin).delete('/realm/playgrounds/999999')).body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid playground' });
    expect((await h.as(h.realm.admin).delete('/realm/playgrounds/99999999999')).body.msg).toBe('Invalid playground');
    const other = await h.db.realmPlayground.create({ data: { realmId: h.realm.realmId + 1000, name: 'x', pygmentsLanguage: 'x', urlTemplate: 'https://x.test/{code}' } });
    expect((await h.as(h.realm.admin).delete(`/realm/playgrounds/${other.id}`)).body.msg).toBe('Invalid playground');
  });
});
