/**
 * What the gateway does to every request at the edge, before any service sees it. The express
 * path and the bare long-poll path (which runs ahead of express) both use these, so the two
 * cannot drift apart.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Identity } from '@chat/contracts';

/** Internal headers (x-chat-*) are the gateway's to write; a client's copy is never trusted. */
export function isInternalHeader(name: string): boolean {
  return name.startsWith('x-chat-');
}

/** Drops every internal header a client sent (Node lower-cases incoming header names). */
export function stripInternalHeaders(headers: IncomingHttpHeaders): void {
  for (const name of Object.keys(headers)) if (isInternalHeader(name)) delete headers[name];
}

/** The authenticated caller, as the gateway's API key check found them. */
export interface EdgeUser {
  userId: number;
  email: string;
  role: number;
  isBot: boolean;
}

/**
 * The identity a service is told about (signed with `signIdentity` into IDENTITY_HEADER): the
 * realm of the request, the caller if authenticated, the client's address if known, and the
 * browser session when the caller came by one (never for an API key).
 */
export function edgeIdentity(realm: { id: number; url: string }, user?: EdgeUser, clientIp?: string, sessionId?: string): Identity {
  return {
    realmId: realm.id,
    realmUrl: realm.url,
    ...(clientIp !== undefined ? { clientIp } : {}),
    ...(user ? { userId: user.userId, email: user.email, role: user.role, isBot: user.isBot } : {}),
    ...(user && sessionId !== undefined ? { sessionId } : {}),
  };
}
