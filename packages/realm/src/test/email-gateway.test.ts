import { createTestDatabase, type TestDatabase } from '@chat/db/testing';
import {
  createMissedMessageAddress,
  decodeChannelAddress,
  emailGatewayDomain,
  findMissedMessageAddress,
  gatewayLocalPart,
  isMissedMessageToken,
  MISSED_MESSAGE_ADDRESS_EXPIRY_SECONDS,
  useMissedMessageAddress,
} from '..';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

it('makes a single-use reply address in the family shape, naming its conversation', async () => {
  const { db } = database;
  const address = await createMissedMessageAddress(db, { realmId: 1, userId: 7, conversation: { type: 'direct', userIds: [9, 7, 3, 9] }, messageId: 44 }, 'mail.chat.test');
  expect(address).toMatch(/^mm[0-9a-f]{32}@mail\.chat\.test$/);
  const token = gatewayLocalPart(address, 'MAIL.chat.test')!;
  expect(isMissedMessageToken(token)).toBe(true);
  const found = await findMissedMessageAddress(db, token);
  expect(found).toMatchObject({ realmId: 1, userId: 7, messageId: 44, timesUsed: 0, unusable: null, conversation: { type: 'direct', userIds: [3, 9] } });

  // Two deliveries racing for the one use: exactly one wins.
  const uses = await Promise.all([useMissedMessageAddress(db, found!.id), useMissedMessageAddress(db, found!.id)]);
  expect(uses.sort()).toEqual([false, true]);
  expect((await findMissedMessageAddress(db, token))!.unusable).toBe('used');
});

it('expires a reply address after five days', async () => {
  const { db } = database;
  const address = await createMissedMessageAddress(db, { realmId: 1, userId: 7, conversation: { type: 'channel', channelId: 5, topic: 'lunch' } }, 'chat.test');
  const token = gatewayLocalPart(address, 'chat.test')!;
  const found = (await findMissedMessageAddress(db, token))!;
  expect(found.conversation).toEqual({ type: 'channel', channelId: 5, topic: 'lunch' });
  const later = new Date(found.createdAt.getTime() + MISSED_MESSAGE_ADDRESS_EXPIRY_SECONDS * 1000 + 1000);
  expect((await findMissedMessageAddress(db, token, later))!.unusable).toBe('expired');
  expect(await useMissedMessageAddress(db, found.id, later)).toBe(false);
  expect(await useMissedMessageAddress(db, found.id)).toBe(true);
  expect(await findMissedMessageAddress(db, 'mm' + '0'.repeat(32))).toBeNull();
});

it('reads channel addresses and the mail domain as the family does', () => {
  const t = 'a'.repeat(32);
  expect(decodeChannelAddress(`denmark.${t}.show-sender`)).toEqual({ token: t, options: { showSender: true } });
  expect(decodeChannelAddress(`${t}+include-quotes+prefer-html`)).toEqual({ token: t, options: { includeQuotes: true, preferText: false } });
  expect(decodeChannelAddress(`denmark.${t}.include-footer.prefer-text`)).toEqual({ token: t, options: { includeFooter: true, preferText: true } });
  expect(decodeChannelAddress('a.b.c')).toBeNull();
  expect(decodeChannelAddress('denmark.nothex')).toBeNull();
  expect(gatewayLocalPart('x@other.test', 'chat.test')).toBeNull();
  expect(emailGatewayDomain({ EMAIL_GATEWAY_DOMAIN: '', EXTERNAL_HOST: 'Chat.Example.com:9991' })).toBe('chat.example.com');
  expect(emailGatewayDomain({ EMAIL_GATEWAY_DOMAIN: 'in.example.com', EXTERNAL_HOST: 'x' })).toBe('in.example.com');
  expect(emailGatewayDomain({ EXTERNAL_HOST: '[::1]:9991' })).toBe('::1');
});
