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

/**
 * For a service whose queries are short reads and writes of a few rows or one page of history
 * (messaging, register's reads in events): no parallel plans and no JIT compilation. A parallel
 * plan starts worker processes for each query (a history page of a topic took 100 ms that way and
 * 5 ms without, on two busy cores); a JIT compilation costs more than any of these queries runs
 * (register's one-statement read was planned above jit_above_cost and spent 67 ms compiling for
 * 5 ms of work). See ADR 0017. Set as the connections' startup options, so they cost no round trip.
 */
export function withShortQuerySettings(url: string): string {
  return withStartupOptions(url, '-c max_parallel_workers_per_gather=0 -c jit=off');
}

/**
 * For a service whose statements are the same few, run again and again with other ids (register's
 * reads in events): Postgres plans each named statement once per connection and keeps the plan,
 * instead of planning afresh on its first five runs with each connection's values. Register's
 * one-statement read of thirty tables took 2–3 ms to plan each time and 3 to run; its plan does
 * not depend on which realm or person it reads, every lookup being by key. It holds for every
 * statement with parameters on these connections, Prisma's unnamed ones too (planned on each run
 * all the same, without looking at the values): use it only where lookups are by key, so that the
 * values would not change the plan. Set as a startup option, so it costs no round trip.
 */
export function withGenericPlans(url: string): string {
  return withStartupOptions(url, '-c plan_cache_mode=force_generic_plan');
}

/** Settings added to the URL's startup `options`, after any it already has. */
function withStartupOptions(url: string, ours: string): string {
  const u = new URL(url);
  u.searchParams.set('options', [u.searchParams.get('options'), ours].filter(Boolean).join(' '));
  return u.toString();
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
