import { estimateLog10Guesses, passwordStrength } from '../lib/password';

const rules = { minLength: 6, maxLength: 100, minGuesses: 10000 };

describe('password strength', () => {
  it('names what is wrong', () => {
    expect(passwordStrength('', rules).problem).toBe('empty');
    expect(passwordStrength('ab1', rules).problem).toBe('too_short');
    expect(passwordStrength('x'.repeat(101), rules).problem).toBe('too_long');
    expect(passwordStrength('aaaaaa', rules).problem).toBe('too_guessable');
  });

  it('counts well-known words and runs as little', () => {
    expect(estimateLog10Guesses('password1')).toBeLessThan(estimateLog10Guesses('pq7#kz!2w'));
    expect(estimateLog10Guesses('abcdefgh')).toBeLessThan(estimateLog10Guesses('qmwzrtpv'));
  });

  it('rates a long mixed password strong and accepts it', () => {
    const s = passwordStrength('correct-Horse-battery-9-staple', rules);
    expect(s.problem).toBeUndefined();
    expect(s.score).toBe(4);
  });

  it('never shows more than "weak" for a password the rules refuse', () => {
    expect(passwordStrength('Zq9#x', rules).score).toBeLessThanOrEqual(1);
  });
});
