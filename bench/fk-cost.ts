/**
 * What user_messages' foreign keys cost one send, measured with pgbench: `npx tsx bench/fk-cost.ts`.
 * The code lives in bench/src/fk-cost.ts.
 */
import './src/fk-cost';
