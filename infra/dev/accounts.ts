/**
 * Development sign-in: every seeded person of the development realm gets the machine's
 * development password (made once, kept in .data/dev-password), so the web app can be tried
 * at once; `npm start` prints it with the accounts. People who set a password of their own
 * keep it. Never used outside `npm start`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createDb } from '@chat/db';
import { hashPassword, verifyPassword } from '../../services/users/src/lib/passwords';

export function developmentPassword(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'dev-password');
  // Four groups of letters: strong by zxcvbn's measure, easy to type from the terminal.
  if (!existsSync(file)) writeFileSync(file, `${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x').match(/.{4}/g)!.join('-')}\n`, { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

export interface DevAccount {
  email: string;
  fullName: string;
  role: string;
}

const ROLE_NAMES: Record<number, string> = { 100: 'owner', 200: 'administrator', 300: 'moderator', 400: 'member', 600: 'guest' };

/** Sets the development password where a seeded person has none; answers who signs in with it. */
export async function ensureDevelopmentPasswords(databaseUrl: string, password: string): Promise<DevAccount[]> {
  const db = createDb(databaseUrl, { poolSize: 1 });
  try {
    const people = await db.user.findMany({ where: { realm: { stringId: '' }, isActive: true, isBot: false }, orderBy: { id: 'asc' } });
    const unset = people.filter((p) => p.passwordHash === null);
    if (unset.length) {
      const hash = await hashPassword(password);
      await db.user.updateMany({ where: { id: { in: unset.map((p) => p.id) } }, data: { passwordHash: hash } });
    }
    const accounts: DevAccount[] = [];
    for (const p of people) {
      if (p.passwordHash === null || (await verifyPassword(password, p.passwordHash))) accounts.push({ email: p.deliveryEmail, fullName: p.fullName, role: ROLE_NAMES[p.role] ?? String(p.role) });
    }
    return accounts;
  } finally {
    await db.$disconnect();
  }
}
