/** GET /streams/{stream_id}/email_address and the mail domain setting. */
import { readConfig, emailGatewayDomain } from '../config';
import { channelEmailSlug, encodeEmailAddress } from '../actions/channel-email';
import { startHarness, type Harness } from './support';

let h: Harness;
let denmark: number;
let secret: number;
beforeAll(async () => {
  h = await startHarness({ EMAIL_GATEWAY_DOMAIN: 'mail.chat.test' });
  const { owner, member } = h.realm;
  denmark = await h.createStream(owner, { name: 'Denmark' }, [owner, member]);
  secret = await h.createStream(owner, { name: 'Secret', inviteOnly: true }, [owner]);
});
afterAll(() => h?.close());

const address = (streamId: number, user = h.realm.member, query: Record<string, string> = {}) =>
  h.api.get(`/api/v1/streams/${streamId}/email_address`).set(h.as(user)).query(query);

it('gives the address in the family format, the same on every request', async () => {
  const res = await address(denmark);
  expect(res.status).toBe(200);
  expect(res.body.email).toMatch(/^denmark\.[0-9a-f]{32}\.show-sender@mail\.chat\.test$/);
  expect((await address(denmark)).body.email).toBe(res.body.email);
  // Another creator, or another sender, has an address of their own.
  const other = (await address(denmark, h.realm.owner)).body.email;
  expect(other).not.toBe(res.body.email);
  const asSelf = (await address(denmark, h.realm.member, { sender_id: String(h.realm.member.id) })).body.email;
  expect(asSelf).not.toBe(res.body.email);
  const rows = await h.env.db.channelEmailAddress.findMany({ where: { channelId: denmark } });
  expect(rows).toHaveLength(3);
  const gateway = await h.env.db.user.findUniqueOrThrow({ where: { id: rows.find((r) => r.creatorId === h.realm.member.id && r.senderId !== h.realm.member.id)!.senderId } });
  expect(gateway).toMatchObject({ fullName: 'Email Gateway', isBot: true });
  expect((await address(denmark, h.realm.member, { sender_id: String(gateway.id) })).body.email).toBe(res.body.email);
});

it('accepts a bot the caller owns as sender, and refuses other users and bots', async () => {
  const { bot, admin, member, member2 } = h.realm;
  // The seeded bot belongs to member; administrators may use any bot.
  expect((await address(denmark, member, { sender_id: String(bot.id) })).status).toBe(200);
  expect((await address(denmark, admin, { sender_id: String(bot.id) })).status).toBe(200);
  expect((await address(denmark, member2, { sender_id: String(bot.id) })).body.msg).toBe('Insufficient permission');
  expect((await address(denmark, member, { sender_id: String(member2.id) })).body.msg).toBe('No such bot');
  expect((await address(denmark, member, { sender_id: '999999' })).body.msg).toBe('No such bot');
});

it('refuses channels the caller cannot see', async () => {
  expect((await address(secret)).body).toMatchObject({ result: 'error', msg: 'Invalid channel ID' });
  expect((await address(999999)).body.msg).toBe('Invalid channel ID');
  expect((await address(secret, h.realm.owner)).status).toBe(200);
});

it("slugs channel names as the family's server does", () => {
  expect(channelEmailSlug('Design team')).toBe('design-team');
  expect(channelEmailSlug('Café & crème')).toBe('cafe-creme');
  expect(channelEmailSlug('日本語')).toBe('');
  expect(channelEmailSlug('#general')).toBe('');
  expect(encodeEmailAddress('日本語', 'abc', 'x.test')).toBe('abc.show-sender@x.test');
});

it('takes the mail domain from EMAIL_GATEWAY_DOMAIN, else from EXTERNAL_HOST, and refuses a bad one at start', () => {
  expect(emailGatewayDomain(readConfig({ EMAIL_GATEWAY_DOMAIN: '', EXTERNAL_HOST: 'chat.example.com:9991' }))).toBe('chat.example.com');
  expect(emailGatewayDomain(readConfig({ EMAIL_GATEWAY_DOMAIN: 'in.example.com', EXTERNAL_HOST: 'chat.example.com' }))).toBe('in.example.com');
  expect(() => readConfig({ EMAIL_GATEWAY_DOMAIN: 'not a domain' })).toThrow(/EMAIL_GATEWAY_DOMAIN: must be a domain name/);
});
