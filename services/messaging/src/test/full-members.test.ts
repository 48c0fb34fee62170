/**
 * A permission given to the full-members system group: members whose account is older than the
 * realm's waiting period hold it, newer members do not, moderators and above always do. The
 * same rule (@chat/realm) decides it in every service; full members have no membership rows.
 */
import { SYSTEM_GROUPS } from '@chat/contracts';
import { setRealmGroupSetting } from '@chat/testing';
import { startHarness, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.createStream(h.realm.owner, { name: 'general' }, [h.realm.owner, h.realm.member, h.realm.moderator]);
});
afterAll(() => h.close());

async function sendAndDelete(user: typeof h.realm.member) {
  const sent = await h.api.post('/api/v1/messages').set(h.as(user)).type('form').send({ type: 'stream', to: 'general', topic: 't', content: 'hello' }).expect(200);
  return h.api.delete(`/api/v1/messages/${sent.body.id}`).set(h.as(user));
}

it('grants a member past the waiting period', async () => {
  await setRealmGroupSetting(h.env.db, h.realm.realmId, 'can_delete_own_message_group', SYSTEM_GROUPS.fullMembers, 0);
  const res = await sendAndDelete(h.realm.member);
  expect(res.body).toMatchObject({ result: 'success' });
});

it('refuses a member still within the waiting period, not a moderator', async () => {
  await setRealmGroupSetting(h.env.db, h.realm.realmId, 'can_delete_own_message_group', SYSTEM_GROUPS.fullMembers, 30);
  const refused = await sendAndDelete(h.realm.member);
  expect(refused.body).toMatchObject({ result: 'error', msg: "You don't have permission to delete this message" });
  expect((await sendAndDelete(h.realm.moderator)).body).toMatchObject({ result: 'success' });
});
