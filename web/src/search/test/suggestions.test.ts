import { suggest, type SuggestContext } from '../suggestions';

const channels = [
  { id: 12, name: 'general' },
  { id: 15, name: 'design team' },
  { id: 16, name: 'devel' },
];
const users = [
  { id: 1, email: 'me@example.com', name: 'Me Myself' },
  { id: 5, email: 'iago@example.com', name: 'Iago' },
  { id: 7, email: 'cordelia@example.com', name: 'Cordelia Lear' },
  { id: 9, email: 'bot@example.com', name: 'Ice bot', isBot: true },
];
const ctx: SuggestContext = {
  channels,
  users,
  topics: (id) => (id === 12 ? ['lunch', 'launch plans', 'other'] : []),
  channelByName: (n) => channels.find((c) => c.name === n),
  channelById: (id) => channels.find((c) => c.id === id),
  userByEmail: (e) => users.find((u) => u.email === e),
  userById: (id) => users.find((u) => u.id === id),
  selfId: 1,
};
const queries = (text: string) => suggest(text, ctx).map((s) => s.query);

describe('suggest', () => {
  it('offers the common filters in an empty box', () => {
    expect(queries('').slice(0, 3)).toEqual(['is:dm', 'is:starred', 'is:mentioned']);
  });
  it('completes channels', () => {
    expect(queries('channel:de')).toEqual(['channel:design+team', 'channel:devel']);
    expect(queries('-channel:gen')).toEqual(['-channel:general']);
  });
  it('completes topics of the channel already chosen', () => {
    expect(queries('channel:general topic:la')).toEqual(['channel:general topic:launch+plans']);
    expect(queries('channel:general topic:')).toEqual(['channel:general topic:lunch', 'channel:general topic:launch+plans', 'channel:general topic:other']);
  });
  it('completes people, bots last, and groups', () => {
    expect(queries('sender:i')).toEqual(['sender:iago@example.com', 'sender:bot@example.com']);
    expect(queries('sender:m')).toEqual(['sender:me', 'sender:me@example.com']);
    expect(queries('dm:iago@example.com,cor')).toEqual(['dm:iago@example.com,cordelia@example.com']);
  });
  it('completes is: and has:', () => {
    expect(queries('is:st')).toEqual(['is:starred']);
    expect(queries('has:')).toEqual(['has:link', 'has:image', 'has:attachment', 'has:reaction']);
  });
  it('turns a word into a search, an operator, a channel or a person', () => {
    const q = queries('de');
    expect(q[0]).toBe('de');
    expect(q).toContain('channel:design+team');
    expect(queries('d').filter((x) => x.endsWith(':'))).toEqual(['dm:', 'dm-including:']);
    expect(queries('star')).toEqual(['star', 'is:starred']);
    expect(queries('cord')).toEqual(['cord', 'sender:cordelia@example.com', 'dm:cordelia@example.com']);
  });
  it('keeps what was typed before the token', () => {
    expect(queries('channel:general is:un')).toEqual(['channel:general is:unread']);
    expect(queries('channel:general ')).not.toContain('channel:general channel:general');
  });
});
