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

/**
 * Tokens already verified, by their exact bytes: the gateway signs one token per person and
 * second (tokens.ts there), so a busy caller's requests repeat it; its HMAC check and JSON
 * parse (about 16 µs, some 4 % of messaging's profile under a send load) are then done once.
 * An entry holds until the token's own expiry and only for the secret that verified it; at
 * most VERIFIED_MAX are kept, the oldest dropped first.
 */
const VERIFIED_MAX = 4096;
const verified = new Map<string, { secret: string; identity: Identity; expiresAtMs: number }>();

export function verifyIdentity(secret: string, token: string): Identity | null {
  const known = verified.get(token);
  if (known && known.secret === secret && known.expiresAtMs > Date.now()) return { ...known.identity };
  try {
    const claims = jwt.verify(token, secretKey(secret), { algorithms: ['HS256'], audience: AUDIENCE }) as jwt.JwtPayload;
    if (typeof claims.realmId !== 'number' || typeof claims.realmUrl !== 'string' || typeof claims.exp !== 'number') return null;
    const identity: Identity = {
      realmId: claims.realmId,
      realmUrl: claims.realmUrl,
      userId: typeof claims.userId === 'number' ? claims.userId : undefined,
      email: typeof claims.email === 'string' ? claims.email : undefined,
      role: typeof claims.role === 'number' ? claims.role : undefined,
      isBot: typeof claims.isBot === 'boolean' ? claims.isBot : undefined,
      clientIp: typeof claims.clientIp === 'string' ? claims.clientIp : undefined,
    };
    // Only present for a browser session's request: an API key's identity keeps its shape.
    if (typeof claims.sessionId === 'string') identity.sessionId = claims.sessionId;
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
    // jsonwebtoken refuses a token once `now >= exp`; so does the entry.
    verified.set(token, { secret, identity, expiresAtMs: claims.exp * 1000 });
    return { ...identity };
  } catch {
    return null;
  }
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      identity?: Identity;
      /** The body's bytes as sent, when a generic parser read it (see bodyParsers). */
      rawBody?: Buffer;
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
