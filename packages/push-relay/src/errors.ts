import { errors, type ApiError } from '@chat/contracts';

/**
 * How a relay request failed, classified the way this API family reports it to clients:
 * - network: refused, reset, DNS, or no answer within the timeout -> FAILED_TO_CONNECT_BOUNCER;
 *   worth retrying.
 * - server: 5xx (and 408/429), or a 2xx that is not the relay's JSON -> INTERNAL_SERVER_ERROR_ON_BOUNCER;
 *   worth retrying.
 * - config: any other 4xx (credentials, unregistered server or organization, plan does not allow
 *   push), or this server not registered at all -> ADMIN_ACTION_REQUIRED; retrying does not help
 *   until an admin acts, except MISSING_REMOTE_REALM, which a realm upload repairs.
 * - rejected: a 4xx on a device registration naming what is wrong with the client's data
 *   (INVALID_BOUNCER_PUBLIC_KEY, BAD_REQUEST, REQUEST_EXPIRED); recorded on the device.
 */
export type RelayFailureKind = 'network' | 'server' | 'config' | 'rejected';

/** The relay's code for an organization it has no record of (the realm upload has not reached it). */
export const MISSING_REMOTE_REALM = 'MISSING_REMOTE_REALM';

export class RelayError extends Error {
  constructor(
    readonly kind: RelayFailureKind,
    message: string,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'RelayError';
  }

  get retryable(): boolean {
    return this.kind === 'network' || this.kind === 'server' || this.code === MISSING_REMOTE_REALM;
  }

  toApiError(): ApiError {
    switch (this.kind) {
      case 'network':
        return errors.failedToConnectBouncer();
      case 'server':
        return errors.internalServerErrorOnBouncer();
      default:
        return errors.adminActionRequired();
    }
  }
}
