import { createApp, createLogger, endpoint, listen, type RunningServer } from '@chat/kit';
import { TEST_INTERNAL_SECRET } from '@chat/testing';

/** A service behind the gateway that answers every path with the identity it was given. */
export async function startIdentityEcho(): Promise<RunningServer> {
  const { app } = createApp({
    service: 'upstream',
    log: createLogger('upstream', 'silent'),
    internalSecret: TEST_INTERNAL_SECRET,
    api: (r) => {
      r.all('/{*path}', endpoint(({ identity }) => ({ identity }), { auth: 'optional' }));
    },
  });
  return listen(app, { host: '127.0.0.1', port: 0 });
}
