/**
 * A permission given to the full-members system group (see the messaging service's test of the
 * same name): creating bots, decided by role and account age, not by membership rows.
 */
import { SYSTEM_GROUPS } from '@chat/contracts';
import { setRealmGroupSetting } from '@chat/testing';
import { startHarness, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const createBot = (user: typeof h.realm.member, name: string) => h.as(user).post('/bots').send({ full_name: `Bot ${name}`, short_name: name });

it('grants a member past the waiting period', async () => {
  await setRealmGroupSetting(h.db, h.realm.realmId, 'can_create_bots_group', SYSTEM_GROUPS.fullMembers, 0);
  expect((await createBot(h.realm.member, 'veteran')).body).toMatchObject({ result: 'success' });
});

it('refuses a member still within the waiting period, not a moderator', async () => {
  await setRealmGroupSetting(h.db, h.realm.realmId, 'can_create_bots_group', SYSTEM_GROUPS.fullMembers, 30);
  expect((await createBot(h.realm.member, 'newcomer')).body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Insufficient permission' });
  expect((await createBot(h.realm.moderator, 'moderated')).body).toMatchObject({ result: 'success' });
});
