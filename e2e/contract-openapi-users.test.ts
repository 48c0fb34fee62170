/**
 * The family's OpenAPI, end to end, for accounts, people, the organization, event queues,
 * uploads, push devices, invitations, groups and folders (see contract-openapi-messaging.test.ts).
 */
import { Contract } from './lib/contract';
import { testOperations, USERS_OPERATIONS } from './lib/operations';

const c = new Contract();
beforeAll(() => c.start(), 180000);
afterAll(() => c.stop());

describe('user and organization operations answer as the OpenAPI file says', () => {
  testOperations(c, USERS_OPERATIONS);
});
