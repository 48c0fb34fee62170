/**
 * Two people talking through the web app, each in a browser of their own (headless Chromium,
 * separate cookies), through the real gateway and every service as its own process: signing
 * in, a channel and a direct conversation seen live on both sides with reactions, edits,
 * typing notices and read state, a file upload with its preview, search, and a restart of
 * the gateway and of the events service in the middle of it all that loses and repeats
 * nothing.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { channelHash, clientFor, createChannel, dmHash, newPerson, screenshotsAfterEach, serverMessages, setPasswords, signIn, startWebSite, type WebSite } from './lib/web';
import { channelLink, composeBox, composeForm, expectChannelUnread, expectOneMessage, go, messages, nav, openCompose, searchFor, send, tinyPng, until } from './lib/web-app';

let site: WebSite;
const PASSWORD = 'correct horse battery staple 31';
const CHANNEL = 'web garden';
const TOPIC = 'tomatoes';
let channelId: number;
let hamlet: { context: BrowserContext; page: Page };
let othello: { context: BrowserContext; page: Page };

beforeAll(async () => {
  site = await startWebSite();
  const { member, member2, admin } = site.realm;
  await setPasswords(site, [member, member2].map((u) => ({ email: u.email, password: PASSWORD })));
  channelId = await createChannel(site, admin, CHANNEL, [member, member2, admin], 'Where the web app is tried');
  await clientFor(site, admin).sendMessage({ type: 'stream', to: channelId, topic: TOPIC, content: 'The first tomatoes are ripe.' });
}, 300_000);

afterAll(async () => {
  await site?.close();
});

screenshotsAfterEach(() => site);

it('signs in through the login page and shows the channels and their messages', async () => {
  const context = await newPerson(site);
  const registers: string[] = [];
  context.on('request', (r) => {
    if (new URL(r.url()).pathname === '/json/register') registers.push(r.method());
  });
  const page = await signIn(context, { email: site.realm.member.email, password: PASSWORD });
  hamlet = { context, page };
  expect(new URL(page.url()).pathname).toBe('/');
  await channelLink(page, CHANNEL).click();
  await expectOneMessage(page, 'The first tomatoes are ripe.');
  // The register the shell sends while the app's files load is the app's first: one per load.
  expect(registers).toEqual(['POST']);
});

it('shows each person the other\'s messages live, in a channel and in a direct conversation', async () => {
  const context = await newPerson(site);
  const page = await signIn(context, { email: site.realm.member2.email, password: PASSWORD });
  othello = { context, page };
  const here = channelHash(channelId, CHANNEL, TOPIC);
  await go(hamlet.page, here);
  await go(othello.page, here);
  await expectOneMessage(othello.page, 'The first tomatoes are ripe.');

  await send(hamlet.page, 'Shall we pick them on Saturday?');
  await expectOneMessage(othello.page, 'Shall we pick them on Saturday?');
  await expectOneMessage(hamlet.page, 'Shall we pick them on Saturday?');
  await send(othello.page, 'Saturday works for me.');
  await expectOneMessage(hamlet.page, 'Saturday works for me.');

  const dm = dmHash([site.realm.member.id, site.realm.member2.id]);
  await go(hamlet.page, dm);
  await go(othello.page, dm);
  await send(othello.page, 'Bring the big basket, please.');
  await expectOneMessage(hamlet.page, 'Bring the big basket, please.');
  await send(hamlet.page, 'Will do.');
  await expectOneMessage(othello.page, 'Will do.');
  // The conversation is listed in both sidebars.
  await nav(othello.page).getByRole('link', { name: /King Hamlet/ }).waitFor();
  await nav(hamlet.page).getByRole('link', { name: /Othello/ }).waitFor();
});

it('shows reactions and edits to the other person as they happen', async () => {
  const here = channelHash(channelId, CHANNEL, TOPIC);
  await go(hamlet.page, here);
  await go(othello.page, here);
  const theirs = await expectOneMessage(hamlet.page, 'Saturday works for me.');
  await theirs.hover();
  await theirs.getByRole('button', { name: 'React with 👍' }).click();
  const reaction = (await expectOneMessage(othello.page, 'Saturday works for me.')).getByRole('group', { name: 'Reactions' }).getByRole('button', { name: /King Hamlet reacted with/ });
  await reaction.waitFor();
  expect(await reaction.textContent()).toContain('1');

  // Any other emoji through the picker, found by its category as a person browses.
  await theirs.getByRole('group', { name: 'Reactions' }).getByRole('button', { name: 'Add a reaction' }).click();
  const picker = hamlet.page.getByTestId('emoji-picker');
  await picker.getByRole('toolbar', { name: 'Emoji categories' }).getByRole('button', { name: 'Animals & Nature' }).click();
  await picker.getByRole('group', { name: 'Animals & Nature' }).getByRole('option', { name: ':octopus:' }).click();
  await (await expectOneMessage(othello.page, 'Saturday works for me.')).getByRole('button', { name: /King Hamlet reacted with :octopus:/ }).waitFor();

  const mine = await expectOneMessage(othello.page, 'Saturday works for me.');
  await mine.hover();
  await mine.getByRole('button', { name: 'Edit message' }).click();
  const editor = othello.page.getByRole('form', { name: 'Edit message' });
  await editor.getByRole('textbox', { name: 'Edit message' }).fill('Saturday morning works for me.');
  await editor.getByRole('button', { name: 'Save' }).click();
  const edited = await expectOneMessage(hamlet.page, 'Saturday morning works for me.');
  await edited.getByText('EDITED').waitFor();
  // The reaction stays with the edited message.
  await edited.getByRole('button', { name: /reacted with :octopus:/ }).waitFor();
});

it('tells the other person who is typing, and stops telling once they stop', async () => {
  const dm = dmHash([site.realm.member.id, site.realm.member2.id]);
  await go(hamlet.page, dm);
  await go(othello.page, dm);
  await openCompose(hamlet.page);
  await composeBox(hamlet.page).pressSequentially('I am writing a long', { delay: 60 });
  const notice = othello.page.getByRole('status').filter({ hasText: /King Hamlet is typing/ });
  await notice.waitFor({ timeout: 15_000 });
  await composeBox(hamlet.page).fill('');
  await notice.waitFor({ state: 'detached', timeout: 25_000 });
});

it('counts what a person has not read and clears the count once they have read it', async () => {
  await go(hamlet.page, '#inbox');
  for (const content of ['Two more plants have fruit.', 'And the basil is flowering.']) {
    await clientFor(site, site.realm.admin).sendMessage({ type: 'stream', to: channelId, topic: TOPIC, content });
  }
  await expectChannelUnread(hamlet.page, CHANNEL, 2);
  await channelLink(hamlet.page, CHANNEL).click();
  await expectOneMessage(hamlet.page, 'And the basil is flowering.');
  await expectChannelUnread(hamlet.page, CHANNEL, 0);
  // The server has them as read too: a fresh page load shows no count.
  await hamlet.page.reload();
  await channelLink(hamlet.page, CHANNEL).waitFor();
  await expectChannelUnread(hamlet.page, CHANNEL, 0, 2_000);
});

it('delivers an uploaded file to both people, and search finds its message with the match highlighted', async () => {
  const here = channelHash(channelId, CHANNEL, 'photos');
  await go(hamlet.page, here);
  await go(othello.page, here);
  await openCompose(hamlet.page);
  await composeForm(hamlet.page).locator('input[type="file"]').setInputFiles({ name: 'ripe-tomato.png', mimeType: 'image/png', buffer: tinyPng() });
  await until(() => composeBox(hamlet.page).inputValue(), (v) => /\[ripe-tomato\.png\]\(\/user_uploads\//.test(v), 30_000, 'the upload\'s link in the compose box');
  await composeBox(hamlet.page).press('End');
  await composeBox(hamlet.page).pressSequentially(' A ripe tomato from the south bed.');
  await composeForm(hamlet.page).getByRole('button', { name: 'Send', exact: true }).click();
  for (const page of [hamlet.page, othello.page]) {
    const row = await expectOneMessage(page, 'A ripe tomato from the south bed.');
    const href = await row.getByRole('link', { name: 'ripe-tomato.png' }).first().getAttribute('href');
    // The file opens with the browser's session alone.
    const file = await page.request.get(href!);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toMatch(/^image\/png/);
    expect(Buffer.compare(await file.body(), tinyPng())).toBe(0);
  }

  await searchFor(othello.page, 'tomato');
  await until(() => othello.page.evaluate(() => location.hash), (h) => h.startsWith('#narrow/search/'), 10_000, 'the search view');
  await othello.page.getByRole('heading', { name: /tomato/ }).first().waitFor();
  // The server's highlighting of the match is shown.
  const found = messages(othello.page, 'A ripe tomato from the south bed.').first();
  await found.locator('.highlight').filter({ hasText: /^tomato$/i }).first().waitFor();
});

it('shows the uploaded image\'s preview in the message to both people, once its thumbnail is made', async () => {
  for (const page of [hamlet.page, othello.page]) {
    await go(page, channelHash(channelId, CHANNEL, 'photos'));
    const row = await expectOneMessage(page, 'A ripe tomato from the south bed.');
    // The server's preview block: a loading placeholder until the thumbnail exists, then it.
    const image = row.locator('.message_inline_image img:not(.image-loading-placeholder)').first();
    await image.waitFor({ timeout: 30_000 });
    await until(() => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)), (w) => w > 0, 15_000, 'the preview loaded');
  }
});

it('loses and repeats nothing across a restart of the gateway and of the events service', async () => {
  const here = channelHash(channelId, CHANNEL, 'restarts');
  await go(hamlet.page, here);
  await go(othello.page, here);
  await send(hamlet.page, 'before the restart');
  await expectOneMessage(othello.page, 'before the restart');

  // Every gateway down: the one of a test cluster, or both behind nginx under `npm run cluster`
  // (with one left the browser would not notice). The app says it is reconnecting, and keeps
  // what is sent.
  const gateways = site.cluster.processes.filter((p) => p.service === 'gateway');
  await Promise.all(gateways.map((g) => g.stop()));
  await hamlet.page.getByRole('status').filter({ hasText: /reconnecting/i }).waitFor({ timeout: 30_000 });
  await send(hamlet.page, 'sent while the gateway was down');
  for (const gateway of gateways) await site.cluster.restart(gateway);
  await expectOneMessage(othello.page, 'sent while the gateway was down', 60_000);
  await expectOneMessage(hamlet.page, 'sent while the gateway was down', 60_000);
  await send(othello.page, 'after the gateway came back');
  await expectOneMessage(hamlet.page, 'after the gateway came back', 30_000);

  const events = site.cluster.processes.find((p) => p.service === 'events')!;
  const restarted = site.cluster.restart(events);
  await send(othello.page, 'sent while the events service restarted');
  await restarted;
  await send(hamlet.page, 'after the events service came back');
  const all = ['before the restart', 'sent while the gateway was down', 'after the gateway came back', 'sent while the events service restarted', 'after the events service came back'];
  for (const page of [hamlet.page, othello.page]) {
    for (const text of all) await expectOneMessage(page, text, 60_000);
    await until(() => page.getByRole('status').filter({ hasText: /reconnecting/i }).count(), (n) => n === 0, 30_000, 'the reconnecting notice');
  }
  const stored = await serverMessages(site, site.realm.admin, [{ operator: 'channel', operand: channelId }, { operator: 'topic', operand: 'restarts' }]);
  expect(stored.map((m) => m.content)).toEqual(all);
});
