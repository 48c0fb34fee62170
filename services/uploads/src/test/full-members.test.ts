/**
 * A permission given to the full-members system group (see the messaging service's test of the
 * same name): adding custom emoji, decided by role and account age, not by membership rows.
 */
import sharp from 'sharp';
import request from 'supertest';
import { SYSTEM_GROUPS } from '@chat/contracts';
import { setRealmGroupSetting } from '@chat/testing';
import { startHarness, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const png = () => sharp({ create: { width: 16, height: 16, channels: 4, background: '#0088ff' } }).png().toBuffer();
const addEmoji = async (user: typeof h.realm.member, name: string) =>
  request(h.uploads.url).post(`/api/v1/realm/emoji/${name}`).set(h.as(user)).attach('f', await png(), 'e.png');

it('grants a member past the waiting period', async () => {
  await setRealmGroupSetting(h.env.db, h.realm.realmId, 'can_add_custom_emoji_group', SYSTEM_GROUPS.fullMembers, 0);
  expect((await addEmoji(h.realm.member, 'veteran')).body).toMatchObject({ result: 'success' });
});

it('refuses a member still within the waiting period, not a moderator', async () => {
  await setRealmGroupSetting(h.env.db, h.realm.realmId, 'can_add_custom_emoji_group', SYSTEM_GROUPS.fullMembers, 30);
  expect((await addEmoji(h.realm.member, 'newcomer')).body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Insufficient permission' });
  expect((await addEmoji(h.realm.moderator, 'moderated')).body).toMatchObject({ result: 'success' });
});
