import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { NextFunction, Request, Response } from 'express';
import { errors, IDENTITY_HEADER, type Identity } from '@chat/contracts';

/** Lifetime of a signed identity: it only has to survive one hop inside the cluster. */
const IDENTITY_TTL_SECONDS = 60;
const AUDIENCE = 'chat-internal';

// Given the secret as a string, jsonwebtoken first tries it as a PEM key, a failing key parse on
// every call: about a millisecond of CPU per sign and per verify, on every request at both ends
// of the hop. A secret KeyObject, made once per secret, costs some microseconds.
const secretKeys = new Map<string, KeyObject>();
function secretKey(secret: string): KeyObject {
  let key = secretKeys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    secretKeys.set(secret, key);
  }
  return key;
}

/**
 * The identity token forwarded with a request. `iat` (seconds) may be given, so that a caller
 * reusing tokens within a second gets the very token signing again would give.
 */
export function signIdentity(secret: string, identity: Identity, iat = Math.floor(Date.now() / 1000)): string {
  return jwt.sign({ ...identity, iat }, secretKey(secret), { algorithm: 'HS256', expiresIn: IDENTITY_TTL_SECONDS, audience: AUDIENCE });
}

export function verifyIdentity(secret: string, token: string): Identity | null {
  try {
    const claims = jwt.verify(token, secretKey(secret), { algorithms: ['HS256'], audience: AUDIENCE }) as jwt.JwtPayload;
    if (typeof claims.realmId !== 'number' || typeof claims.realmUrl !== 'string') return null;
    return {
      realmId: claims.realmId,
      realmUrl: claims.realmUrl,
      userId: typeof claims.userId === 'number' ? claims.userId : undefined,
      email: typeof claims.email === 'string' ? claims.email : undefined,
      role: typeof claims.role === 'number' ? claims.role : undefined,
      isBot: typeof claims.isBot === 'boolean' ? claims.isBot : undefined,
      clientIp: typeof claims.clientIp === 'string' ? claims.clientIp : undefined,
    };
  } catch {
    return null;
  }
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      identity?: Identity;
    }
  }
}

/** Services accept only requests carrying an identity the gateway signed. */
export function requireGatewayIdentity(secret: string) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const token = req.header(IDENTITY_HEADER);
    const identity = token ? verifyIdentity(secret, token) : null;
    if (!identity) return next(errors.missingIdentity());
    req.identity = identity;
    next();
  };
}
