/**
 * CPU time the cluster's processes, Postgres, Redis and the bench's own load spend, read from /proc: how much CPU a
 * send costs each part of the system. Unlike a rate, it changes little with how busy the machine
 * is, so it says what bounds throughput on any machine.
 */
import { readdirSync, readFileSync } from 'node:fs';

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
  /**
   * CPU milliseconds so far, for what is not one process of ours to read (Redis, the bench
   * itself), or per process of a changing set (Postgres's server processes), counted per process
   * so that one leaving takes none of the others' CPU with it.
   */
  read?: () => number | Promise<number> | Map<number, number>;
}

/**
 * CPU so far of each Postgres server process on this machine (comm "postgres": the backends,
 * those that open during a phase included, and the WAL writer, checkpointer and the rest), in
 * milliseconds by pid. A backend that exits during a phase (a pool shrinking) is left out.
 */
export function postgresServerCpuMs(): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') out.set(Number(entry), cpuMsOf(Number(entry)));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** CPU milliseconds each label (processes of one label summed) spent while `work` ran. */
export async function cpuDuring<T>(processes: Measured[], work: () => Promise<T>): Promise<{ result: T; cpuMs: Record<string, number> }> {
  const read = (p: Measured) => (p.read ? p.read() : cpuMsOf(p.pid));
  const before = await Promise.all(processes.map(read));
  const result = await work();
  const after = await Promise.all(processes.map(read));
  const spent = (b: number | Map<number, number>, a: number | Map<number, number>): number => {
    if (typeof a === 'number' || typeof b === 'number') return Math.max(0, Number(a) - Number(b));
    // A process that started meanwhile spent all of its CPU in the phase; one that ended is left out.
    let sum = 0;
    for (const [pid, ms] of a) sum += Math.max(0, ms - (b.get(pid) ?? 0));
    return sum;
  };
  const cpuMs: Record<string, number> = {};
  processes.forEach((p, i) => {
    cpuMs[p.label] = (cpuMs[p.label] ?? 0) + spent(before[i]!, after[i]!);
  });
  return { result, cpuMs };
}

/**
 * Redis's own CPU so far (INFO's used_cpu_sys + used_cpu_user), in milliseconds: shared with
 * anyone else using that Redis, so read over a phase that has it to itself.
 */
export async function redisCpuMs(redis: { info(section: string): Promise<string> }): Promise<number> {
  const info = await redis.info('cpu');
  const field = (k: string) => Number(new RegExp(`^${k}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return (field('used_cpu_sys') + field('used_cpu_user')) * 1000;
}

/** This process's CPU so far (the bench's own bookkeeping), in milliseconds. */
export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
