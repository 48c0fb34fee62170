/**
 * What the gateway tells a service about the caller. It travels as a short-lived token signed
 * with the cluster's internal secret in the IDENTITY_HEADER; the gateway strips any copy an
 * outside client sends, and services refuse requests without a valid one.
 */
export const IDENTITY_HEADER = 'x-chat-identity';
export const REQUEST_ID_HEADER = 'x-request-id';

export interface Identity {
  realmId: number;
  /** Absent for unauthenticated requests that the route allows (server_settings, register, ...). */
  userId?: number;
  email?: string;
  role?: number;
  isBot?: boolean;
  /** Realm's canonical URL, e.g. http://127.0.0.1:9991, for links the service builds. */
  realmUrl: string;
  /** The client's address as the gateway saw it (after TRUSTED_PROXIES); limits failed logins. */
  clientIp?: string;
  /**
   * The browser session the caller came by (the web app's `/json` and its files), absent for an
   * API key. Only for what concerns that session itself: a password changed from it keeps it.
   */
  sessionId?: string;
}
