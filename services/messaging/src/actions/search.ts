import type { Message } from '@chat/db';
import type { Services } from '../context';
import type { WireMessage } from '../lib/wire';

const START = '\uE000';
const STOP = '\uE001';
const escapeTopic = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Search results carry match_content / match_subject: the content and topic with the matched
 * words wrapped in <span class="highlight">, computed by Postgres with the same configuration
 * the search itself used.
 */
export async function highlightSearch(
  services: Services,
  wire: Array<Pick<WireMessage, 'id'> & { match_content?: string; match_subject?: string }>,
  messages: Array<Pick<Message, 'id'>>,
  query: string,
  opts: { applyMarkdown: boolean },
): Promise<void> {
  if (!messages.length) return;
  // ts_headline's option syntax cannot carry the quotes of the span, so it marks matches with
  // private-use characters that are swapped for the span afterwards.
  const rows = await services.db.$queryRawUnsafe<Array<{ id: number; content: string; topic: string }>>(
    `SELECT m.id,
            ts_headline('english', ${opts.applyMarkdown ? 'm.rendered_content' : 'm.content'}, q, $3) AS content,
            ts_headline('english', m.topic, q, $3) AS topic
       FROM messages m, websearch_to_tsquery('english', $1) q
      WHERE m.id = ANY($2::int[])`,
    query,
    messages.map((m) => m.id),
    `StartSel=${START}, StopSel=${STOP}, HighlightAll=true`,
  );
  const mark = (s: string) => s.split(START).join('<span class="highlight">').split(STOP).join('</span>');
  for (const r of rows) {
    r.content = mark(r.content);
    r.topic = mark(escapeTopic(r.topic));
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const w of wire) {
    const r = byId.get(w.id);
    if (!r) continue;
    w.match_content = r.content;
    w.match_subject = r.topic;
  }
}
