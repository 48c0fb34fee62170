/**
 * Upload links in message Markdown: read by messaging, which claims a sender's own files in the
 * send's transaction, and by uploads, which keeps links in step after edits and deletions.
 */

/** "<realm>/<xx>/<random>/<safe name>": storage key and URL path below /user_uploads/. */
export const UPLOAD_PATH_ID = String.raw`\d+/[0-9a-f]{1,2}/[A-Za-z0-9_-]{24}/[^\s/?#)\]"'<>]+`;

/** Path ids of every upload a message's Markdown links to, relative or absolute. */
export function linkedPathIds(content: string): string[] {
  const found = new Set<string>();
  for (const m of content.matchAll(new RegExp(`/user_uploads/(${UPLOAD_PATH_ID})`, 'g'))) {
    let id = m[1]!;
    try {
      id = decodeURI(id);
    } catch {
      // keep as written
    }
    found.add(id);
  }
  return [...found];
}
