/**
 * A quick estimate of how hard a password is to guess, for feedback while typing (the server
 * has the last word: it checks `password_min_length` and `password_min_guesses` itself). The
 * estimate is the size of the alphabet used to the power of the length, cut down for repeated
 * characters, runs, and words everyone tries first.
 */
const COMMON = ['password', 'passw0rd', 'qwerty', 'letmein', 'welcome', 'admin', 'login', 'abc123', 'iloveyou', 'monkey', 'dragon', 'zulip', '123456', 'secret'];

export type StrengthProblem = 'empty' | 'too_short' | 'too_long' | 'too_guessable';

export interface Strength {
  /** log10 of the estimated number of guesses. */
  log10Guesses: number;
  /** 0 (very weak) … 4 (strong), for the meter. */
  score: 0 | 1 | 2 | 3 | 4;
  problem?: StrengthProblem;
}

export interface PasswordRules {
  minLength: number;
  maxLength: number;
  minGuesses: number;
}

export const DEFAULT_RULES: PasswordRules = { minLength: 6, maxLength: 100, minGuesses: 10000 };

function alphabetSize(pw: string): number {
  let size = 0;
  if (/[a-z]/.test(pw)) size += 26;
  if (/[A-Z]/.test(pw)) size += 26;
  if (/[0-9]/.test(pw)) size += 10;
  if (/[^a-zA-Z0-9]/.test(pw)) size += 33;
  return size;
}

/** Length that counts: repeats of one character and simple runs (abc, 123) count once. */
function effectiveLength(pw: string): number {
  let n = 0;
  for (let i = 0; i < pw.length; i++) {
    const prev = pw.charCodeAt(i - 1);
    const cur = pw.charCodeAt(i);
    if (i > 0 && (cur === prev || cur === prev + 1 || cur === prev - 1)) n += 0.25;
    else n += 1;
  }
  return n;
}

export function estimateLog10Guesses(pw: string): number {
  if (!pw) return 0;
  const lower = pw.toLowerCase();
  let length = effectiveLength(pw);
  for (const word of COMMON) {
    // A well-known word counts as a single symbol of a large dictionary.
    if (lower.includes(word)) length -= word.length - 1;
  }
  length = Math.max(1, length);
  return length * Math.log10(Math.max(alphabetSize(pw), 10));
}

export function passwordStrength(pw: string, rules: PasswordRules = DEFAULT_RULES): Strength {
  const log10Guesses = estimateLog10Guesses(pw);
  const score = (log10Guesses < 3 ? 0 : log10Guesses < 6 ? 1 : log10Guesses < 8 ? 2 : log10Guesses < 10 ? 3 : 4) as Strength['score'];
  let problem: StrengthProblem | undefined;
  if (!pw) problem = 'empty';
  else if (pw.length < rules.minLength) problem = 'too_short';
  else if (pw.length > rules.maxLength) problem = 'too_long';
  else if (log10Guesses < Math.log10(Math.max(rules.minGuesses, 1))) problem = 'too_guessable';
  return { log10Guesses, score: problem && score > 1 ? 1 : score, problem };
}
