/**
 * External images and link previews through the running service, against a real HTTP server
 * on loopback standing in for the outside web (the test allows 127.0.0.1/32 only, so other
 * loopback and private addresses stay refused): the image proxy's signature, type, size, time
 * and address rules; an image link's preview; a page's preview arriving by a rendering-only
 * update_message; an oEmbed video's and a YouTube link's shapes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startService, type ServiceProcess } from '@chat/testing';
import { proxiedImageUrl } from '../markdown/image-proxy';
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
let gateway: ServiceProcess;
let site: http.Server;
let base: string;
let port: number;
/** Bytes standing for an image: the proxy passes any body of an image type on unchanged. */
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(200, 7)]);
const served: string[] = [];

function page(head: string, body = ''): string {
  return `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
}

beforeAll(async () => {
  site = http.createServer((req, res) => {
    served.push(req.url ?? '');
    const send = (type: string, body: string | Buffer) => res.writeHead(200, { 'Content-Type': type }).end(body);
    switch (req.url) {
      case '/pic.png': return send('image/png', PNG);
      case '/big.png': return send('image/png', Buffer.alloc(8192, 1));
      case '/declared.png': return res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': '8192' }).end(Buffer.alloc(8192, 1));
      case '/html.png': return send('text/html; charset=utf-8', '<p>not an image</p>');
      case '/drawing.png': return send('image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      case '/slow.png': return void setTimeout(() => send('image/png', PNG), 4000);
      case '/hop.png': return res.writeHead(302, { Location: '/pic.png' }).end();
      case '/private-hop.png': return res.writeHead(302, { Location: `http://127.0.0.2:${port}/pic.png` }).end();
      case '/article':
        return send('text/html', page(`<title>Plain title</title><meta property="og:title" content="An &quot;article&quot;"><meta property="og:description" content="What it is about &amp; more"><meta property="og:image" content="/pic.png">`));
      case '/no-image': return send('text/html', page('<title>Nothing to show</title>'));
      case '/video':
        return send('text/html', page(`<title>A film</title><link rel="alternate" type="application/json+oembed" href="/oembed.json">`));
      case '/oembed.json':
        return send('application/json', JSON.stringify({ type: 'video', title: 'Big Buck Bunny', thumbnail_url: `${base}/pic.png`, html: '<iframe src="https://player.example/1"></iframe>' }));
      default: return res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  port = (site.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  h = await startHarness({ EXTERNAL_FETCH_ALLOWED_NETWORKS: '127.0.0.1/32', EXTERNAL_FETCH_TIMEOUT_MS: '1500', IMAGE_PROXY_MAX_BYTES: '4096', URL_PREVIEW_CACHE_SECONDS: '60' });
  const realm = await h.env.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
  await h.env.db.realm.update({ where: { id: realm.id }, data: { settings: { ...(realm.settings as Record<string, never>), inline_url_embed_preview: true as never } } });
  await h.createStream(h.realm.owner, { name: 'links' }, [h.realm.owner, h.realm.member]);
  // The gateway in front, as readers reach the proxy: with their login, like files.
  gateway = await startService('gateway', { ...h.env.env, MESSAGING_URL: h.service.url, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0' });
}, 120_000);
afterAll(async () => {
  await gateway?.stop();
  await h?.close();
  await new Promise((r) => site?.close(r));
});

const proxy = (url: string) => h.api.get(proxiedImageUrl(url)).set(h.as(h.realm.member));

async function send(content: string): Promise<number> {
  const res = await h.api.post('/api/v1/messages').set(h.as(h.realm.member)).type('form').send({ type: 'stream', to: 'links', topic: 'previews', content });
  if (res.body.result !== 'success') throw new Error(JSON.stringify(res.body));
  return res.body.id;
}
const rendered = async (id: number) => (await h.env.db.message.findUniqueOrThrow({ where: { id } })).renderedContent;

/** The job reads the page in the background; a loaded machine may take a while. */
async function eventually<T>(check: () => Promise<T | null | undefined | false>): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const v = await check();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}

it('passes on an image it signed, following an allowed redirect, and refuses everything else', async () => {
  const ok = await proxy(`${base}/pic.png`).buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
  expect(ok.status).toBe(200);
  expect(ok.headers['content-type']).toBe('image/png');
  expect(ok.headers['content-security-policy']).toContain('sandbox');
  expect(Buffer.compare(ok.body as Buffer, PNG)).toBe(0);
  expect((await proxy(`${base}/hop.png`)).status).toBe(200);

  // A signature not ours, or one for another address.
  const signed = proxiedImageUrl(`${base}/pic.png`);
  const forged = signed.replace(/\/external_content\/(.)/, (_m, c: string) => `/external_content/${c === 'a' ? 'b' : 'a'}`);
  const bad = await h.api.get(forged).set(h.as(h.realm.member));
  expect(bad.status).toBe(403);
  expect(bad.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Not a valid URL.' });
  const other = signed.replace(/[0-9a-f]{2}$/, '30');
  expect((await h.api.get(other).set(h.as(h.realm.member))).status).toBe(403);

  const refusals: Array<[string, number, string]> = [
    [`${base}/html.png`, 415, 'Could not fetch the image: not an image'],
    [`${base}/drawing.png`, 415, 'Could not fetch the image: not an image'],
    [`${base}/big.png`, 413, 'Could not fetch the image: the image is too large'],
    [`${base}/declared.png`, 413, 'Could not fetch the image: the image is too large'],
    [`${base}/slow.png`, 504, 'Could not fetch the image: the server took too long'],
    [`${base}/missing.png`, 502, 'Could not fetch the image: the server did not answer with the image'],
    // Loopback beyond the allowed /32, IPv6 loopback, link-local (cloud metadata), private.
    [`http://127.0.0.2:${port}/pic.png`, 403, 'Could not fetch the image: the address is not allowed'],
    [`http://[::1]:${port}/pic.png`, 403, 'Could not fetch the image: the address is not allowed'],
    ['http://169.254.169.254/latest/meta-data/x.png', 403, 'Could not fetch the image: the address is not allowed'],
    ['http://10.1.2.3/x.png', 403, 'Could not fetch the image: the address is not allowed'],
    [`${base}/private-hop.png`, 403, 'Could not fetch the image: the address is not allowed'],
    ['ftp://example.com/x.png', 403, 'Could not fetch the image: not an http or https address'],
  ];
  for (const [url, status, msg] of refusals) {
    const res = await proxy(url);
    expect({ url, status: res.status, body: res.body }).toEqual({ url, status, body: { result: 'error', code: 'BAD_REQUEST', msg } });
  }

  // Like this server's files, the proxy serves only callers the gateway vouches for.
  expect((await h.api.get(signed)).status).toBe(401);
  const { email, apiKey } = h.realm.member;
  const through = await fetch(`${gateway.url}${signed}`, { headers: { authorization: `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}` } });
  expect(through.status).toBe(200);
  expect(through.headers.get('content-type')).toBe('image/png');
  expect(Buffer.compare(Buffer.from(await through.arrayBuffer()), PNG)).toBe(0);
  const anonymous = await fetch(`${gateway.url}${signed}`);
  expect(anonymous.status).toBe(401);
  expect(await anonymous.json()).toMatchObject({ result: 'error' });
});

it("shows an image link's preview through the proxy", async () => {
  const id = await send(`look: ${base}/pic.png`);
  const html = await rendered(id);
  const src = proxiedImageUrl(`${base}/pic.png`);
  expect(html).toBe(
    `<p>look: <a href="${base}/pic.png">${base}/pic.png</a></p>\n` +
      `<div class="message_inline_image"><a href="${base}/pic.png"><img src="${src}"></a></div>`,
  );
  expect((await h.api.get(src).set(h.as(h.realm.owner))).status).toBe(200);
});

it("adds a page's preview by a rendering-only update_message, and none for a page without an image", async () => {
  const id = await send(`read ${base}/article and ${base}/no-image`);
  const first = await rendered(id);
  expect(first).not.toContain('message_embed');
  const update = await eventually(async () => (await outboxEvents(h.env, 'update_message')).find((e) => e.event?.message_id === id));
  const embed =
    `<div class="message_embed"><a class="message_embed_image" href="${base}/article" style="background-image: url(&quot;${proxiedImageUrl(`${base}/pic.png`)}&quot;)"></a>` +
    `<div class="data-container"><div class="message_embed_title"><a href="${base}/article" title="An &quot;article&quot;">An "article"</a></div>` +
    `<div class="message_embed_description">What it is about &amp; more</div></div></div>`;
  expect(update.event).toMatchObject({ type: 'update_message', rendering_only: true, message_id: id, message_ids: [id], user_id: null });
  expect(update.event.rendered_content).toBe(`${first}\n${embed}`);
  expect(await rendered(id)).toBe(`${first}\n${embed}`);
  expect(update.users).toEqual(expect.arrayContaining([h.realm.member.id, h.realm.owner.id]));

  // A second message linking the same page is served from the cache.
  const before = served.filter((u) => u === '/article').length;
  const again = await send(`${base}/article`);
  await eventually(async () => (await rendered(again)).includes('message_embed'));
  expect(served.filter((u) => u === '/article').length).toBe(before);

  // An edit renders without the preview; the job puts it back.
  const edit = await h.api.patch(`/api/v1/messages/${again}`).set(h.as(h.realm.member)).type('form').send({ content: `again: ${base}/article` });
  expect(edit.body.result).toBe('success');
  const edited = await eventually(async () => {
    const now = await rendered(again);
    return now.startsWith('<p>again: ') && now.includes('message_embed') && now;
  });
  expect(edited).toContain(`<div class="message_embed_description">What it is about &amp; more</div>`);
});

it("shows a page's oEmbed video in the family's embed-video shape", async () => {
  const id = await send(`${base}/video`);
  const html = await eventually(async () => {
    const now = await rendered(id);
    return now.includes('embed-video') && now;
  });
  expect(html).toBe(
    `<p><a href="${base}/video">${base}/video</a></p>\n` +
      `<div class="embed-video message_inline_image"><a data-id="&lt;iframe src=&quot;https://player.example/1&quot;&gt;&lt;/iframe&gt;" href="${base}/video" title="Big Buck Bunny">` +
      `<img src="${proxiedImageUrl(`${base}/pic.png`)}"></a></div>`,
  );
});

it("gives a YouTube link the family's video preview at once", async () => {
  const url = 'https://www.youtube.com/watch?v=aqz-KE-bpKQ';
  const id = await send(url);
  expect(await rendered(id)).toBe(
    `<p><a href="${url}">${url}</a></p>\n` +
      `<div class="youtube-video message_inline_image"><a data-id="aqz-KE-bpKQ" href="${url}"><img src="${proxiedImageUrl('https://i.ytimg.com/vi/aqz-KE-bpKQ/mqdefault.jpg')}"></a></div>`,
  );
});
