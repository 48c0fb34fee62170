/**
 * The queue's stored form of an event, "<id>|<json without id>", and the wake-up messages built
 * from it (see APPEND in scripts.ts).
 */

/** "<id>|{...}" -> '{"id":<id>,...}'. Events are JSON objects, never empty ones. */
export function memberJson(member: string): string {
  const bar = member.indexOf('|');
  const body = member.slice(bar + 1);
  return body.length > 2 ? `{"id":${member.slice(0, bar)},${body.slice(1)}` : `{"id":${member.slice(0, bar)}}`;
}

export interface Wake {
  /** Id of the first event the append added. Unknown (NaN) when the wake-up names only the last. */
  firstId: number;
  lastId: number;
  /** The appended events as JSON with their ids, when the wake-up carried them. */
  events: string[] | null;
}

/** Reads a wake-up message: newline-joined members, or the last id alone. */
export function parseWake(message: string): Wake {
  if (message.indexOf('|') < 0) return { firstId: NaN, lastId: Number(message), events: null };
  const members = message.split('\n');
  const last = members[members.length - 1]!;
  return {
    firstId: Number(members[0]!.slice(0, members[0]!.indexOf('|'))),
    lastId: Number(last.slice(0, last.indexOf('|'))),
    events: members.map(memberJson),
  };
}
