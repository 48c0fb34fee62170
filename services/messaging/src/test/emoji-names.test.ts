// Reactions and rendered messages use the family's emoji names: every canonical name and alias,
// codes with or without FE0F, and the family's errors for anything else.
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
let send: (content: string) => Promise<number>;

beforeAll(async () => {
  h = await startHarness();
  const { owner, member, member2, admin } = h.realm;
  await h.createStream(owner, { name: 'Denmark' }, [owner, member, member2, admin]);
  send = async (content) =>
    (await h.api.post('/api/v1/messages').set(h.as(member)).type('form').send({ type: 'stream', to: 'Denmark', topic: 'emoji', content })).body.id as number;
});
afterAll(() => h?.close());

type User = Parameters<Harness['as']>[0];
const react = (user: User, id: number, body: Record<string, string>, method: 'post' | 'delete' = 'post') =>
  h.api[method](`/api/v1/messages/${id}/reactions`).set(h.as(user)).type('form').send(body);
const reactionsOf = async (id: number) =>
  ((await h.api.get(`/api/v1/messages/${id}`).set(h.as(h.realm.owner))).body.message.reactions as Array<Record<string, unknown>>).map(
    (r) => [r.emoji_name, r.emoji_code, r.reaction_type, r.user_id],
  );

describe('reactions by the family names', () => {
  it("takes the terminal client's thumbs_up/1f44d, and the other names of the same emoji", async () => {
    const id = await send('thumbs');
    const { member, member2, admin, owner } = h.realm;
    const res = await react(member, id, { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect((await outboxEvents(h.env, 'reaction')).at(-1)!.event).toMatchObject({ op: 'add', message_id: id, emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' });
    // Other names join the existing reaction under its name, as on the family's server.
    expect((await react(member2, id, { emoji_name: '+1' })).status).toBe(200);
    expect((await react(admin, id, { emoji_name: 'like', emoji_code: '1f44d' })).status).toBe(200);
    expect((await react(member, id, { emoji_name: '+1' })).body).toMatchObject({ code: 'REACTION_ALREADY_EXISTS' });
    expect(await reactionsOf(id)).toEqual([
      ['thumbs_up', '1f44d', 'unicode_emoji', member.id],
      ['thumbs_up', '1f44d', 'unicode_emoji', member2.id],
      ['thumbs_up', '1f44d', 'unicode_emoji', admin.id],
    ]);
    // A fresh message: each name is accepted on its own, name-only or with the code.
    const other = await send('plus one');
    expect((await react(owner, other, { emoji_name: '+1' })).status).toBe(200);
    const like = await send('like');
    expect((await react(owner, like, { emoji_name: 'like', emoji_code: '1f44d', reaction_type: 'unicode_emoji' })).status).toBe(200);
    expect([...(await reactionsOf(other)), ...(await reactionsOf(like))]).toEqual([
      ['+1', '1f44d', 'unicode_emoji', owner.id],
      ['like', '1f44d', 'unicode_emoji', owner.id],
    ]);
    expect((await react(member, id, { emoji_name: 'like' }, 'delete')).status).toBe(200);
    expect((await react(member2, id, { emoji_code: '1f44d' }, 'delete')).status).toBe(200);
  });

  it('resolves smile to 1f642, the family code, not 1f604', async () => {
    const id = await send('smile');
    expect((await react(h.realm.member, id, { emoji_name: 'smile' })).status).toBe(200);
    expect(await reactionsOf(id)).toEqual([['smile', '1f642', 'unicode_emoji', h.realm.member.id]]);
    expect((await react(h.realm.member2, id, { emoji_name: 'smile', emoji_code: '1f604' })).body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid emoji name.' });
    expect((await react(h.realm.member2, id, { emoji_name: 'big_smile', emoji_code: '1f604' })).status).toBe(200);
  });

  it('takes a code the family writes with FE0F in either spelling, keeping the family spelling', async () => {
    const family = '1f575-fe0f-200d-2642-fe0f';
    const bare = '1f575-200d-2642';
    const id = await send('detective');
    const { member, member2 } = h.realm;
    expect((await react(member, id, { emoji_name: 'man_detective', emoji_code: bare, reaction_type: 'unicode_emoji' })).body.result).toBe('success');
    expect((await outboxEvents(h.env, 'reaction')).at(-1)!.event).toMatchObject({ op: 'add', emoji_name: 'man_detective', emoji_code: family });
    expect((await react(member, id, { emoji_name: 'man_detective', emoji_code: family })).body).toMatchObject({ code: 'REACTION_ALREADY_EXISTS' });
    expect((await react(member2, id, { emoji_name: 'man_detective', emoji_code: family })).status).toBe(200);
    expect(await reactionsOf(id)).toEqual([
      ['man_detective', family, 'unicode_emoji', member.id],
      ['man_detective', family, 'unicode_emoji', member2.id],
    ]);
    // Removal finds the reaction by either spelling too.
    expect((await react(member, id, { emoji_code: family }, 'delete')).status).toBe(200);
    expect((await react(member2, id, { emoji_name: 'man_detective', emoji_code: bare }, 'delete')).status).toBe(200);
    expect((await outboxEvents(h.env, 'reaction')).at(-1)!.event).toMatchObject({ op: 'remove', emoji_code: family });
    expect(await reactionsOf(id)).toEqual([]);
  });

  it("answers the family's errors for names and codes it does not know", async () => {
    const id = await send('errors');
    const { member } = h.realm;
    const cases: Array<[Record<string, string>, string]> = [
      [{ emoji_name: 'thumbs_up', emoji_code: '1f44e' }, 'Invalid emoji name.'],
      [{ emoji_name: 'thumbs_up', emoji_code: 'zzzz' }, 'Invalid emoji code.'],
      [{ emoji_name: 'thumbs_up', emoji_code: '1f3fd' }, 'Invalid emoji code.'],
      [{ emoji_name: 'thumbsup' }, "Emoji 'thumbsup' does not exist"],
      [{ emoji_name: 'Thumbs_Up' }, "Emoji 'Thumbs_Up' does not exist"],
      [{ emoji_name: 'zulip', emoji_code: '1f44d', reaction_type: 'svc_extra_emoji' }, 'Invalid emoji code.'],
      [{ emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'sticker' }, 'Invalid emoji type.'],
    ];
    for (const [body, msg] of cases) {
      const res = await react(member, id, body);
      expect([body, res.status, res.body]).toEqual([body, 400, { result: 'error', code: 'BAD_REQUEST', msg }]);
    }
    expect(await reactionsOf(id)).toEqual([]);
    expect((await react(member, id, { emoji_name: 'zulip' })).status).toBe(200);
    expect(await reactionsOf(id)).toEqual([['zulip', 'zulip', 'svc_extra_emoji', member.id]]);
  });
});

describe('rendered :name: emoji', () => {
  const span = (name: string, code: string) => {
    const title = name.replace(/_/g, ' ');
    return `<span aria-label="${title}" class="emoji emoji-${code}" role="img" title="${title}">:${name}:</span>`;
  };

  it('renders every family name, aliases and non-ASCII names included', async () => {
    const id = await send(':thumbs_up: :smile: :+1: :like: :piñata: :man_detective: :thumbsup:');
    const res = await h.api.get(`/api/v1/messages/${id}`).set(h.as(h.realm.member));
    expect(res.body.message.content).toBe(
      `<p>${span('thumbs_up', '1f44d')} ${span('smile', '1f642')} ${span('+1', '1f44d')} ${span('like', '1f44d')} ` +
        `${span('piñata', '1fa85')} ${span('man_detective', '1f575-fe0f-200d-2642-fe0f')} :thumbsup:</p>`,
    );
  });
});
