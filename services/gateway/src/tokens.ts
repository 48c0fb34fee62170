import type { Identity } from '@chat/contracts';
import { signIdentity } from '@chat/kit';

/**
 * Signs the identities the gateway forwards. A client sending several requests in one second
 * gets the token already signed for it in that second, the very bytes signing again would give
 * (the claims and `iat` are the same): the same kept user object (KnownKeys), realm object,
 * address and browser session make the same identity (a person's sessions share one kept
 * user object, so the session is compared too). Signing was a sixth of the proxy path's own CPU.
 */
export class IdentityTokens {
  private readonly last = new WeakMap<object, { realm: object; ip: string | undefined; session: string | undefined; second: number; token: string }>();

  constructor(private readonly secret: string) {}

  /** `user` and `realm`: the objects `identity` was built from. */
  sign(identity: Identity, user: object | undefined, realm: object): string {
    const second = Math.floor(Date.now() / 1000);
    if (!user) return signIdentity(this.secret, identity, second);
    const hit = this.last.get(user);
    if (hit && hit.second === second && hit.realm === realm && hit.ip === identity.clientIp && hit.session === identity.sessionId) return hit.token;
    const token = signIdentity(this.secret, identity, second);
    this.last.set(user, { realm, ip: identity.clientIp, session: identity.sessionId, second, token });
    return token;
  }
}
