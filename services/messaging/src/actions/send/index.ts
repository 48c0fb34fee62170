/**
 * Sending a message: the public names of the send. The files of this folder, in the order a send
 * runs through them, are described in docs/messaging.md ("How a send is written").
 */
export { checkSendMessage, doSendMessage, defaultReadBySender, sendMessageInTx, usersAlertedBy, type SendInput, type SendPlan, type SendResult } from './check';
export { sweepSendKeys } from './guarantees';
export { configureStatementGroups } from './statement-group';
export { registerSendMetrics } from './metrics';
