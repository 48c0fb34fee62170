// Connection-string helpers. Kept apart from index.ts so that prisma.config.ts, the migration
// runner and child processes can use them without loading the generated client (which does
// not exist before the first `prisma generate`).

/**
 * Local PostgreSQL with trust auth. `postgres` is the role that exists on every install and
 * may create databases, which ensureDatabase() and the test helpers need.
 */
export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/chat';

export function databaseUrl(): string {
  return process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
}

/** The database name in a postgres:// URL. */
export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!name) throw new Error(`no database name in ${redactUrl(url)}`);
  return name;
}

/** The same server and credentials, another database. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(name)}`;
  return u.toString();
}

/** For error messages and logs: never print a password. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<invalid database url>';
  }
}
