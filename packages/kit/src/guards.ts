import type { NextFunction, Request, Response } from 'express';
import { errors } from '@chat/contracts';

/**
 * PostgreSQL text cannot hold U+0000: a NUL that reaches a query fails it, and the failure
 * used to surface as a 500. Every value is checked where it enters, so no action has to.
 */
export function hasNul(value: string): boolean {
  return value.includes('\0');
}

/** Refuses a NUL anywhere in a decoded JSON value (strings and object keys), bounded in depth. */
export function assertNoNulDeep(name: string, value: unknown, depth = 0): void {
  if (typeof value === 'string') {
    if (hasNul(value)) throw nulArgument(name);
    return;
  }
  if (!value || typeof value !== 'object' || depth > 32) return;
  if (Array.isArray(value)) {
    for (const v of value) assertNoNulDeep(name, v, depth + 1);
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (hasNul(k)) throw nulArgument(name);
    assertNoNulDeep(name, v, depth + 1);
  }
}

export function nulArgument(name: string) {
  return errors.invalidArgument(name, `${name} contains NULL (0x00) characters.`);
}

/**
 * A path that decodes to a NUL (or does not decode at all) names nothing any route serves:
 * answered as not found before any handler, authentication or query sees it.
 */
export function rejectBadPaths(req: Request, _res: Response, next: NextFunction): void {
  const raw = req.path;
  if (!raw.includes('%')) return next();
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return next(errors.notFound());
  }
  next(hasNul(decoded) ? errors.notFound() : undefined);
}
