/**
 * The machine probe beside the delivery and register phases (workers/probe.mjs): a sleeping
 * process's wake-up lag and a trivial commit's latency beside the cluster, so that a slow message
 * or register can be told apart from a moment when everything on the machine was slow.
 */
import { startLoad } from './workers';
import { summary } from './api';

export interface ProbeReport {
  lags: Array<[at: number, ms: number]>;
  commits: Array<[at: number, ms: number]>;
  errors: Record<string, number>;
}

export interface MachineProbe {
  ready: Promise<void>;
  stop(): Promise<ProbeReport>;
}

/** A timer lag or a commit at least this long (ms) marks a moment the machine stalled. */
export const STALL_MS = 20;

export function startProbe(databaseUrl: string, limitMs: number): MachineProbe {
  const child = startLoad('probe.mjs', { databaseUrl, tickMs: 10, commitEveryMs: 100, limitMs });
  const empty = (why: string): ProbeReport => ({ lags: [], commits: [], errors: { [why]: 1 } });
  let readied!: () => void;
  const ready = new Promise<void>((resolve) => (readied = resolve));
  const reported = new Promise<ProbeReport>((resolve) => {
    const limit = setTimeout(() => child.kill(), limitMs + 30_000);
    child.on('message', (m: ProbeReport | { ready: true }) => ('ready' in m ? readied() : resolve(m)));
    child.once('exit', () => {
      clearTimeout(limit);
      readied();
      resolve(empty('probe process ended before reporting'));
    });
  });
  return {
    ready,
    stop: () => {
      if (child.connected) child.send('stop');
      return reported;
    },
  };
}

export interface ProbeFigure {
  timerLagP99: number;
  timerLagMax: number;
  commitP50: number;
  commitP99: number;
  commitMax: number;
  /** Probe samples over the window: timer ticks and commits. */
  ticks: number;
  commits: number;
  errors: Record<string, number>;
}

/** The probe's figures as the bench prints them. */
export function describeProbe(p: ProbeFigure): string {
  return `machine probe: timer late p99 ${p.timerLagP99} ms, max ${p.timerLagMax}; commit p50 ${p.commitP50} ms, p99 ${p.commitP99}, max ${p.commitMax}` +
    ` (${p.ticks} ticks, ${p.commits} commits)`;
}

/** The probe's figures over [from, to] (ms since the epoch). */
export function probeFigure(r: ProbeReport, from: number, to: number): ProbeFigure {
  const within = (list: Array<[number, number]>) => list.filter(([at]) => at >= from && at <= to).map(([, ms]) => ms);
  const lags = within(r.lags);
  const commits = within(r.commits);
  const l = summary(lags);
  const c = summary(commits);
  const max = (xs: number[]) => Math.round(Math.max(0, ...xs) * 100) / 100;
  return {
    timerLagP99: l.p99, timerLagMax: max(lags), commitP50: c.p50, commitP99: c.p99, commitMax: max(commits),
    ticks: lags.length, commits: commits.length, errors: r.errors,
  };
}

/**
 * The worst timer lag and commit the probe saw overlapping [from, to]: a late tick recorded at
 * `at` covers the `ms` before it, a commit started at `at` the `ms` after. `commit` is null when
 * no commit overlapped (one runs every 100 ms, a short span can fall between two).
 */
export function worstDuring(r: ProbeReport, from: number, to: number): { lag: number; commit: number | null } {
  let lag = 0;
  for (const [at, ms] of r.lags) if (at >= from && at - ms <= to) lag = Math.max(lag, ms);
  let commit: number | null = null;
  for (const [at, ms] of r.commits) if (at + ms >= from && at <= to) commit = Math.max(commit ?? 0, ms);
  return { lag: Math.round(lag), commit: commit === null ? null : Math.round(commit) };
}

/** Whether the probe saw the machine stall over [from, to]. */
export function stalledDuring(r: ProbeReport, from: number, to: number): boolean {
  const w = worstDuring(r, from, to);
  return w.lag >= STALL_MS || (w.commit ?? 0) >= STALL_MS;
}
