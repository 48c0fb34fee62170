/**
 * Who may do what, as a table: each row is an endpoint call against one protected thing (a
 * private channel's message, other people's direct messages, a draft, an upload, organization
 * settings), each column a kind of caller. A cell says whether the call must succeed or be
 * refused; a refused call must also leak nothing of the protected content.
 */
export const ROLES = ['owner', 'admin', 'moderator', 'member', 'member2', 'guest', 'bot', 'deactivated', 'wrong key', 'no key'] as const;
export type Role = (typeof ROLES)[number];
export type Cell = 'ok' | 'deny';

export interface Fixture {
  secretMessageId: number;
  directMessageId: number;
  draftId: number;
  uploadPath: string;
  /** The other party of the direct message. */
  member2Id: number;
}

export interface AccessRow {
  name: string;
  method: string;
  /** Path below the gateway root, e.g. /api/v1/messages/12. */
  path: (f: Fixture) => string;
  params?: (f: Fixture) => Record<string, string>;
  allowed: readonly Role[];
  /** Text only allowed callers may see in the answer. */
  secret: string;
  /**
   * For calls that answer success to everyone but must leave the protected thing out of the
   * answer (lists): every role gets 'ok', and the secrets must appear only for `allowed`.
   */
  filtered?: boolean;
}

const insiders = ['owner', 'member'] as const;
const directPair = ['member', 'member2'] as const;
const everyone = ['owner', 'admin', 'moderator', 'member', 'member2', 'guest', 'bot'] as const;

export const ACCESS_ROWS: AccessRow[] = [
  { name: 'private channel message', secret: 'channel secret', method: 'GET', path: (f) => `/api/v1/messages/${f.secretMessageId}`, allowed: insiders },
  { name: 'private channel message history', secret: 'channel secret', method: 'GET', path: (f) => `/api/v1/messages/${f.secretMessageId}/history`, allowed: insiders },
  {
    name: 'private channel in message search', secret: 'channel secret', method: 'GET', path: () => '/api/v1/messages', filtered: true, allowed: insiders,
    params: () => ({ anchor: 'newest', num_before: '100', num_after: '0', narrow: '[]' }),
  },
  { name: 'private channel in channel list', secret: '"name":"secret"', method: 'GET', path: () => '/api/v1/users/me/subscriptions', filtered: true, allowed: insiders },
  { name: "someone else's direct message", secret: 'dm secret', method: 'GET', path: (f) => `/api/v1/messages/${f.directMessageId}`, allowed: directPair },
  {
    name: "someone else's direct message in search", secret: 'dm secret', method: 'GET', path: () => '/api/v1/messages', filtered: true, allowed: directPair,
    params: () => ({ anchor: 'newest', num_before: '100', num_after: '0', narrow: '[{"operator":"is","operand":"dm"}]' }),
  },
  { name: "reacting to someone else's direct message", secret: 'dm secret', method: 'POST', path: (f) => `/api/v1/messages/${f.directMessageId}/reactions`, params: () => ({ emoji_name: 'smile' }), allowed: directPair },
  { name: 'drafts list', secret: 'draft secret', method: 'GET', path: () => '/api/v1/drafts', filtered: true, allowed: ['member'] },
  { name: "editing someone else's draft", secret: 'draft secret', method: 'PATCH', path: (f) => `/api/v1/drafts/${f.draftId}`, allowed: ['member'],
    params: (f) => ({ draft: JSON.stringify({ type: 'private', to: [f.member2Id], topic: '', content: 'draft secret', timestamp: 1700000000 }) }) },
  { name: 'upload shared in a direct message', secret: 'upload secret', method: 'GET', path: (f) => `/user_uploads/${f.uploadPath}`, allowed: directPair },
  { name: 'organization settings', secret: '"result":"success"', method: 'PATCH', path: () => '/api/v1/realm', params: () => ({ description: 'matrix' }), allowed: ['owner', 'admin'] },
  { name: "changing someone's role", secret: '"result":"success"', method: 'PATCH', path: (f) => `/api/v1/users/${f.member2Id}`, params: () => ({ role: '400' }), allowed: ['owner', 'admin'] },
  { name: 'own settings', secret: '"result":"success"', method: 'PATCH', path: () => '/api/v1/settings', params: () => ({ enter_sends: 'true' }), allowed: everyone },
  { name: "editing someone else's direct message", secret: 'dm secret', method: 'PATCH', path: (f) => `/api/v1/messages/${f.directMessageId}`, params: () => ({ content: 'changed' }), allowed: ['member'] },
];
