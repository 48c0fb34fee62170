/**
 * The avatar a bot was created with (POST /bots with a file, the users service's endpoint),
 * handed over through Redis and named by the bot's realm_bot `add` event: the consumer of the
 * domain streams stores it as the bot's avatar and announces it; an image that does not decode,
 * or that waited too long, leaves the bot its Gravatar.
 */
import sharp from 'sharp';
import request from 'supertest';
import { recordEvent } from '@chat/bus';
import { ROLE } from '@chat/contracts';
import { doCreateUser } from '@chat/realm';
import { eventually, startHarness, streamEvents, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

let counter = 0;

/** A bot as the users service creates it with an avatar, and its realm_bot add with the handover. */
async function botHandedOver(image: Buffer | null) {
  counter += 1;
  const bot = await doCreateUser(h.env.db, {
    realmId: h.realm.realmId, email: `pictured${counter}-bot@chat.test`, fullName: `Pictured ${counter}`,
    role: ROLE.MEMBER, isBot: true, botType: 1, botOwnerId: h.realm.member.id, avatarSource: 'U', announce: false,
  });
  const key = h.uploads.services.keys.botAvatarHandover(`handover${counter}${'x'.repeat(14)}`);
  if (image) await h.uploads.services.redis.set(key, image, 'EX', 600);
  await h.env.db.$transaction((tx) =>
    recordEvent(tx, {
      realmId: h.realm.realmId,
      type: 'realm_bot',
      users: [h.realm.member.id],
      event: { type: 'realm_bot', op: 'add', bot: { user_id: bot.id } },
      routing: { bot_avatar: { key, realm_url: 'http://chat.test' } },
    }),
  );
  return { bot, key };
}

const settled = (id: number) => eventually(async () => {
  const row = await h.env.db.user.findUniqueOrThrow({ where: { id } });
  return row.avatarVersion > 1 ? row : null;
});

/**
 * The events about a bot that reached the realm's stream. Read there, not from the outbox
 * table: the relay deletes the rows it has published, sooner or later.
 */
async function eventsAbout(botId: number) {
  return eventually(async () => {
    const about = (await streamEvents(h)).filter((e) => (e.event.person as { user_id?: number } | undefined)?.user_id === botId || (e.event.bot as { user_id?: number } | undefined)?.user_id === botId);
    const done = about.some((e) => e.type === 'realm_user') && about.some((e) => e.type === 'realm_bot' && e.event.op === 'update');
    return done ? about : null;
  });
}

it('stores the handed-over image as the bot’s avatar, bumps its version and tells the realm and the bot’s owner', async () => {
  const image = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#cc3300' } }).png().toBuffer();
  const { bot, key } = await botHandedOver(image);
  const row = await settled(bot.id);
  expect([row.avatarSource, row.avatarVersion]).toEqual(['U', 2]);
  expect(await h.uploads.services.redis.exists(key)).toBe(0);

  const events = await eventsAbout(bot.id);
  const person = events.find((e) => e.type === 'realm_user')!;
  expect(person.users).toBe('realm');
  expect(person.event.person).toEqual({
    user_id: bot.id, avatar_source: 'U', avatar_version: 2,
    avatar_url: `http://chat.test/avatar/${bot.id}?version=2`, avatar_url_medium: `http://chat.test/avatar/${bot.id}/medium?version=2`,
  });
  const botEvent = events.find((e) => e.type === 'realm_bot' && (e.event as { op: string }).op === 'update')!;
  expect(botEvent.event.bot).toEqual({ user_id: bot.id, avatar_url: `http://chat.test/avatar/${bot.id}?version=2` });
  expect(botEvent.users).toEqual([h.realm.owner.id, h.realm.admin.id, h.realm.member.id].sort((a, b) => a - b));

  const redirect = await request(h.uploads.url).get(`/avatar/${bot.id}`).set(h.as(h.realm.member2)).expect(302);
  const file = await request(h.uploads.url).get(redirect.headers.location!.split('?')[0]!).set(h.as(h.realm.member2)).expect(200);
  expect(await sharp(file.body).metadata()).toMatchObject({ format: 'png', width: 100, height: 100 });
});

it('gives the bot back its Gravatar when the image does not decode', async () => {
  const { bot, key } = await botHandedOver(Buffer.from('\x89PNG\r\n\x1a\n but not really'));
  const row = await settled(bot.id);
  expect([row.avatarSource, row.avatarVersion]).toEqual(['G', 2]);
  expect(await h.uploads.services.redis.exists(key)).toBe(0);
});

it('gives the bot back its Gravatar when the image waited too long', async () => {
  const { bot } = await botHandedOver(null);
  const row = await settled(bot.id);
  expect([row.avatarSource, row.avatarVersion]).toEqual(['G', 2]);
});
