/**
 * Who sends. Every caller of the send hands it a `SendCaller`, and `loadSender` is the one place
 * that turns it into the sender the checks and the write use.
 */
import type { Db, User } from '@chat/db';
import type { AuthedIdentity } from '@chat/kit';
import { callerOfRow, type LoadedActor } from '../../lib/caller';

/** The sender as the send uses them: the caller, checked, and their row when one is at hand. */
export interface Sender {
  actor: LoadedActor;
  /** Absent only when the caller already held the actor without the row (a scheduled message's check, say). */
  user?: User;
}

/**
 * The caller of a send. A request gives only its identity: its ids start the send's reads, and
 * the row is read with them (a channel send reads it in its one statement, ADR 0019), not first.
 * A worker, inbound mail, a webhook or a check that already read and allowed the sender gives
 * them as `known`; they are not read again.
 */
export interface SendCaller {
  identity: AuthedIdentity;
  known?: Sender;
}

/** A caller whose row the send reads: loadSender then always has it. */
type RequestCaller = SendCaller & { known?: undefined };

/** The caller of a request (`POST /messages`, an incoming webhook). */
export function requestCaller(identity: AuthedIdentity): RequestCaller {
  return { identity };
}

/** A caller already read and allowed to act (its actor is an identity too: realm, id, URL). */
export function actingCaller(actor: LoadedActor, user?: User): SendCaller {
  return { identity: actor, known: { actor, user } };
}

/**
 * The sender of `caller`: as given when known, else from `row` when the send's own read found it
 * (null: the row is gone), else read now. A caller who may not act (deactivated, removed, another
 * realm's) is refused here, before anything else the send read is looked at.
 */
export async function loadSender(db: Db, caller: RequestCaller, row?: User | null): Promise<Required<Sender>>;
export async function loadSender(db: Db, caller: SendCaller, row?: User | null): Promise<Sender>;
export async function loadSender(db: Db, caller: SendCaller, row?: User | null): Promise<Sender> {
  if (caller.known) return { actor: caller.known.actor, user: caller.known.user ?? row ?? undefined };
  if (row !== undefined) return callerOfRow(row, caller.identity);
  // For a request: the caller with their row (a send needs more of it than the actor holds).
  return callerOfRow(await db.user.findUnique({ where: { id: caller.identity.userId } }), caller.identity);
}
