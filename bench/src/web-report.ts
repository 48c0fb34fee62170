/** The web phase's figures (web.ts) as flat report keys, and their goals. */
import type { WebFigure } from './web';

export function webFigures(w: WebFigure): Record<string, number> {
  const t = w.longTopic;
  return {
    web_first_load_bytes_compressed: w.firstLoad.bytesCompressed,
    web_first_load_bytes_uncompressed: w.firstLoad.bytesUncompressed,
    web_first_load_requests: w.firstLoad.requests,
    web_login_to_first_messages_p50_ms: w.login.p50,
    web_login_to_first_messages_p95_ms: w.login.p95,
    web_login_to_shell_p50_ms: w.login.shellP50,
    web_login_to_register_p50_ms: w.login.registerP50,
    web_login_to_messages_fetched_p50_ms: w.login.messagesP50,
    web_channel_switch_p50_ms: w.channelSwitch.p50,
    web_channel_switch_p95_ms: w.channelSwitch.p95,
    web_channel_switch_first_visit_p50_ms: w.channelSwitch.firstVisitP50,
    web_channel_switch_revisit_p50_ms: w.channelSwitch.revisitP50,
    web_long_topic_messages: t.messages,
    web_long_topic_seconds_to_start: t.secondsToStart,
    web_long_topic_seconds_to_end: t.secondsToEnd,
    web_long_topic_heap_mb_opened: t.heapMb.opened,
    web_long_topic_scroll_heap_mb_start: t.heapMb.atStart,
    web_long_topic_scroll_heap_mb_end: t.heapMb.atEnd,
    web_long_topic_scroll_heap_mb_max: t.heapMb.max,
    web_long_topic_scroll_heap_growth_mb: Math.round((t.heapMb.atEnd - t.heapMb.atStart) * 10) / 10,
    web_long_topic_dom_nodes_start: t.nodes.atStart,
    web_long_topic_dom_nodes_end: t.nodes.atEnd,
    web_long_topic_dom_nodes_max: t.nodes.max,
  };
}

/**
 * The web app's goals: its first load within 250 KB compressed, the first messages 1.5 s after
 * the login form is sent, another channel's messages 150 ms after the click, and a flat heap
 * while a long topic is scrolled from its start to its end: at most 5 MB more at the end, about
 * what one sample differs from the next (rows being drawn) while nothing is kept.
 */
export function webGoals(): Array<[string, string, (v: number) => boolean]> {
  return [
    ['web_first_load_bytes_compressed', '<= 256000 bytes (250 KB)', (v) => v <= 256_000],
    ['web_login_to_first_messages_p50_ms', '<= 1500 ms', (v) => v <= 1500],
    ['web_channel_switch_p50_ms', '<= 150 ms', (v) => v <= 150],
    ['web_long_topic_scroll_heap_growth_mb', '<= 5 MB (flat)', (v) => v <= 5],
  ];
}
