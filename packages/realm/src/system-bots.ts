/**
 * The system bots: accounts of the server itself rather than of anyone in the realm. The
 * family's clients list them in register's cross_realm_bots (is_system_bot) and not among the
 * realm's people. Here each realm gets its own, `<local>@<realm host>`, made by the messaging
 * service on first use; they have no owner.
 */
export const SYSTEM_BOTS = {
  notification: { local: 'notification-bot', fullName: 'Notification Bot' },
  welcome: { local: 'welcome-bot', fullName: 'Welcome Bot' },
  emailGateway: { local: 'emailgateway', fullName: 'Email Gateway' },
} as const;

const LOCAL_PARTS = new Set<string>(Object.values(SYSTEM_BOTS).map((b) => b.local));

/** Whether a users row is one of the realm's system bots. */
export function isSystemBot(user: { isBot: boolean; botOwnerId: number | null; email: string }): boolean {
  if (!user.isBot || user.botOwnerId !== null) return false;
  return LOCAL_PARTS.has(user.email.slice(0, user.email.lastIndexOf('@')));
}
