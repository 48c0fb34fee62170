import { BOT_TYPE } from '@chat/contracts';
import { doCreateUser, SYSTEM_BOTS } from '@chat/realm';
import { systemBot } from '../actions/move-notices';
import { startHarness, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('system bots', () => {
  it('are one account per kind and realm, whatever host name or path first made them', async () => {
    const { local, fullName } = SYSTEM_BOTS.welcome;
    const realmId = h.realm.realmId;
    const make = (realmUrl: string) => h.env.db.$transaction((tx) => systemBot(tx, { realmId, realmUrl }, local, fullName));
    // The onboarding consumer has no realm URL; requests come through whichever host the client used.
    const first = await make('');
    const second = await make('http://127.0.0.1:9991');
    const third = await make('http://chat.example.com');
    expect(second.userId).toBe(first.userId);
    expect(third.userId).toBe(first.userId);
    expect(await h.env.db.user.count({ where: { realmId, email: { startsWith: `${local}@` } } })).toBe(1);
  });

  it('are not confused with a bot someone owns under the same name', async () => {
    const { local, fullName } = SYSTEM_BOTS.notification;
    const realmId = h.realm.realmId;
    const owned = await doCreateUser(h.env.db, {
      realmId, email: `${local}@owned.example`, fullName: 'Mine', isBot: true, botType: BOT_TYPE.GENERIC, botOwnerId: h.realm.owner.id,
    });
    const bot = await h.env.db.$transaction((tx) => systemBot(tx, { realmId, realmUrl: 'http://chat.test' }, local, fullName));
    expect(bot.userId).not.toBe(owned.id);
    const row = await h.env.db.user.findUniqueOrThrow({ where: { id: bot.userId } });
    expect(row.botOwnerId).toBeNull();
  });
});
