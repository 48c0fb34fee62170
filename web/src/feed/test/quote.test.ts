import { messageHash, messageLink, quoteText, replyTarget, unusedFence } from '../quote';

const people = (ids: number[]) => ids.map((id) => ({ id, email: '', full_name: '', is_mirror_dummy: false }));

describe('links and quotes', () => {
  it('links a channel message in the family format', () => {
    const m = { id: 42, type: 'stream' as const, stream_id: 12, subject: 'lunch plans (v1.2)', display_recipient: 'general chat' };
    expect(messageHash(m, 'general chat')).toBe('#narrow/channel/12-general-chat/topic/lunch.20plans.20.28v1.2E2.29/near/42');
    expect(messageLink(m, 'general chat', 'https://chat.example.com/')).toBe('https://chat.example.com/#narrow/channel/12-general-chat/topic/lunch.20plans.20.28v1.2E2.29/near/42');
  });

  it('links direct messages with every participant', () => {
    expect(messageHash({ id: 7, type: 'private', subject: '', display_recipient: people([5, 3]) }, '')).toBe('#narrow/dm/3,5-dm/near/7');
    expect(messageHash({ id: 7, type: 'private', subject: '', display_recipient: people([5, 3, 9]) }, '')).toBe('#narrow/dm/3,5,9-group/near/7');
  });

  it('quotes with a silent mention, a link and a fence longer than any inside', () => {
    expect(quoteText({ sender_full_name: 'Iago', sender_id: 5 }, 'hello', 'L')).toBe('@_**Iago|5** [said](L):\n```quote\nhello\n```');
    const raw = 'look:\n````python\nx\n````';
    expect(unusedFence(raw)).toBe('`````');
    expect(quoteText({ sender_full_name: 'Iago', sender_id: 5 }, raw, 'L')).toBe(`@_**Iago|5** [said](L):\n\`\`\`\`\`quote\n${raw}\n\`\`\`\`\``);
    expect(unusedFence('inline ``` not at start')).toBe('```');
  });

  it('replies to the same conversation', () => {
    expect(replyTarget({ type: 'stream', stream_id: 3, subject: 't', display_recipient: 'x' }, 1)).toEqual({ type: 'stream', streamId: 3, topic: 't' });
    expect(replyTarget({ type: 'private', subject: '', display_recipient: people([1, 4, 2]) }, 1)).toEqual({ type: 'direct', to: [2, 4] });
    expect(replyTarget({ type: 'private', subject: '', display_recipient: people([1]) }, 1)).toEqual({ type: 'direct', to: [1] });
  });
});
