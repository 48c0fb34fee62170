import { applySuggestion, autoTopicJump, completionsFor, escapeTopicCompletion, matchRank, tokenize, type TypeaheadContext } from '../typeahead';
import { channelLink, groupMention, topicLink, userMention } from '../mention';

const people = [
  { user_id: 1, full_name: 'Alice Smith', email: 'alice@example.com', is_bot: false },
  { user_id: 2, full_name: 'Bob Åkesson', email: 'bob@example.com', is_bot: false },
  { user_id: 3, full_name: 'Notification Bot', email: 'notification-bot@zulip.com', is_bot: true },
  { user_id: 4, full_name: 'Alan Turing', email: 'turing@example.com', is_bot: false },
];
const groups = [
  { id: 10, name: 'admins-team', description: '', members: [1], is_system_group: false },
  { id: 11, name: 'role:administrators', description: '', members: [1], is_system_group: true },
];
const channels = [
  { stream_id: 5, name: 'general' },
  { stream_id: 6, name: 'design team' },
  { stream_id: 7, name: 'a*b' },
];
const ctx: TypeaheadContext = {
  people,
  groups,
  channels,
  emoji: [
    { name: 'smile', aliases: [], code: '1f604', type: 'unicode_emoji' },
    { name: 'smiley', aliases: [], code: '1f603', type: 'unicode_emoji' },
    { name: 'thumbs_up', aliases: ['+1', 'like'], code: '1f44d', type: 'unicode_emoji' },
    { name: 'party_parrot', aliases: [], code: '99', type: 'realm_emoji', url: '/x.gif' },
  ],
  topics: (id) => (id === 5 ? ['lunch', 'Release plans', 'launch day'] : []),
  slash: [
    { name: 'me', info: 'Action message', placeholder: 'is …' },
    { name: 'poll', info: 'Create a poll', placeholder: 'Question' },
    { name: 'todo', info: 'Create a to-do list', placeholder: 'Task list' },
  ],
  isDirect: false,
  currentStreamId: 5,
};

function pick(text: string, index = 0, after = '') {
  const c = completionsFor(text, after, ctx);
  if (!c) throw new Error(`no completion for ${text}`);
  return applySuggestion(text, after, c, c.items[index]!);
}

describe('tokenize', () => {
  it('finds the token after a space or at the start', () => {
    expect(tokenize('hello @al')).toBe('@al');
    expect(tokenize('@al')).toBe('@al');
    expect(tokenize('mail me at a@b')).toBe('');
    expect(tokenize('(#gen')).toBe('#gen');
    expect(tokenize('/po')).toBe('/po');
    expect(tokenize('x /po')).toBe('');
  });
});

describe('matchRank', () => {
  it('ranks exact, prefix and word-prefix matches and ignores accents', () => {
    expect(matchRank('alice smith', 'Alice Smith')).toBe(0);
    expect(matchRank('ali', 'Alice Smith')).toBe(1);
    expect(matchRank('smi', 'Alice Smith')).toBe(2);
    expect(matchRank('lic', 'Alice Smith')).toBe(-1);
    expect(matchRank('akes', 'Bob Åkesson')).toBe(2);
    expect(matchRank('åkes', 'Bob Åkesson')).toBe(2);
  });
});

describe('mentions', () => {
  it('offers wildcards, people and groups, and inserts the family syntax', () => {
    const c = completionsFor('hi @a', '', ctx)!;
    expect(c.kind).toBe('mention');
    const labels = c.items.map((i) => (i.kind === 'user' ? i.person.full_name : i.kind === 'group' ? `group:${i.group.name}` : i.kind === 'wildcard' ? `*${i.name}` : '?'));
    expect(labels.slice(0, 1)).toEqual(['*all']);
    expect(labels).toContain('Alice Smith');
    expect(labels).toContain('group:admins-team');
    expect(labels).not.toContain('group:role:administrators');
    const alice = c.items.findIndex((i) => i.kind === 'user' && i.person.user_id === 1);
    expect(pick('hi @a', alice)).toEqual({ value: 'hi @**Alice Smith|1** ', caret: 22, select: undefined });
  });
  it('matches by email and by later words', () => {
    expect(completionsFor('@turing', '', ctx)!.items[0]).toMatchObject({ kind: 'user', person: { user_id: 4 } });
    expect(completionsFor('@smi', '', ctx)!.items[0]).toMatchObject({ kind: 'user', person: { user_id: 1 } });
  });
  it('puts people before bots', () => {
    const c = completionsFor('@', '', { ...ctx, isDirect: true })!;
    const users = c.items.filter((i) => i.kind === 'user');
    expect(users[users.length - 1]).toMatchObject({ person: { is_bot: true } });
    expect(c.items.filter((i) => i.kind === 'wildcard').map((i) => i.kind === 'wildcard' && i.name)).toEqual(['all', 'everyone']);
  });
  it('inserts silent mentions and group mentions', () => {
    expect(pick('@_ali').value).toBe('@_**Alice Smith|1** ');
    const c = completionsFor('@adm', '', ctx)!;
    const g = c.items.findIndex((i) => i.kind === 'group');
    expect(applySuggestion('@adm', '', c, c.items[g]!).value).toBe('@*admins-team* ');
    expect(pick('@_*adm').value).toBe('@_*admins-team* ');
    expect(pick('@**al', 0).value).toBe('@**all** ');
  });
  it('does not complete a finished mention or text inside a word', () => {
    expect(completionsFor('@**Alice Smith|1** and', '', ctx)).toBeNull();
    expect(completionsFor('@al', 'ice', ctx)).toBeNull();
    expect(completionsFor('@ al', '', ctx)).toBeNull();
  });
  it('keeps the text after the cursor', () => {
    expect(pick('hi @alic', 0, ', there')).toEqual({ value: 'hi @**Alice Smith|1** , there', caret: 22, select: undefined });
  });
});

describe('channels and topics', () => {
  it('completes a channel, then offers its topics', () => {
    const first = pick('see #gen');
    expect(first.value).toBe('see #**general>');
    const topics = completionsFor(first.value, '', ctx)!;
    expect(topics.kind).toBe('topic');
    expect(topics.items[0]).toMatchObject({ kind: 'topic', channelLink: true });
    expect(applySuggestion(first.value, '', topics, topics.items[0]!).value).toBe('see #**general** ');
    const lunch = topics.items.findIndex((i) => i.kind === 'topic' && i.topic === 'lunch');
    expect(applySuggestion(first.value, '', topics, topics.items[lunch]!).value).toBe('see #**general>lunch** ');
  });
  it('filters topics and offers a new one', () => {
    const c = completionsFor('#**general>la', '', ctx)!;
    expect(c.items.map((i) => i.kind === 'topic' && i.topic)).toEqual(['la', 'launch day']);
    expect(c.items[0]).toMatchObject({ isNew: true });
    expect(completionsFor('#**general>plans', '', ctx)!.items.map((i) => i.kind === 'topic' && i.topic)).toEqual(['plans', 'Release plans']);
  });
  it('matches channel names by later words and handles #>', () => {
    expect(pick('#tea').value).toBe('#**design team>');
    expect(pick('#>lu', 1).value).toBe('#**general>lunch** ');
  });
  it('falls back to a Markdown link for names that break the syntax', () => {
    expect(pick('#a*').value).toBe(`${channelLink({ stream_id: 7, name: 'a*b' })} `);
    expect(channelLink({ stream_id: 7, name: 'a*b' })).toBe('[#a&#42;b](#narrow/channel/7-a*b)');
    expect(topicLink({ stream_id: 5, name: 'general' }, 'x > y')).toBe('[#general > x &gt; y](#narrow/channel/5-general/topic/x.20.3E.20y)');
  });
  it('reopens a finished channel link for a topic on >, and escape keeps plain text', () => {
    expect(autoTopicJump('go #**general**>')).toBe('go #**general>');
    expect(autoTopicJump('go #**general** >')).toBe('go #**general>');
    expect(autoTopicJump('a > b')).toBeNull();
    expect(escapeTopicCompletion('#**general>some words')).toBe('#**general** some words');
  });
});

describe('emoji and slash commands', () => {
  it('completes emoji by name and alias, custom ones first', () => {
    const c = completionsFor('nice :sm', '', ctx)!;
    expect(c.items.map((i) => i.kind === 'emoji' && i.name)).toEqual(['smile', 'smiley']);
    expect(applySuggestion('nice :sm', '', c, c.items[0]!).value).toBe('nice :smile: ');
    expect(pick(':+').value).toBe(':+1: ');
    expect(pick(':lik').value).toBe(':like: ');
    expect(completionsFor(':pa', '', ctx)!.items[0]).toMatchObject({ name: 'party_parrot' });
    expect(pick(':par').value).toBe(':party_parrot: ');
  });
  it('skips emoticons and a lone colon', () => {
    expect(completionsFor(':P', '', ctx)).toBeNull();
    expect(completionsFor(':-)', '', ctx)).toBeNull();
    expect(completionsFor('see:', '', ctx)).toBeNull();
    expect(completionsFor(': x', '', ctx)).toBeNull();
  });
  it('offers slash commands only at the start and selects the placeholder', () => {
    expect(pick('/po')).toEqual({ value: '/poll Question', caret: 14, select: [6, 14] });
    expect(completionsFor('hi /po', '', ctx)).toBeNull();
    expect(completionsFor('/', '', ctx)!.items).toHaveLength(3);
  });
});

describe('mention syntax', () => {
  it('writes the family forms', () => {
    expect(userMention('A B', 3)).toBe('@**A B|3**');
    expect(userMention('A B', 3, true)).toBe('@_**A B|3**');
    expect(userMention('all', undefined)).toBe('@**all**');
    expect(groupMention('staff')).toBe('@*staff*');
    expect(groupMention('staff', true)).toBe('@_*staff*');
  });
});
