import request from 'supertest';
import { identityHeaders, type SeededUser } from '@chat/testing';
import { createChannel, sendChannelMessage, sendDirectMessage, startHarness, subscribe, type Harness } from './support';

// Every access rule for every role. The uploader is `member`; links are found by the direct
// check of recent messages here (the consumer is off), which must give the same answers.
let h: Harness;
let roles: Record<string, SeededUser>;

beforeAll(async () => {
  h = await startHarness({ RUN_WORKERS: 'false' });
  const { owner, admin, moderator, member, member2, guest, bot } = h.realm;
  roles = { owner, admin, moderator, member, member2, guest, bot };
});
afterAll(() => h.close());

const api = () => request(h.uploads.url);

async function upload(user: SeededUser, name = 'file.txt'): Promise<string> {
  const res = await api().post('/api/v1/user_uploads').set(h.as(user)).attach('file', Buffer.from(`content of ${name}`), name).expect(200);
  return res.body.url;
}

/** Status of GET url for every role, plus anonymous. */
async function statuses(url: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, user] of Object.entries(roles)) out[name] = (await api().get(url).set(h.as(user))).status;
  out.anonymous = (await api().get(url).set(h.as())).status;
  return out;
}

const all = (status: number, except: Record<string, number> = {}) => ({
  owner: status, admin: status, moderator: status, member: status, member2: status, guest: status, bot: status, anonymous: status, ...except,
});

it('unshared: only the uploader', async () => {
  const url = await upload(roles.member);
  expect(await statuses(url)).toEqual(all(403, { member: 200, anonymous: 401 }));
});

it('public channel: every non-guest member of the realm, guests only when subscribed', async () => {
  const channel = await createChannel(h.env.db, h.realm.realmId, 'general', { subscribers: [roles.member] });
  const url = await upload(roles.member);
  await sendChannelMessage(h.env.db, h.realm.realmId, roles.member, channel.id, `see [file.txt](${url})`);
  expect(await statuses(url)).toEqual(all(200, { guest: 403, anonymous: 401 }));
  await subscribe(h.env.db, channel.id, roles.guest);
  expect((await api().get(url).set(h.as(roles.guest))).status).toBe(200);
});

it('private channel with shared history: its subscribers, including later ones, and nobody else', async () => {
  const channel = await createChannel(h.env.db, h.realm.realmId, 'secret', { inviteOnly: true, subscribers: [roles.member, roles.member2] });
  const url = await upload(roles.member);
  await sendChannelMessage(h.env.db, h.realm.realmId, roles.member, channel.id, `[plan](${url})`);
  // Administrators get no file access to private channels they are not in.
  expect(await statuses(url)).toEqual(all(403, { member: 200, member2: 200, anonymous: 401 }));
  await subscribe(h.env.db, channel.id, roles.moderator);
  await subscribe(h.env.db, channel.id, roles.guest);
  expect(await statuses(url)).toEqual(all(403, { member: 200, member2: 200, moderator: 200, guest: 200, anonymous: 401 }));
  // Unsubscribing from a channel with shared history takes the access away again...
  await h.env.db.subscription.updateMany({ where: { streamId: channel.id, userId: roles.moderator.id }, data: { active: false } });
  expect((await api().get(url).set(h.as(roles.moderator))).status).toBe(403);
  // ...but not from someone who received the message itself.
  await h.env.db.subscription.updateMany({ where: { streamId: channel.id, userId: roles.member2.id }, data: { active: false } });
  expect((await api().get(url).set(h.as(roles.member2))).status).toBe(200);
});

it('private channel with protected history: only those who received the message', async () => {
  const channel = await createChannel(h.env.db, h.realm.realmId, 'protected', {
    inviteOnly: true, historyPublic: false, subscribers: [roles.member, roles.guest],
  });
  const url = await upload(roles.member);
  await sendChannelMessage(h.env.db, h.realm.realmId, roles.member, channel.id, `[x](${url})`);
  await subscribe(h.env.db, channel.id, roles.admin); // joined after the message
  expect(await statuses(url)).toEqual(all(403, { member: 200, guest: 200, anonymous: 401 }));
});

it('direct message: its participants, whatever their role', async () => {
  const url = await upload(roles.member);
  await sendDirectMessage(h.env.db, h.realm.realmId, roles.member, [roles.guest, roles.bot], `here: ${url}`);
  expect(await statuses(url)).toEqual(all(403, { member: 200, guest: 200, bot: 200, anonymous: 401 }));
});

it('web-public channel: anyone, logged in or not, while the realm allows spectators', async () => {
  const channel = await createChannel(h.env.db, h.realm.realmId, 'announce', { webPublic: true, subscribers: [roles.member] });
  const url = await upload(roles.member);
  await sendChannelMessage(h.env.db, h.realm.realmId, roles.member, channel.id, `[a](${url})`);
  // Spectators are off by default: anonymous visitors are asked to log in.
  expect(await statuses(url)).toEqual(all(200, { guest: 403, anonymous: 401 }));
  await h.env.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: { enable_spectator_access: true } } });
  try {
    expect(await statuses(url)).toEqual(all(200, { guest: 403 }));
    // A file in a merely public channel stays closed to spectators.
    const general = await h.env.db.stream.findFirstOrThrow({ where: { realmId: h.realm.realmId, nameKey: 'general' } });
    const other = await upload(roles.member);
    await sendChannelMessage(h.env.db, h.realm.realmId, roles.member, general.id, `[b](${other})`);
    expect((await api().get(other).set(h.as())).status).toBe(401);
  } finally {
    await h.env.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: {} } });
  }
});

it('a link posted by someone who cannot read the file shares nothing', async () => {
  const url = await upload(roles.member);
  const general = await h.env.db.stream.findFirstOrThrow({ where: { realmId: h.realm.realmId, nameKey: 'general' } });
  await sendChannelMessage(h.env.db, h.realm.realmId, roles.member2, general.id, `guessed ${url}`);
  expect(await statuses(url)).toEqual(all(403, { member: 200, anonymous: 401 }));
});

it('someone who can read it may share it further', async () => {
  const url = await upload(roles.member);
  await sendDirectMessage(h.env.db, h.realm.realmId, roles.member, [roles.member2], url);
  const channel = await createChannel(h.env.db, h.realm.realmId, 'forwarded', { subscribers: [roles.member2] });
  await sendChannelMessage(h.env.db, h.realm.realmId, roles.member2, channel.id, `fwd ${url}`);
  expect(await statuses(url)).toEqual(all(200, { guest: 403, anonymous: 401 }));
});

it('deleting the only linking message takes the access away', async () => {
  const url = await upload(roles.member);
  const dm = await sendDirectMessage(h.env.db, h.realm.realmId, roles.member, [roles.member2], url);
  expect((await api().get(url).set(h.as(roles.member2))).status).toBe(200);
  await h.env.db.message.delete({ where: { id: dm.id } });
  expect((await api().get(url).set(h.as(roles.member2))).status).toBe(403);
  expect((await api().get(url).set(h.as(roles.member))).status).toBe(200);
});

it('links with a percent-encoded or absolute URL count too', async () => {
  const url = await upload(roles.member, 'résumé.txt');
  const encoded = encodeURI(url);
  expect(encoded).not.toBe(url);
  await sendDirectMessage(h.env.db, h.realm.realmId, roles.member, [roles.member2], `[cv](http://chat.test${encoded})`);
  expect((await api().get(encoded).set(h.as(roles.member2))).status).toBe(200);
});

it('users of another realm never see the file', async () => {
  const url = await upload(roles.member);
  const res = await api().get(url).set(identityHeaders(h.realm.realmId + 1, roles.member2));
  expect(res.status).toBe(404);
});
