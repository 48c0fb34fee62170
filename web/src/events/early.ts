/**
 * The first register's answer, asked for by the shell's inline script before the app's files
 * arrived (web/early-register.ts puts the script in the built shell). Taken once: a later
 * register (a lost queue, a restart) asks afresh.
 */
export const EARLY_REGISTER_GLOBAL = '__earlyRegister';

/** The pending answer (null when the request failed), or null when the shell sent none. */
export function takeEarlyRegister(): Promise<Response | null> | null {
  // globalThis: the loop also runs where there is no window (its unit tests).
  const holder = globalThis as unknown as Record<string, Promise<Response | null> | undefined>;
  const pending = holder[EARLY_REGISTER_GLOBAL];
  delete holder[EARLY_REGISTER_GLOBAL];
  return pending ?? null;
}
