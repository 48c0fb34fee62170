/**
 * Long-poll benchmark of the event system: `node --import tsx bench/events-longpoll.ts`.
 * The code lives in services/events/bench/longpoll.ts, where the workspace packages resolve.
 */
import '../services/events/bench/longpoll';
