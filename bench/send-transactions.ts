/**
 * Transactions per sequential channel send: `npx tsx bench/send-transactions.ts`. The code lives
 * in bench/src/send-transactions.ts.
 */
import './src/send-transactions';
