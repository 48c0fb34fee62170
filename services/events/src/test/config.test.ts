import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { SERVICE_NODE_ARGS } from '@chat/contracts';
import { ensureBuilt } from '@chat/testing';

// The compiled service, as production starts it: a bad setting stops it before it connects to
// anything, with one line saying which setting and why.
const root = path.resolve(__dirname, '../../../..');

function startWith(env: Record<string, string>) {
  return spawnSync(process.execPath, [...SERVICE_NODE_ARGS.events, 'services/events/dist/main.js'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'test', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
}

beforeAll(() => ensureBuilt());

it.each([
  ['STREAM_PARTITIONS', 'abc'],
  ['STREAM_PARTITIONS', '0'],
  ['LOG_LEVEL', 'loud'],
  ['DATABASE_POOL_SIZE', '-1'],
])('refuses to start with %s=%s', (name, value) => {
  const res = startWith({ [name]: value });
  expect(res.status).toBe(1);
  expect(res.stderr).toMatch(new RegExp(`^events: Invalid configuration: ${name}: `));
  expect(res.stdout).toBe('');
});
