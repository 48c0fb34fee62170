import { parseHash, viewHash, type NarrowTerm } from '../../narrow/hash';
import { fromNarrowTerms, parseQuery, searchWords, toNarrowTerms, unparseQuery, type Directory, type SearchTerm } from '../query';

const channels = [
  { id: 12, name: 'general' },
  { id: 15, name: 'design team' },
  { id: 20, name: 'C++ & more' },
];
const users = [
  { id: 1, email: 'me@example.com', name: 'Me Myself' },
  { id: 5, email: 'iago@example.com', name: 'Iago' },
  { id: 7, email: 'cordelia+x@example.com', name: 'Cordelia Lear' },
];
const dir: Directory = {
  channelByName: (n) => channels.find((c) => c.name.toLowerCase() === n.toLowerCase()),
  channelById: (id) => channels.find((c) => c.id === id),
  userByEmail: (e) => users.find((u) => u.email.toLowerCase() === e.toLowerCase()),
  userById: (id) => users.find((u) => u.id === id),
  selfId: 1,
};

describe('parseQuery', () => {
  it('reads operators, negation and words', () => {
    expect(parseQuery('channel:general topic:lunch -is:starred hello world')).toEqual([
      { operator: 'channel', operand: 'general' },
      { operator: 'topic', operand: 'lunch' },
      { operator: 'is', operand: 'starred', negated: true },
      { operator: 'search', operand: 'hello world' },
    ]);
  });
  it('puts words typed first before the operators, joined into one term', () => {
    expect(parseQuery('hello channel:general world')).toEqual([
      { operator: 'search', operand: 'hello world' },
      { operator: 'channel', operand: 'general' },
    ]);
  });
  it('reads quoted operands and + as a space, except for people', () => {
    expect(parseQuery('channel:"design team" topic:a+b')).toEqual([
      { operator: 'channel', operand: 'design team' },
      { operator: 'topic', operand: 'a b' },
    ]);
    expect(parseQuery('sender:cordelia+x@example.com')).toEqual([{ operator: 'sender', operand: 'cordelia+x@example.com' }]);
    expect(parseQuery('topic:100%25')).toEqual([{ operator: 'topic', operand: '100%' }]);
  });
  it('accepts the old operator names and is:private', () => {
    expect(parseQuery('stream:general subject:x pm-with:iago@example.com from:me is:private')).toEqual([
      { operator: 'channel', operand: 'general' },
      { operator: 'topic', operand: 'x' },
      { operator: 'dm', operand: 'iago@example.com' },
      { operator: 'sender', operand: 'me' },
      { operator: 'is', operand: 'dm' },
    ]);
  });
  it('treats an unknown operator and a colon in words as words', () => {
    expect(parseQuery('foo:bar https://x.y')).toEqual([{ operator: 'search', operand: 'foo:bar https://x.y' }]);
    expect(parseQuery('')).toEqual([]);
    expect(parseQuery('   ')).toEqual([]);
  });
  it('reads has:, near:, id: and dm-including:', () => {
    expect(parseQuery('has:link near:42 id:7 dm-including:iago@example.com')).toEqual([
      { operator: 'has', operand: 'link' },
      { operator: 'near', operand: '42' },
      { operator: 'id', operand: '7' },
      { operator: 'dm-including', operand: 'iago@example.com' },
    ]);
  });
});

describe('unparseQuery', () => {
  const cases: SearchTerm[][] = [
    [{ operator: 'channel', operand: 'design team' }, { operator: 'topic', operand: 'a+b "c" 100%' }],
    [{ operator: 'is', operand: 'starred', negated: true }, { operator: 'search', operand: 'two words' }],
    [{ operator: 'dm', operand: 'iago@example.com,cordelia+x@example.com' }],
    [{ operator: 'sender', operand: 'me' }, { operator: 'has', operand: 'image' }],
    [{ operator: 'search', operand: 'hello' }, { operator: 'channel', operand: 'C++ & more' }],
  ];
  it.each(cases.map((c) => [unparseQuery(c), c] as const))('round-trips %s', (_text, terms) => {
    expect(parseQuery(unparseQuery(terms))).toEqual(terms);
  });
  it('writes the family form', () => {
    expect(unparseQuery([{ operator: 'channel', operand: 'design team' }, { operator: 'is', operand: 'unread', negated: true }, { operator: 'search', operand: 'x y' }])).toBe('channel:design+team -is:unread x y');
  });
});

describe('to and from the hash', () => {
  it('resolves names and emails to the hash operands', () => {
    expect(toNarrowTerms(parseQuery('channel:design+team topic:x sender:iago@example.com'), dir)).toEqual([
      { operator: 'channel', operand: '15-design-team' },
      { operator: 'topic', operand: 'x' },
      { operator: 'sender', operand: '5-Iago' },
    ]);
    expect(toNarrowTerms(parseQuery('dm:cordelia+x@example.com,iago@example.com'), dir)).toEqual([{ operator: 'dm', operand: '5,7-group' }]);
    expect(toNarrowTerms(parseQuery('dm:iago@example.com'), dir)).toEqual([{ operator: 'dm', operand: '5-Iago' }]);
    expect(toNarrowTerms(parseQuery('sender:me'), dir)).toEqual([{ operator: 'sender', operand: '1-Me-Myself' }]);
  });
  it('takes a person typed by name when the directory can tell who it is', () => {
    const named: Directory = { ...dir, userByName: (n) => users.find((u) => u.name.toLowerCase() === n.toLowerCase()) };
    expect(toNarrowTerms(parseQuery('sender:iago lunch'), named)).toEqual([
      { operator: 'sender', operand: '5-Iago' },
      { operator: 'search', operand: 'lunch' },
    ]);
    expect(toNarrowTerms(parseQuery('dm:iago'), named)).toEqual([{ operator: 'dm', operand: '5-Iago' }]);
    expect(toNarrowTerms(parseQuery('sender:nobody'), named)).toEqual([{ operator: 'sender', operand: 'nobody' }]);
  });
  it('keeps what it cannot resolve', () => {
    expect(toNarrowTerms(parseQuery('channel:nowhere dm:who@x.y'), dir)).toEqual([
      { operator: 'channel', operand: 'nowhere' },
      { operator: 'dm', operand: 'who@x.y' },
    ]);
  });
  const hashes = [
    '#narrow/channel/12-general/topic/lunch',
    '#narrow/channel/15-design-team/-is/starred/search/two.20words',
    '#narrow/dm/5,7-group',
    '#narrow/sender/5-Iago/has/link',
    '#narrow/is/mentioned',
    '#narrow/channel/20-C.2B.2B-.26-more/near/42',
    '#narrow/dm-including/7-Cordelia-Lear',
  ];
  it.each(hashes)('round-trips %s through the box', (hash) => {
    const view = parseHash(hash);
    if (view.kind !== 'narrow') throw new Error('not a narrow');
    const text = unparseQuery(fromNarrowTerms(view.terms, dir));
    const back: NarrowTerm[] = toNarrowTerms(parseQuery(text), dir);
    expect(back).toEqual(view.terms);
    expect(parseHash(viewHash({ kind: 'narrow', terms: back }))).toEqual(view);
  });
  it('shows the box text of a narrow', () => {
    const view = parseHash('#narrow/channel/15-design-team/topic/a.20b/-sender/5-Iago');
    if (view.kind !== 'narrow') throw new Error('not a narrow');
    expect(unparseQuery(fromNarrowTerms(view.terms, dir))).toBe('channel:design+team topic:a+b -sender:iago@example.com');
  });
  it('collects the search words', () => {
    expect(searchWords([{ operator: 'channel', operand: 'x' }, { operator: 'search', operand: 'hello there' }])).toBe('hello there');
  });
});
