import { parseArgs } from 'node:util';
import { ApiError, BOT_TYPE, ROLE } from '@chat/contracts';
import { doCreateRealm } from '@chat/realm';
import type { Services } from '../context';
import { doRegenerateApiKey } from '../actions/api-keys';
import { doCreateCheckedUser } from '../actions/create-user';
import { fakeEmailDomain } from '../lib/emails';
import { JWT_ALGORITHMS } from '../actions/jwt';
import { doSetPassword } from '../actions/password-login';
import { doSendPasswordReset } from '../actions/password-reset';
import { sendPasswordResetMail } from './mail';
import { registerPushServer } from './push-relay';
import { realmSiteUrl, zuliprc } from './site';

export type CliServices = Pick<Services, 'db' | 'redis' | 'config'> & Partial<Pick<Services, 'mail'>>;

export class UsageError extends Error {}

const ROLE_BY_NAME: Record<string, number> = {
  owner: ROLE.OWNER,
  administrator: ROLE.ADMINISTRATOR,
  admin: ROLE.ADMINISTRATOR,
  moderator: ROLE.MODERATOR,
  member: ROLE.MEMBER,
  guest: ROLE.GUEST,
};

interface Command {
  usage: string;
  summary: string;
  run(services: CliServices, args: string[], out: (line: string) => void): Promise<void>;
}

function parse(args: string[], options: Record<string, { type: 'string' | 'boolean' }>) {
  try {
    return parseArgs({ args, options, allowPositionals: false, strict: true }).values as Record<string, string | boolean | undefined>;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function required(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

async function findRealm(services: CliServices, stringId: string) {
  const realm = await services.db.realm.findUnique({ where: { stringId } });
  if (!realm) throw new UsageError(`No realm with string id ${JSON.stringify(stringId)}`);
  return realm;
}

async function findUser(services: CliServices, realmId: number, email: string) {
  const user = await services.db.user.findFirst({
    where: { realmId, OR: [{ email: { equals: email, mode: 'insensitive' } }, { deliveryEmail: { equals: email, mode: 'insensitive' } }] },
  });
  if (!user) throw new UsageError(`No user ${email} in this realm`);
  return user;
}

export const COMMANDS: Record<string, Command> = {
  'create-realm': {
    usage: '--string-id <subdomain, "" for the root realm> --name <name> [--description <text>]',
    summary: 'create an organization with its system groups',
    async run(services, args, out) {
      const v = parse(args, { 'string-id': { type: 'string' }, name: { type: 'string' }, description: { type: 'string' } });
      const stringId = typeof v['string-id'] === 'string' ? v['string-id'].toLowerCase() : undefined;
      if (stringId === undefined) throw new UsageError('--string-id is required');
      if (stringId && !/^[a-z0-9][a-z0-9-]{0,39}$/.test(stringId)) throw new UsageError('--string-id: letters, digits and dashes only');
      const name = required(v, 'name').trim();
      if (await services.db.realm.findUnique({ where: { stringId } })) throw new UsageError(`A realm with string id ${JSON.stringify(stringId)} exists`);
      const realm = await doCreateRealm(services.db, { stringId, name, description: typeof v.description === 'string' ? v.description : '' });
      out(`Created realm ${realm.id} (${realm.name}) at ${realmSiteUrl(stringId, services.config)}`);
    },
  },
  'create-user': {
    usage: '--email <email> --full-name <name> [--realm <string id>] [--role owner|administrator|moderator|member|guest] [--bot --owner <email>]',
    summary: 'create a user (or a generic bot) and print its zuliprc',
    async run(services, args, out) {
      const v = parse(args, {
        realm: { type: 'string' }, email: { type: 'string' }, 'full-name': { type: 'string' },
        role: { type: 'string' }, bot: { type: 'boolean' }, owner: { type: 'string' },
      });
      const realm = await findRealm(services, typeof v.realm === 'string' ? v.realm : '');
      const roleName = typeof v.role === 'string' ? v.role : 'member';
      const role = ROLE_BY_NAME[roleName];
      if (role === undefined) throw new UsageError(`--role must be one of ${Object.keys(ROLE_BY_NAME).join(', ')}`);
      const isBot = v.bot === true;
      const owner = isBot && typeof v.owner === 'string' ? await findUser(services, realm.id, v.owner) : null;
      if (isBot && !owner) throw new UsageError('--bot needs --owner <email of a user>');
      const site = realmSiteUrl(realm.stringId, services.config);
      const user = await doCreateCheckedUser(services.db, {
        realmId: realm.id,
        email: required(v, 'email'),
        fullName: required(v, 'full-name'),
        role,
        isBot,
        botType: isBot ? BOT_TYPE.GENERIC : null,
        botOwnerId: owner?.id ?? null,
        fakeEmailDomain: fakeEmailDomain(site),
      }, site);
      out(`Created user ${user.id} (${user.deliveryEmail}, role ${roleName})`);
      out(zuliprc(user, site).trimEnd());
    },
  },
  'reset-api-key': {
    usage: '--email <email> [--realm <string id>]',
    summary: 'give a user a new API key; the old one stops working at once',
    async run(services, args, out) {
      const v = parse(args, { realm: { type: 'string' }, email: { type: 'string' } });
      const realm = await findRealm(services, typeof v.realm === 'string' ? v.realm : '');
      const user = await findUser(services, realm.id, required(v, 'email'));
      const key = await doRegenerateApiKey(services, user);
      out(`New API key for ${user.deliveryEmail}: ${key}`);
    },
  },
  'set-jwt-key': {
    usage: '--key <secret or PEM public key> [--realm <string id>] [--algorithms HS256,...] | --disable',
    summary: 'let the realm accept JSON Web Tokens at /jwt/fetch_api_key (or stop accepting them)',
    async run(services, args, out) {
      const v = parse(args, { realm: { type: 'string' }, key: { type: 'string' }, algorithms: { type: 'string' }, disable: { type: 'boolean' } });
      const realm = await findRealm(services, typeof v.realm === 'string' ? v.realm : '');
      if (v.disable === true) {
        await services.db.realmJwtConfig.deleteMany({ where: { realmId: realm.id } });
        out(`JWT login disabled for realm ${realm.id}`);
        return;
      }
      const key = required(v, 'key');
      const algorithms = (typeof v.algorithms === 'string' ? v.algorithms : 'HS256').split(',').map((a) => a.trim()).filter(Boolean);
      const unknown = algorithms.filter((a) => !(JWT_ALGORITHMS as readonly string[]).includes(a));
      if (!algorithms.length || unknown.length) throw new UsageError(`--algorithms must be among ${JWT_ALGORITHMS.join(', ')}`);
      await services.db.realmJwtConfig.upsert({ where: { realmId: realm.id }, create: { realmId: realm.id, key, algorithms }, update: { key, algorithms } });
      out(`JWT login enabled for realm ${realm.id} (${algorithms.join(', ')})`);
    },
  },
  'grant-permission': {
    usage: '--email <email> --permission can_change_user_emails [--realm <string id>] [--revoke]',
    summary: 'grant (or revoke) a special permission no role gives',
    async run(services, args, out) {
      const v = parse(args, { realm: { type: 'string' }, email: { type: 'string' }, permission: { type: 'string' }, revoke: { type: 'boolean' } });
      if (v.permission !== 'can_change_user_emails') throw new UsageError('--permission must be can_change_user_emails');
      const realm = await findRealm(services, typeof v.realm === 'string' ? v.realm : '');
      const user = await findUser(services, realm.id, required(v, 'email'));
      const value = v.revoke !== true;
      await services.db.userSpecialPermission.upsert({ where: { userId: user.id }, create: { userId: user.id, canChangeUserEmails: value }, update: { canChangeUserEmails: value } });
      out(`${value ? 'Granted' : 'Revoked'} can_change_user_emails ${value ? 'to' : 'from'} ${user.deliveryEmail}`);
    },
  },
  'set-password': {
    usage: '--email <email> [--realm <string id>] (--password-stdin | --password <password>)',
    summary: "set a person's login password (first line of standard input, or --password, which other users of the machine may see)",
    async run(services, args, out) {
      const v = parse(args, { realm: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, 'password-stdin': { type: 'boolean' } });
      if ((v['password-stdin'] === true) === (typeof v.password === 'string')) throw new UsageError('give exactly one of --password-stdin and --password');
      const realm = await findRealm(services, typeof v.realm === 'string' ? v.realm : '');
      const user = await findUser(services, realm.id, required(v, 'email'));
      if (user.isBot) throw new UsageError(`${user.deliveryEmail} is a bot; bots log in with their API key`);
      const password = typeof v.password === 'string' ? v.password : await firstLineOfStdin();
      await doSetPassword(services, user.id, password);
      out(`Password set for ${user.deliveryEmail}`);
    },
  },
  'send-password-reset': {
    usage: '--email <email> [--realm <string id>]',
    summary: 'mail a person a link to set a new password (sent by the users service\'s mail worker)',
    async run(services, args, out) {
      const v = parse(args, { realm: { type: 'string' }, email: { type: 'string' } });
      const realm = await findRealm(services, typeof v.realm === 'string' ? v.realm : '');
      const user = await findUser(services, realm.id, required(v, 'email'));
      if (user.isBot || !user.isActive) throw new UsageError(`${user.deliveryEmail} is ${user.isBot ? 'a bot' : 'deactivated'}`);
      await sendPasswordResetMail(services, (mail) => doSendPasswordReset({ ...services, mail }, { id: realm.id, url: realmSiteUrl(realm.stringId, services.config) }, user.deliveryEmail, { limit: false }));
      out(`Password reset link sent to ${user.deliveryEmail}`);
    },
  },
  'register-push-server': registerPushServer,
  zuliprc: {
    usage: '--email <email> [--realm <string id>]',
    summary: "print a user's zuliprc (email, API key, site)",
    async run(services, args, out) {
      const v = parse(args, { realm: { type: 'string' }, email: { type: 'string' } });
      const realm = await findRealm(services, typeof v.realm === 'string' ? v.realm : '');
      const user = await findUser(services, realm.id, required(v, 'email'));
      if (!user.isActive) throw new UsageError(`${user.deliveryEmail} is deactivated`);
      out(zuliprc(user, realmSiteUrl(realm.stringId, services.config)).trimEnd());
    },
  },
};

/** The first line of standard input, without its line ending. */
async function firstLineOfStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/, 1)[0] ?? '';
}

export function usage(): string {
  const lines = ['Usage: npm run manage -- <command> [options]', '', 'Commands:'];
  for (const [name, c] of Object.entries(COMMANDS)) lines.push(`  ${name} ${c.usage}`, `      ${c.summary}`);
  // Run by the messaging service's command line (scripts/manage.mjs routes it there).
  lines.push('  rerender-messages [--batch-size N] [--realm STRING_ID]', '      Render stored messages again with the current renderer (after an upgrade that changes it)');
  return lines.join('\n');
}

/** Runs one command; returns the process exit code. */
export async function runCommand(services: CliServices, argv: string[], out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help') {
    out(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    err(`Unknown command ${name}\n\n${usage()}`);
    return 2;
  }
  try {
    await command.run(services, rest, out);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) err(`${name}: ${e.message}\nUsage: npm run manage -- ${name} ${command.usage}`);
    else if (e instanceof ApiError) err(`${name}: ${e.message}`);
    else throw e;
    return 1;
  }
}
