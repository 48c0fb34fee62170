/**
 * The table of OpenAPI operations the contract tests call, and what they leave out and why.
 * Operations not implemented yet are in the PENDING set of pending.ts, and skipped.
 */
import type { Contract } from './contract';
import { responseErrors } from './openapi';
import { maybe } from './pending';
import { MESSAGING_OPERATIONS, type Builder } from './operations-messaging';
import { USERS_OPERATIONS } from './operations-users';

export { MESSAGING_OPERATIONS, USERS_OPERATIONS };

/** Operations of the OpenAPI file no test calls, each with the reason. */
export const EXCLUDED: Record<string, string> = {
  // Pseudo-operations: the file uses them to document the event system, the error envelope
  // and outgoing webhooks, they are not endpoints of the server.
  'POST /real-time': 'documents the event system, not an endpoint',
  'POST /rest-error-handling': 'documents the error envelope, not an endpoint',
  'POST /zulip-outgoing-webhook': 'documents what the server posts to a bot, not an endpoint',
  // E2EE push registration and its test notification go through the push relay ("bouncer"),
  // an external service the test cluster does not run.
  'POST /mobile_push/register': 'needs the push relay, an external service',
  'POST /mobile_push/e2ee/test_notification': 'needs a device registered through the push relay, an external service',
};


/** One test per table entry: build the call, make it, expect success and a conforming body. */
export function testOperations(c: Contract, table: Record<string, Builder>): void {
  for (const [key, build] of Object.entries(table)) {
    const [method, template] = key.split(' ') as [string, string];
    maybe(key)(key, async () => {
      const b = await build(c);
      const res = await c.call(method, b.path, b.who, b.params ?? {}, b.req ?? {});
      // The whole answer in the message, so a failure says what the server said.
      if (res.status !== 200 || res.body.result !== 'success') throw new Error(`${key} -> ${res.status} ${JSON.stringify(res.body)}`);
      expect(responseErrors(method, template, res.status, res.body)).toEqual([]);
    });
  }
}
