/**
 * Stored messages rendered again with the current renderer (`npm run manage --
 * rerender-messages`), as operators need after an upgrade that changes rendering: every
 * message whose rendered_content_version is older than RENDERED_CONTENT_VERSION, in id order,
 * a batch at a time. Each batch is one statement that writes the HTML and the version, so a run
 * that stops (or is stopped) leaves only whole batches done, and the next run starts with what is
 * still old. A message edited while its batch was being rendered is left for the next run (its
 * content no longer matches what was rendered).
 *
 * No event is sent: the family's server re-renders old messages without telling clients either
 * (it does so lazily, on fetch); clients see the new HTML when they next fetch the messages.
 */
import type { Db } from '@chat/db';
import { loadRenderContext, renderMarkdown, RENDERED_CONTENT_VERSION } from '../markdown';

export interface RerenderOptions {
  batchSize: number;
  /** Only this realm (its string id), else every realm. */
  realm?: string;
  /** A realm's URL from its string id, as the gateway forms it. */
  realmUrl: (stringId: string) => string;
  /** Called after each batch with the running totals. */
  progress?: (done: { rendered: number; lastId: number }) => void;
}

interface OldRow {
  id: number;
  realm_id: number;
  sender_id: number;
  content: string;
  string_id: string;
}

export async function doRerenderMessages(db: Db, opts: RerenderOptions): Promise<{ rendered: number; skipped: number }> {
  let cursor = 0;
  let rendered = 0;
  let skipped = 0;
  for (;;) {
    const rows = await db.$queryRawUnsafe<OldRow[]>(
      `SELECT m.id, m.realm_id, m.sender_id, m.content, r.string_id
         FROM messages m JOIN realms r ON r.id = m.realm_id
        WHERE m.id > $1 AND m.rendered_content_version < $2 AND ($3::text IS NULL OR r.string_id = $3)
        ORDER BY m.id LIMIT $4`,
      cursor,
      RENDERED_CONTENT_VERSION,
      opts.realm ?? null,
      opts.batchSize,
    );
    if (!rows.length) return { rendered, skipped };
    const html: string[] = [];
    for (const row of rows) {
      // As a send renders it: what the content refers to, looked up as the realm is now.
      const ctx = await loadRenderContext(db, row.realm_id, opts.realmUrl(row.string_id), row.content, row.sender_id);
      html.push(renderMarkdown(row.content, ctx).html);
    }
    const written = await db.$executeRawUnsafe(
      `UPDATE messages m SET rendered_content = v.html, rendered_content_version = $4
         FROM unnest($1::int[], $2::text[], $3::text[]) AS v(id, html, content)
        WHERE m.id = v.id AND m.content = v.content`,
      rows.map((r) => r.id),
      html,
      rows.map((r) => r.content),
      RENDERED_CONTENT_VERSION,
    );
    rendered += written;
    skipped += rows.length - written;
    cursor = rows[rows.length - 1]!.id;
    opts.progress?.({ rendered, lastId: cursor });
  }
}
