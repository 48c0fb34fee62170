/** UNIX seconds (UTC), as the API gives most creation times. */
export function unixSeconds(d: Date): number {
  return Math.floor(d.getTime() / 1000);
}
