/**
 * Register's unread_msgs on a million-message table: `node --import tsx bench/events-unreads.ts`.
 * The code lives in services/events/bench/unreads.ts, where the workspace packages resolve.
 */
import '../services/events/bench/unreads';
