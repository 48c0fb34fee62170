import { baseConfigSchema, ConfigError, configOrExit, DEFAULT_STREAM_PARTITIONS, loadConfig, realmUrlFor } from '..';

// Settings that packages used to read from the environment themselves: now every service reads
// them through its validated config, so a bad value stops it at start.
describe('the shared configuration', () => {
  it('has defaults for what packages used to read from the environment', () => {
    const c = load({});
    expect(c.STREAM_PARTITIONS).toBe(DEFAULT_STREAM_PARTITIONS);
    expect(c.DATABASE_POOL_SIZE).toBe(10);
    expect(c.SERVICE_NAME).toBe('chat');
    expect(c.LOG_LEVEL).toBe('info');
    expect(c.REDIS_PREFIX).toBe('chat:');
    expect(load({ STREAM_PARTITIONS: '16', DATABASE_POOL_SIZE: '4', SERVICE_NAME: 'events-a', LOG_LEVEL: 'warn' })).toMatchObject({
      STREAM_PARTITIONS: 16,
      DATABASE_POOL_SIZE: 4,
      SERVICE_NAME: 'events-a',
      LOG_LEVEL: 'warn',
    });
  });

  it.each([
    ['STREAM_PARTITIONS', 'abc'],
    ['STREAM_PARTITIONS', '0'],
    ['STREAM_PARTITIONS', '2.5'],
    ['STREAM_PARTITIONS', '1025'],
    ['DATABASE_POOL_SIZE', 'lots'],
    ['DATABASE_POOL_SIZE', '0'],
    ['LOG_LEVEL', 'loud'],
    ['SERVICE_NAME', 'two words'],
    ['REDIS_PREFIX', '{chat}:'],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(ConfigError);
    expect(() => load({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name}: `));
  });
});

describe('configOrExit', () => {
  it('returns a valid configuration', () => {
    expect(configOrExit('svc', () => load({ LOG_LEVEL: 'debug' })).LOG_LEVEL).toBe('debug');
  });

  it('prints the reason and exits 1 on an invalid one, before anything else runs', () => {
    const lines: string[] = [];
    const exit = jest.fn((code: number): never => {
      throw new Error(`exit ${code}`);
    });
    expect(() => configOrExit('events', () => load({ STREAM_PARTITIONS: 'abc' }), exit, (l) => lines.push(l))).toThrow('exit 1');
    expect(exit).toHaveBeenCalledWith(1);
    expect(lines).toEqual([expect.stringMatching(/^events: Invalid configuration: STREAM_PARTITIONS: .*\n$/)]);
  });

  it('lets other errors through', () => {
    const exit = jest.fn((): never => {
      throw new Error('exited');
    });
    expect(() => configOrExit('svc', () => { throw new TypeError('bug'); }, exit)).toThrow(TypeError);
    expect(exit).not.toHaveBeenCalled();
  });
});

function load(env: Record<string, string>) {
  return loadConfig(baseConfigSchema, env);
}

it('gives a realm one URL, the root realm its bare host whatever its id', () => {
  const site = { EXTERNAL_SCHEME: 'https' as const, EXTERNAL_HOST: 'chat.example.com:8443', ROOT_REALM: 'zulip' };
  expect(realmUrlFor(site, 'zulip')).toBe('https://chat.example.com:8443');
  expect(realmUrlFor(site, 'lear')).toBe('https://lear.chat.example.com:8443');
  expect(realmUrlFor({ ...site, ROOT_REALM: '' }, '')).toBe('https://chat.example.com:8443');
});
