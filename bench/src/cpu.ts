/**
 * CPU time the cluster's processes and Postgres's backends spend, read from /proc: how much CPU a
 * send costs each part of the system. Unlike a rate, it changes little with how busy the machine
 * is, so it says what bounds throughput on any machine.
 */
import { readFileSync } from 'node:fs';
import type { Db } from '@chat/db';

const TICKS_PER_MS = 100 / 1000; // USER_HZ is 100 on Linux

/** User plus system CPU time of a process so far, in milliseconds (0 once it has exited). */
export function cpuMsOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0;
  }
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_MS;
}

export interface Measured {
  label: string;
  pid?: number;
}

/** Postgres's backends serving `db`'s database now, as one entry per backend. */
export async function postgresBackends(db: Db): Promise<Measured[]> {
  const rows = await db.$queryRawUnsafe<Array<{ pid: number }>>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  return rows.map((r) => ({ label: 'postgres', pid: r.pid }));
}

/** CPU milliseconds each label (processes of one label summed) spent while `work` ran. */
export async function cpuDuring<T>(processes: Measured[], work: () => Promise<T>): Promise<{ result: T; cpuMs: Record<string, number> }> {
  const before = processes.map((p) => cpuMsOf(p.pid));
  const result = await work();
  const cpuMs: Record<string, number> = {};
  processes.forEach((p, i) => {
    cpuMs[p.label] = (cpuMs[p.label] ?? 0) + Math.max(0, cpuMsOf(p.pid) - before[i]!);
  });
  return { result, cpuMs };
}
