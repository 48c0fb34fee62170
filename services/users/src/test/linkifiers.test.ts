import { ROLE_NAMES, startHarness, userOf, type Harness } from './support';
import { parseUriTemplate } from '../lib/uri-template';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const admins = ['owner', 'administrator'];
let n = 0;

async function add(body: Record<string, string>) {
  const res = await h.as(h.realm.admin).post('/realm/filters').send(body);
  expect(res.body.result).toBe('success');
  return res.body.id as number;
}

describe('RFC 6570 templates', () => {
  it.each([
    ['https://tracker.example/acme/widgets/issues/{id}', ['id']],
    ['https://x.test/{+path}/{?q,lang}', ['path', 'q', 'lang']],
    ['https://x.test/{var:3}{/list*}{#frag}', ['var', 'list', 'frag']],
    ['https://x.test/%20/{a.b}', ['a.b']],
  ])('accepts %s', (template, vars) => {
    expect(parseUriTemplate(template)?.variables).toEqual(vars);
  });
  it.each(['https://x.test/{id', 'https://x.test/id}', 'https://x.test/{}', 'https://x.test/{=id}', 'https://x.test/{i d}', 'https://x test/{id}', 'https://x.test/{id:0}', 'https://x.test/%zz'])(
    'refuses %s',
    (template) => {
      expect(parseUriTemplate(template)).toBeNull();
    },
  );
});

describe('linkifiers', () => {
  it.each(ROLE_NAMES)('POST /realm/filters as the %s', async (name) => {
    const before = await h.lastEventId();
    const res = await h.as(userOf(h.realm, name)).post('/realm/filters').send({ pattern: `#${name}(?P<id>[0-9]+)`, url_template: 'https://tracker.test/{id}' });
    if (admins.includes(name)) {
      expect(res.body).toMatchObject({ result: 'success', id: expect.any(Number) });
      const [event] = await h.eventsSince(before);
      expect(event!.type).toBe('realm_linkifiers');
      expect(event!.event.realm_linkifiers).toEqual(expect.arrayContaining([
        { id: res.body.id, pattern: `#${name}(?P<id>[0-9]+)`, url_template: 'https://tracker.test/{id}', reverse_template: null, alternative_url_templates: [], example_input: null },
      ]));
    } else {
      expect(res.body).toEqual({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
    }
  });

  it.each(ROLE_NAMES)('GET /realm/linkifiers as the %s', async (name) => {
    const res = await h.as(userOf(h.realm, name)).get('/realm/linkifiers');
    expect(res.body.linkifiers.length).toBeGreaterThanOrEqual(2);
  });

  it('checks patterns, templates and their groups', async () => {
    const post = (body: Record<string, string>) => h.as(h.realm.admin).post('/realm/filters').send(body).then((r) => r.body.msg);
    expect(await post({ pattern: '(?P<id>[0-9+', url_template: 'https://x.test/{id}' })).toMatch(/^Bad regular expression: /);
    expect(await post({ pattern: 'T(?P<id>[0-9]+)', url_template: 'https://x.test/{id' })).toBe('Invalid URL template.');
    expect(await post({ pattern: 'T(?P<id>[0-9]+)', url_template: 'https://x.test/{ticket}' })).toBe("Group 'ticket' in URL template is not present in linkifier pattern.");
    expect(await post({ pattern: 'T(?P<id>[0-9]+)-(?P<rev>[a-f]+)', url_template: 'https://x.test/{id}' })).toBe("Group 'rev' in linkifier pattern is not present in URL template.");
    expect(await post({ pattern: 'T(?P<id>[0-9]+)', url_template: 'https://x.test/{id}', alternative_url_templates: JSON.stringify(['https://y.test/{nope}']) })).toBe(
      "Group 'nope' in URL template is not present in linkifier pattern.",
    );
    await add({ pattern: 'DUP(?P<id>[0-9]+)', url_template: 'https://x.test/{id}' });
    expect(await post({ pattern: 'DUP(?P<id>[0-9]+)', url_template: 'https://z.test/{id}' })).toBe('Linkifier with this Realm and Pattern already exists.');
  });

  it('checks that reverse_template round-trips example_input', async () => {
    const base = { pattern: '(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)', url_template: 'https://github.com/{org}/{repo}/issues/{id}' };
    const id = await add({ ...base, reverse_template: '{org}/{repo}#{id}', example_input: 'acme/widgets#123', alternative_url_templates: JSON.stringify(['https://github.com/{org}/{repo}/pull/{id}']) });
    const row = await h.db.linkifier.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ reverseTemplate: '{org}/{repo}#{id}', exampleInput: 'acme/widgets#123', alternativeUrlTemplates: ['https://github.com/{org}/{repo}/pull/{id}'] });
    const post = (body: Record<string, string>) => h.as(h.realm.admin).post('/realm/filters').send({ ...base, pattern: `${base.pattern}${++n}`, ...body }).then((r) => r.body.msg);
    expect(await post({ reverse_template: '{org}#{id}', example_input: `acme/widgets#123${n + 1}` })).toMatch(/^Reverse template does not round-trip/);
    expect(await post({ reverse_template: '{org}/{repo}#{id}' })).toBe('example_input is required to check reverse_template');
    expect(await post({ reverse_template: '{org}/{repo}#{id}', example_input: 'not matching' })).toBe('Example input does not match the linkifier pattern.');
    // Literal braces are written doubled.
    await add({ pattern: 'B(?P<id>[0-9]+)', url_template: 'https://b.test/{id}', reverse_template: '{{B}}{id}'.replace('{{B}}', 'B'), example_input: 'B7' });
    const braces = await h.as(h.realm.admin).post('/realm/filters').send({ pattern: '\\{(?P<id>[0-9]+)\\}', url_template: 'https://c.test/{id}', reverse_template: '{{{id}}}', example_input: '{42}' });
    expect(braces.body.result).toBe('success');
  });

  it.each(ROLE_NAMES)('PATCH and DELETE /realm/filters/{id} as the %s', async (name) => {
    const id = await add({ pattern: `E${++n}(?P<id>[0-9]+)`, url_template: 'https://e.test/{id}' });
    const caller = h.as(userOf(h.realm, name));
    const patch = await caller.patch(`/realm/filters/${id}`).send({ pattern: `F${n}(?P<id>[0-9]+)`, url_template: 'https://f.test/{id}', reverse_template: '' });
    const del = await caller.delete(`/realm/filters/${id}`);
    if (admins.includes(name)) {
      expect([patch.body.result, del.body.result]).toEqual(['success', 'success']);
      expect(await h.db.linkifier.findUnique({ where: { id } })).toBeNull();
    } else {
      for (const r of [patch, del]) expect(r.body.code).toBe('UNAUTHORIZED_PRINCIPAL');
      expect((await h.db.linkifier.findUniqueOrThrow({ where: { id } })).pattern).toBe(`E${n}(?P<id>[0-9]+)`);
    }
  });

  it('updates a linkifier, and knows unknown ones', async () => {
    const id = await add({ pattern: `G${++n}(?P<id>[0-9]+)`, url_template: 'https://g.test/{id}' });
    const res = await h.as(h.realm.admin).patch(`/realm/filters/${id}`).send({ pattern: `H${n}(?P<id>[0-9]+)`, url_template: 'https://h.test/{id}' });
    expect(res.body.result).toBe('success');
    expect(await h.db.linkifier.findUniqueOrThrow({ where: { id } })).toMatchObject({ pattern: `H${n}(?P<id>[0-9]+)`, urlTemplate: 'https://h.test/{id}' });
    expect((await h.as(h.realm.admin).patch('/realm/filters/999999').send({ pattern: 'x', url_template: 'https://x.test/' })).body.msg).toBe('Linkifier not found.');
    expect((await h.as(h.realm.admin).delete('/realm/filters/999999')).body.msg).toBe('Linkifier not found.');
  });

  it.each(ROLE_NAMES)('PATCH /realm/linkifiers (reorder) as the %s', async (name) => {
    const ids = (await h.db.linkifier.findMany({ where: { realmId: h.realm.realmId }, orderBy: { order: 'asc' } })).map((l) => l.id);
    const order = [...ids].reverse();
    const res = await h.as(userOf(h.realm, name)).patch('/realm/linkifiers').send({ ordered_linkifier_ids: JSON.stringify(order) });
    if (admins.includes(name)) {
      expect(res.body.result).toBe('success');
      expect((await h.as(h.realm.member).get('/realm/linkifiers')).body.linkifiers.map((l: { id: number }) => l.id)).toEqual(order);
    } else {
      expect(res.body.code).toBe('UNAUTHORIZED_PRINCIPAL');
    }
  });

  it('refuses orders that are not a permutation', async () => {
    const ids = (await h.db.linkifier.findMany({ where: { realmId: h.realm.realmId } })).map((l) => l.id);
    const admin = h.as(h.realm.admin);
    expect((await admin.patch('/realm/linkifiers').send({ ordered_linkifier_ids: JSON.stringify([ids[0], ids[0]]) })).body.msg).toBe('The ordered list must not contain duplicated linkifiers');
    expect((await admin.patch('/realm/linkifiers').send({ ordered_linkifier_ids: JSON.stringify(ids.slice(1)) })).body.msg).toBe('The ordered list must enumerate all existing linkifiers exactly once');
  });
});
