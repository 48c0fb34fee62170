import { applyFormat, enterSends, formatForKey, type TextState } from '../format';

const sel = (value: string, a: string): TextState => {
  const start = value.indexOf(a);
  return { value, start, end: start + a.length };
};
const text = (s: TextState) => s.value.slice(s.start, s.end);

describe('formatting', () => {
  it('wraps and unwraps bold and italic', () => {
    const bold = applyFormat('bold', sel('say hi now', 'hi'));
    expect(bold.value).toBe('say **hi** now');
    expect(text(bold)).toBe('hi');
    expect(applyFormat('bold', bold).value).toBe('say hi now');
    expect(applyFormat('bold', sel('say **hi** now', '**hi**')).value).toBe('say hi now');
    const italic = applyFormat('italic', sel('say hi', 'hi'));
    expect(italic.value).toBe('say *hi*');
    expect(applyFormat('italic', italic).value).toBe('say hi');
    // Italic inside bold adds a marker rather than eating half of the bold's.
    expect(applyFormat('italic', { value: '**hi**', start: 2, end: 4 }).value).toBe('***hi***');
    expect(applyFormat('italic', { value: '***hi***', start: 3, end: 5 }).value).toBe('**hi**');
  });
  it('puts the cursor between empty markers', () => {
    expect(applyFormat('bold', { value: 'a ', start: 2, end: 2 })).toEqual({ value: 'a ****', start: 4, end: 4 });
    expect(applyFormat('strikethrough', sel('x', 'x')).value).toBe('~~x~~');
  });
  it('makes links with the url selected, or the words to type', () => {
    const link = applyFormat('link', sel('see docs', 'docs'));
    expect(link.value).toBe('see [docs](url)');
    expect(text(link)).toBe('url');
    expect(applyFormat('link', sel('go https://x.org', 'https://x.org'))).toEqual({ value: 'go [](https://x.org)', start: 4, end: 4 });
    expect(applyFormat('link', { value: '', start: 0, end: 0 })).toEqual({ value: '[](url)', start: 1, end: 1 });
  });
  it('code: inline for one line, a fence otherwise', () => {
    expect(applyFormat('code', sel('run ls now', 'ls')).value).toBe('run `ls` now');
    const block = applyFormat('code', sel('a\nb', 'a\nb'));
    expect(block.value).toBe('```\na\nb\n```');
    expect(text(block)).toBe('a\nb');
    expect(applyFormat('code', { value: 'x', start: 1, end: 1 }).value).toBe('x\n```\n\n```');
  });
  it('quote, spoiler and math fences', () => {
    expect(applyFormat('quote', sel('hello', 'hello')).value).toBe('```quote\nhello\n```');
    const spoiler = applyFormat('spoiler', sel('secret', 'secret'));
    expect(spoiler.value).toBe('```spoiler Header\nsecret\n```');
    expect(text(spoiler)).toBe('Header');
    expect(applyFormat('math', sel('x^2', 'x^2')).value).toBe('$$x^2$$');
    expect(applyFormat('math', { value: '', start: 0, end: 0 }).value).toBe('```math\n\n```');
  });
  it('poll and todo start the message with the title selected', () => {
    const poll = applyFormat('poll', { value: '', start: 0, end: 0 });
    expect(poll.value).toBe('/poll Question\nOption 1\nOption 2');
    expect(text(poll)).toBe('Question');
    const todo = applyFormat('todo', sel('Chores', 'Chores'));
    expect(todo.value).toBe('/todo Chores\nTask 1\nTask 2');
    expect(text(todo)).toBe('Chores');
  });
});

describe('keys', () => {
  const k = (key: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) => ({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });
  it('maps the shortcuts', () => {
    expect(formatForKey(k('b', { ctrlKey: true }))).toBe('bold');
    expect(formatForKey(k('i', { metaKey: true }))).toBe('italic');
    expect(formatForKey(k('L', { ctrlKey: true, shiftKey: true }))).toBe('link');
    expect(formatForKey(k('b'))).toBeNull();
  });
  it('follows enter_sends', () => {
    expect(enterSends(k('Enter'), true)).toBe(true);
    expect(enterSends(k('Enter', { shiftKey: true }), true)).toBe(false);
    expect(enterSends(k('Enter', { ctrlKey: true }), true)).toBe(false);
    expect(enterSends(k('Enter'), false)).toBe(false);
    expect(enterSends(k('Enter', { ctrlKey: true }), false)).toBe(true);
    expect(enterSends(k('Enter', { metaKey: true }), false)).toBe(true);
    expect(enterSends(k('Enter', { shiftKey: true }), false)).toBe(false);
    expect(enterSends({ ...k('Enter'), isComposing: true }, true)).toBe(false);
  });
});
