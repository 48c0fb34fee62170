import { actionFor, BINDINGS, type KeyPress } from '../keymap';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({ key, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...mods });

describe('actionFor', () => {
  it('maps the family\'s keys', () => {
    expect(actionFor(press('c'))).toBe('compose_channel');
    expect(actionFor(press('x'))).toBe('compose_dm');
    expect(actionFor(press('r'))).toBe('reply');
    expect(actionFor(press('Enter'))).toBe('reply');
    expect(actionFor(press('j'))).toBe('next_message');
    expect(actionFor(press('ArrowUp'))).toBe('prev_message');
    expect(actionFor(press('/'))).toBe('search');
    expect(actionFor(press('?', { shiftKey: true }))).toBe('help');
    expect(actionFor(press('*', { shiftKey: true }))).toBe('star');
    expect(actionFor(press('M', { shiftKey: true }))).toBe('mute_topic');
    expect(actionFor(press('Escape'))).toBe('escape');
  });
  it('leaves keys with Ctrl, Alt or Meta, and shifted letters, alone', () => {
    expect(actionFor(press('c', { ctrlKey: true }))).toBeUndefined();
    expect(actionFor(press('r', { metaKey: true }))).toBeUndefined();
    expect(actionFor(press('j', { altKey: true }))).toBeUndefined();
    expect(actionFor(press('R', { shiftKey: true }))).toBeUndefined();
    expect(actionFor(press('z'))).toBeUndefined();
  });
  it('has help for every action it maps', () => {
    const helped = new Set(BINDINGS.map((b) => b.action));
    for (const key of ['/', '?', 'Escape', 'n', 'p', 't', 'q', 'w', 'j', 'k', 'PageDown', 'PageUp', 'Home', 'End', 'r', '*', 'e', '+', 'c', 'x']) {
      const a = actionFor(press(key, { shiftKey: ['?', '*', '+'].includes(key) }));
      expect(a && helped.has(a)).toBe(true);
    }
  });
});
