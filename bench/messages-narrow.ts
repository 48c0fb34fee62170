/**
 * Narrowed GET /messages on a million-message table: `node --import tsx bench/messages-narrow.ts`
 * (or `npx tsx bench/messages-narrow.ts`). The code lives in services/messaging/bench/narrow.ts,
 * where the workspace packages resolve.
 */
import '../services/messaging/bench/narrow';
