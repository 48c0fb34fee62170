/**
 * The family's OpenAPI, end to end, for channels, subscriptions, topics, messages, flags,
 * reactions, drafts, reminders, scheduled messages and typing: every operation called through
 * the gateway by someone allowed to, on data made by real calls, answers success with a body
 * its response schema accepts. Also checks the operation tables cover the whole file.
 */
import { Contract } from './lib/contract';
import { operations } from './lib/openapi';
import { EXCLUDED, MESSAGING_OPERATIONS, testOperations, USERS_OPERATIONS } from './lib/operations';
import { PENDING } from './lib/pending';

const c = new Contract();
beforeAll(() => c.start(), 180000);
afterAll(() => c.stop());

describe('the operation tables', () => {
  const inFile = operations().map((o) => `${o.method} ${o.path}`);
  const tabled = [...Object.keys(MESSAGING_OPERATIONS), ...Object.keys(USERS_OPERATIONS)];

  it('cover every operation of the OpenAPI file, each once, called or excluded with a reason', () => {
    const covered = [...tabled, ...Object.keys(EXCLUDED)];
    expect(inFile.filter((k) => !covered.includes(k))).toEqual([]);
    expect(covered.filter((k, i) => covered.indexOf(k) !== i)).toEqual([]);
    for (const reason of Object.values(EXCLUDED)) expect(reason.length).toBeGreaterThan(0);
  });

  it('name only operations of the file, and PENDING only tabled ones', () => {
    expect([...tabled, ...Object.keys(EXCLUDED)].filter((k) => !inFile.includes(k))).toEqual([]);
    expect([...PENDING].filter((k) => /^[A-Z]+ \//.test(k) && !tabled.includes(k))).toEqual([]);
  });
});

describe('messaging operations answer as the OpenAPI file says', () => {
  testOperations(c, MESSAGING_OPERATIONS);
});
