import { saveStateText } from '../controls/SaveState';

describe('save state in words', () => {
  it('says what happened to a change', () => {
    expect(saveStateText({ kind: 'idle' })).toBe('');
    expect(saveStateText({ kind: 'saving' })).toBe('Saving…');
    expect(saveStateText({ kind: 'saved' })).toBe('Saved');
    expect(saveStateText({ kind: 'error', message: 'Name changes are disabled in this organization.' })).toBe('Not saved: Name changes are disabled in this organization.');
    expect(saveStateText({ kind: 'unconfirmed' })).toMatch(/accepted the change/);
  });
});
