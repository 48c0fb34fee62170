import { createTestDatabase } from '@chat/db/testing';
import { probeFigure, stalledDuring, startProbe, worstDuring, STALL_MS, type ProbeReport } from '../probe';

describe('machine probe', () => {
  it('places a late tick before its record and a commit after its start', () => {
    const r: ProbeReport = { lags: [[1_000, 30], [2_000, 2]], commits: [[3_000, 40]], errors: {} };
    // The tick recorded at 1,000 ms was 30 ms late: it covers 970–1,000.
    expect(worstDuring(r, 960, 975)).toEqual({ lag: 30, commit: null });
    expect(worstDuring(r, 1_001, 1_500)).toEqual({ lag: 0, commit: null });
    // The commit started at 3,000 ms took 40: it covers 3,000–3,040.
    expect(worstDuring(r, 3_030, 3_100)).toEqual({ lag: 0, commit: 40 });
    expect(worstDuring(r, 2_950, 3_010)).toEqual({ lag: 0, commit: 40 });
    expect(worstDuring(r, 2_900, 2_999)).toEqual({ lag: 0, commit: null });
    expect(stalledDuring(r, 960, 975)).toBe(true);
    expect(stalledDuring(r, 1_900, 2_100)).toBe(false);
    expect(STALL_MS).toBeGreaterThan(2);
  });

  it('figures only what falls in the window', () => {
    const r: ProbeReport = { lags: [[10, 50], [20, 1], [30, 3]], commits: [[15, 2], [25, 4], [99, 90]], errors: {} };
    const f = probeFigure(r, 15, 30);
    expect(f).toMatchObject({ ticks: 2, commits: 2, timerLagMax: 3, commitMax: 4 });
  });

  it('times its timer and its commits on a real Postgres, and stops when told', async () => {
    const scratch = await createTestDatabase();
    try {
      const probe = startProbe(scratch.url, 30_000);
      await probe.ready;
      const from = Date.now();
      await new Promise((r) => setTimeout(r, 1_000));
      const report = await probe.stop();
      expect(report.errors).toEqual({});
      const f = probeFigure(report, from, Date.now());
      // A 10 ms timer for a second, a commit every 100 ms: generous bounds for a busy machine.
      expect(f.ticks).toBeGreaterThan(20);
      expect(f.commits).toBeGreaterThan(2);
      expect(f.commitP50).toBeGreaterThan(0);
      const rows = await scratch.db.$queryRawUnsafe<Array<{ n: bigint }>>('SELECT count(*) AS n FROM probe');
      expect(Number(rows[0]!.n)).toBeGreaterThanOrEqual(report.commits.length);
    } finally {
      await scratch.drop();
    }
  });
});
