import { figures, goals, markdown } from '../report';
import type { WebFigure } from '../web';

const web: WebFigure = {
  firstLoad: { bytesCompressed: 120_000, bytesUncompressed: 420_000, requests: 4, encodings: ['br'], files: [{ path: '/', type: 'document', compressed: 900, encoding: 'br' }] },
  login: { runs: [900, 1000, 1100], p50: 1000, p95: 1100, shellP50: 120, registerP50: 500, messagesP50: 800 },
  channelSwitch: { runs: [40, 60, 200], p50: 60, p95: 200, firstVisitP50: 120, revisitP50: 40 },
  longTopic: {
    messages: 10_000, secondsToStart: 30, secondsToEnd: 40,
    heapMb: { opened: 20, atStart: 60, atEnd: 63, max: 66 },
    nodes: { opened: 3000, atStart: 3100, atEnd: 3050, max: 3300 },
    samples: [{ at: 'opened', heapMb: 20, nodes: 3000 }],
  },
};

const settings = { env: { RATE_LIMIT_PER_MINUTE: '0' } };
const empty = { settings, sends: [], store: [], redis: [] };

describe('web phase report', () => {
  it('names each figure the web phase measures, under flat keys', () => {
    const f = figures({ ...empty, web });
    expect(f).toMatchObject({
      web_first_load_bytes_compressed: 120_000,
      web_login_to_first_messages_p50_ms: 1000,
      web_login_to_first_messages_p95_ms: 1100,
      web_channel_switch_p50_ms: 60,
      web_channel_switch_p95_ms: 200,
      web_long_topic_scroll_heap_mb_start: 60,
      web_long_topic_scroll_heap_mb_end: 63,
      web_long_topic_scroll_heap_growth_mb: 3,
    });
    for (const v of Object.values(f)) expect(Number.isFinite(v)).toBe(true);
  });

  it('judges the goals: 250 KB, 1.5 s to the first messages, 150 ms a switch, a flat heap', () => {
    const g = goals(figures({ ...empty, web }));
    const met = Object.fromEntries(g.map((x) => [x.figure, x.met]));
    expect(met).toEqual({
      web_first_load_bytes_compressed: true,
      web_login_to_first_messages_p50_ms: true,
      web_channel_switch_p50_ms: true,
      web_long_topic_scroll_heap_growth_mb: true,
    });
    const worse = goals(figures({ ...empty, web: { ...web, firstLoad: { ...web.firstLoad, bytesCompressed: 300_000 }, longTopic: { ...web.longTopic, heapMb: { ...web.longTopic.heapMb, atEnd: 90 } } } }));
    expect(worse.filter((x) => !x.met).map((x) => x.figure)).toEqual(['web_first_load_bytes_compressed', 'web_long_topic_scroll_heap_growth_mb']);
    expect(markdown(figures({ ...empty, web }), g, settings)).toContain('| `web_channel_switch_p50_ms` | 60 |  | <= 150 ms (met) |');
  });

  it('has no web figures when the phase did not run', () => {
    const f = figures({ ...empty });
    expect(Object.keys(f).filter((k) => k.startsWith('web_'))).toEqual([]);
  });
});
