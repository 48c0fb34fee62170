/**
 * Code and math through the running service (real Postgres and HTTP): what a send stores and a
 * fetch returns, the realm's default code block language and the sender's translate_emoticons
 * read at send time; then `manage rerender-messages` run as its own process over messages
 * stored by an older renderer.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { RENDERED_CONTENT_VERSION } from '../markdown';
import { startHarness, type Harness } from './support';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ CONSUMER_NAME: 'render-shapes-test' });
  const { owner, member } = h.realm;
  await h.createStream(owner, { name: 'code' }, [owner, member]);
});
afterAll(async () => {
  await h?.close();
});

async function send(content: string): Promise<number> {
  const res = await h.api.post('/api/v1/messages').set(h.as(h.realm.member)).type('form').send({ type: 'stream', to: 'code', topic: 'shapes', content });
  expect(res.body).toMatchObject({ result: 'success' });
  return res.body.id as number;
}

async function fetched(id: number): Promise<{ content: string; raw: string }> {
  const html = await h.api.get(`/api/v1/messages/${id}`).set(h.as(h.realm.owner));
  const raw = await h.api.get(`/api/v1/messages/${id}`).query({ apply_markdown: 'false' }).set(h.as(h.realm.owner));
  return { content: html.body.message.content, raw: raw.body.message.content };
}

it('stores code blocks with Pygments classes and math with its MathML and TeX, and returns both forms', async () => {
  const source = '```python\ndef f(x):\n    return x + 1\n```\n\n$$x^2$$ and ~~gone~~';
  const id = await send(source);
  const { content, raw } = await fetched(id);
  expect(raw).toBe(source);
  expect(content).toContain('<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="k">def</span> <span class="nf">f</span>');
  expect(content).not.toMatch(/hljs|katex-base|katex-strut/);
  expect(content).toContain('<span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics>');
  expect(content).toContain('<annotation encoding="application/x-tex">x^2</annotation>');
  expect(content).toContain('<span class="base"><span class="strut"');
  expect(content).toContain('<del>gone</del>');
  const [row] = await h.env.db.$queryRawUnsafe<Array<{ v: number }>>('SELECT rendered_content_version AS v FROM messages WHERE id = $1', id);
  expect(row!.v).toBe(RENDERED_CONTENT_VERSION);
});

it("applies the realm's default code block language and the sender's emoticon setting", async () => {
  const plain = await fetched(await send('```\nx = 1\n```\n:)'));
  expect(plain.content).toBe('<div class="codehilite"><pre><span></span><code>x = 1\n</code></pre></div>\n<p>:)</p>');

  await h.env.db.$executeRawUnsafe(`UPDATE realms SET settings = settings || '{"default_code_block_language": "javascript"}' WHERE id = $1`, h.realm.realmId);
  await h.env.db.$executeRawUnsafe(`UPDATE users SET settings = settings || '{"translate_emoticons": true}' WHERE id = $1`, h.realm.member.id);
  const set = await fetched(await send('```\nx = 1\n```\n:)'));
  expect(set.content).toMatch(/^<div class="codehilite" data-code-language="JavaScript"><pre><span><\/span><code>x <span class="o">=<\/span> <span class="mi">1<\/span>\n<\/code><\/pre><\/div>\n<p><span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:<\/span><\/p>$/);
});

function manage(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const root = path.resolve(__dirname, '../../../..');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'services/messaging/src/cli/main.ts'), ...args], {
      cwd: root,
      env: { ...process.env, ...h.env.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? 1, out, err }));
  });
}

it('rerender-messages renders messages of an older renderer again, in batches, without events, and a second run finds nothing', async () => {
  const ids = [await send('```js\nlet a = 1;\n```'), await send('$$a^2$$'), await send('plain *text*')];
  const current = await send('already current');
  const before = (await fetched(ids[0]!)).content;
  // As an older renderer left them.
  await h.env.db.$executeRawUnsafe(
    `UPDATE messages SET rendered_content = '<div class="codehilite"><pre><span class="hljs-keyword">old</span></pre></div>', rendered_content_version = 0 WHERE id = ANY($1::int[])`,
    ids,
  );
  await h.env.db.$executeRawUnsafe(`UPDATE messages SET rendered_content = '<p>left alone</p>' WHERE id = $1`, current);
  const outboxBefore = await h.env.db.outboxEvent.count();

  expect((await manage(['rerender-messages', '--batch-size', 'x'])).code).toBe(2);
  const run = await manage(['rerender-messages', '--batch-size', '2']);
  expect(run).toMatchObject({ code: 0 });
  expect(run.out).toContain(`Rendered ${ids.length} message(s) again.`);
  expect(run.err.match(/^rendered \d+ message\(s\), up to id \d+$/gm)).toHaveLength(2);

  expect((await fetched(ids[0]!)).content).toBe(before);
  expect((await fetched(ids[1]!)).content).toContain('<annotation encoding="application/x-tex">a^2</annotation>');
  expect((await fetched(ids[2]!)).content).toBe('<p>plain <em>text</em></p>');
  expect((await fetched(current)).content).toBe('<p>left alone</p>');
  const versions = await h.env.db.$queryRawUnsafe<Array<{ v: number }>>('SELECT DISTINCT rendered_content_version AS v FROM messages');
  expect(versions).toEqual([{ v: RENDERED_CONTENT_VERSION }]);
  // Like the family's re-rendering of old messages, no event tells clients.
  expect(await h.env.db.outboxEvent.count()).toBe(outboxBefore);

  const again = await manage(['rerender-messages']);
  expect(again).toMatchObject({ code: 0 });
  expect(again.out).toContain('Rendered 0 message(s) again.');
}, 120_000);
