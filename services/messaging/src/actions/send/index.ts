/**
 * Sending a message. A send runs through this folder in this order (docs/messaging.md, "How a
 * send is written"):
 * - caller.ts: who sends (`SendCaller`), settled by `loadSender`, the one caller loader;
 * - check.ts (with reads.ts, direct.ts): `checkSendMessage` checks and renders, returning a
 *   `SendPlan` (plan.ts);
 * - write.ts: `doSendMessage` answers a retried send from its key (guarantees.ts), plans the
 *   write (plan-write.ts: each copy's flags and the path, with its reason) and `writeSend`
 *   writes it: grouped (grouped-write.ts, statement-group.ts), alone, or in a transaction;
 * - statements.ts: the SQL of the writes; metrics.ts: the grouping counters on /metrics.
 */
export { actingCaller, loadSender, requestCaller, type SendCaller, type Sender } from './caller';
export { checkSendMessage } from './check';
export { doSendMessage, sendMessageInTx } from './write';
export { defaultReadBySender } from './plan-write';
export { usersAlertedBy } from './reads';
export type { SendInput, SendPlan, SendResult, Target } from './plan';
export { sweepSendKeys } from './guarantees';
export { configureStatementGroups } from './statement-group';
export { registerSendMetrics } from './metrics';
