/**
 * `npm run manage -- send-password-reset`: the link goes through the same mail queue the pages
 * use, and the running service's worker sends it.
 */
import { runCommand } from '../cli/commands';
import { readMailLog, tempMailDir } from './mail-log';
import { startHarness, type Harness } from './support';

let h: Harness;
let mailDir: string;

beforeAll(async () => {
  mailDir = tempMailDir();
  h = await startHarness({ EMAIL_LOG_DIR: mailDir, EMAIL_RETRY_BASE_MS: '50' });
});
afterAll(() => h?.close());

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const { db, redis, config } = h.app.services;
  const code = await runCommand({ db, redis, config }, argv, (l) => out.push(l), (l) => err.push(l));
  return { code, out: out.join('\n'), err: err.join('\n') };
}

it('mails a reset link, and refuses bots and unknown people', async () => {
  const res = await run('send-password-reset', '--email', h.realm.member.email);
  expect(res).toEqual({ code: 0, out: `Password reset link sent to ${h.realm.member.email}`, err: '' });
  let mail;
  for (let i = 0; i < 100 && !mail; i++) {
    mail = (await readMailLog(mailDir)).find((m) => m.to === h.realm.member.email);
    if (!mail) await new Promise((r) => setTimeout(r, 100));
  }
  expect(mail!.subject).toBe('Reset your password for Test Organization');
  expect(mail!.text).toMatch(/http:\/\/127\.0\.0\.1:9991\/accounts\/password\/reset\/[A-Za-z0-9_-]+\/[A-Za-z0-9]{32}\//);
  expect((await run('send-password-reset', '--email', h.realm.bot.email)).err).toContain('is a bot');
  expect((await run('send-password-reset', '--email', 'nobody@chat.test')).code).toBe(1);
  expect((await run('send-password-reset')).err).toContain('--email is required');
});
