import type { SeededUser } from '@chat/testing';
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const send = (user: SeededUser, form: Record<string, string>) =>
  h.api.post('/api/v1/realm/test_welcome_bot_custom_message').set(h.as(user)).type('form').send(form);

describe('POST /realm/test_welcome_bot_custom_message', () => {
  it.each(['owner', 'admin'] as const)('sends the %s the custom welcome message from the Welcome Bot', async (who) => {
    const me = h.realm[who];
    const before = (await outboxEvents(h.env, 'message')).length;
    const res = await send(me, { welcome_message_custom_text: 'Read **#announce** first.' });
    expect(res.body).toEqual({ result: 'success', msg: '', message_id: expect.any(Number) });
    const message = await h.env.db.message.findUniqueOrThrow({ where: { id: res.body.message_id } });
    const bot = await h.env.db.user.findUniqueOrThrow({ where: { id: message.senderId } });
    expect(bot).toMatchObject({ fullName: 'Welcome Bot', isBot: true, realmId: h.realm.realmId });
    expect(message.content).toBe('The administrators for this organization would also like to share the following information:\n\nRead **#announce** first.');
    expect(message.renderedContent).toContain('<strong>#announce</strong>');
    const recipients = await h.env.db.userMessage.findMany({ where: { messageId: message.id }, select: { userId: true } });
    expect(recipients.map((r) => r.userId).sort()).toEqual([bot.id, me.id].sort());
    // Only the custom message: the standard welcome is not part of the test.
    const events = (await outboxEvents(h.env, 'message')).slice(before);
    expect(events).toHaveLength(1);
    expect(events[0]!.event.message).toMatchObject({ id: message.id, sender_id: bot.id, type: 'private' });
    expect(await h.env.db.onboardingMessage.count({ where: { userId: me.id } })).toBe(0);
  });

  it.each(['moderator', 'member', 'guest', 'bot'] as const)('refuses the %s', async (who) => {
    const res = await send(h.realm[who], { welcome_message_custom_text: 'Hi' });
    expect(res.body).toEqual({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
  });

  it('checks the text as the family does', async () => {
    expect((await send(h.realm.admin, {})).body.msg).toBe("Missing 'welcome_message_custom_text' argument");
    expect((await send(h.realm.admin, { welcome_message_custom_text: '' })).body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Message must not be empty',
    });
    expect((await send(h.realm.admin, { welcome_message_custom_text: 'x'.repeat(8001) })).body.msg).toBe(
      'welcome_message_custom_text is too long (limit: 8000 characters)',
    );
  });
});
