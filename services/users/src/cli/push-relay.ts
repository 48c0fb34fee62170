import { parseArgs } from 'node:util';
import { doRegisterPushServer, readRelayServer, RegistrationInputError, RelayError } from '@chat/push-relay';
import type { CliServices } from './commands';
import { UsageError } from './commands';
import { realmSiteUrl } from './site';

/** The family's relay allows 15 s for a request, and much longer for the realm upload. */
const RELAY_TIMEOUT_MS = 60_000;

/**
 * `register-push-server`: registers this server with a push relay (the service holding the
 * FCM/APNs credentials the mobile apps' notifications go through), stores the server's UUID
 * and key in the database for the push service, and uploads the list of organizations. Run
 * again to update the host name or contact address, or with --rotate-key to change the key.
 */
export const registerPushServer = {
  usage: '--contact-email <address> [--hostname <host>] [--relay-url <url>] [--rotate-key] [--agree-to-terms-of-service]',
  summary: "register this server with the push relay (PUSH_RELAY_URL) and upload its organizations; the push service then uses the stored UUID and key",
  async run(services: CliServices, args: string[], out: (line: string) => void): Promise<void> {
    let v: Record<string, string | boolean | undefined>;
    try {
      v = parseArgs({
        args,
        options: {
          'contact-email': { type: 'string' },
          hostname: { type: 'string' },
          'relay-url': { type: 'string' },
          'rotate-key': { type: 'boolean' },
          'agree-to-terms-of-service': { type: 'boolean' },
        },
        strict: true,
      }).values;
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const relayUrl = (typeof v['relay-url'] === 'string' ? v['relay-url'] : process.env.PUSH_RELAY_URL ?? '').replace(/\/+$/, '');
    if (!/^https?:\/\/[^/]/.test(relayUrl)) throw new UsageError('give the relay with --relay-url or PUSH_RELAY_URL (an http(s) URL)');
    const contactEmail = typeof v['contact-email'] === 'string' ? v['contact-email'] : '';
    if (!contactEmail) throw new UsageError('--contact-email is required (the relay writes to it about this server)');
    const existing = await readRelayServer(services.db);
    // As the family's command: a new registration states its acceptance of the relay's terms.
    if (!existing?.registeredAt && v['agree-to-terms-of-service'] !== true) {
      throw new UsageError("a first registration needs --agree-to-terms-of-service (read the relay operator's terms first)");
    }
    const hostname = typeof v.hostname === 'string' ? v.hostname : services.config.EXTERNAL_HOST;
    try {
      const result = await doRegisterPushServer(
        services.db,
        { relayUrl, hostname, contactEmail, rotateKey: v['rotate-key'] === true, timeoutMs: RELAY_TIMEOUT_MS },
        (stringId) => realmSiteUrl(stringId, services.config),
      );
      out(`${result.created ? 'Registered' : 'Updated the registration of'} this server at ${relayUrl} as ${result.uuid}${result.rotated ? ' (new key)' : ''}`);
      out(`Uploaded ${result.realms} organization${result.realms === 1 ? '' : 's'}; the push service uses these credentials from now on (PUSH_RELAY_URL=${relayUrl}).`);
    } catch (err) {
      if (err instanceof RegistrationInputError || err instanceof RelayError) throw new UsageError(err.message);
      throw err;
    }
  },
};
