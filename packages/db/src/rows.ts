/**
 * Rows a raw statement read as JSON (`to_jsonb(t)`), in the shape Prisma's model queries return.
 * A hot path can then read several models in one statement, one round trip and one reply to
 * parse, and still hand the rest of the code the types it knows (a send reads the caller, the
 * channel, the realm and more at once: services/messaging/src/actions/send/reads.ts).
 *
 * The field list, column names and types come from the generated client's own data model, so a
 * column added to the schema is carried without a change here; `test/client.test.ts` compares every
 * field with what the model query returns.
 */
import type { Db, Tx } from './client';
import type {
  AlertWord, ChannelFolder, CustomProfileField, DefaultStreamGroup, Draft, Linkifier, MutedUser, NavigationView, PushDevice, Realm,
  RealmDomain, RealmEmoji, RealmPlayground, SavedSnippet, ScheduledMessage, Stream, Subscription, User, UserStatus, UserTopic,
} from './generated/client';

/** The models a raw statement may read this way, by name. */
export interface JsonRowModels {
  User: User;
  Realm: Realm;
  Stream: Stream;
  Subscription: Subscription;
  Linkifier: Linkifier;
  RealmPlayground: RealmPlayground;
  NavigationView: NavigationView;
  SavedSnippet: SavedSnippet;
  AlertWord: AlertWord;
  UserStatus: UserStatus;
  CustomProfileField: CustomProfileField;
  ChannelFolder: ChannelFolder;
  RealmEmoji: RealmEmoji;
  RealmDomain: RealmDomain;
  DefaultStreamGroup: DefaultStreamGroup;
  PushDevice: PushDevice;
  MutedUser: MutedUser;
  Draft: Draft;
  ScheduledMessage: ScheduledMessage;
  UserTopic: UserTopic;
}

interface FieldModel {
  name: string;
  kind: string;
  type: string;
  dbName?: string | null;
}

interface RuntimeDataModel {
  models: Record<string, { fields: FieldModel[] }>;
}

type Convert = (value: unknown) => unknown;

const DATE: Convert = (v) => (typeof v === 'string' ? new Date(/(Z|[+-]\d\d:?\d\d)$/.test(v) ? v : `${v}Z`) : v);
const BIGINT: Convert = (v) => (v === null ? null : BigInt(v as string | number));
const BYTES: Convert = (v) => (typeof v === 'string' ? Uint8Array.from(Buffer.from(v.replace(/^\\x/, ''), 'hex')) : v);
const AS_IS: Convert = (v) => v;
const CONVERTERS: Record<string, Convert> = { DateTime: DATE, BigInt: BIGINT, Bytes: BYTES };

const plans = new Map<string, Array<[field: string, column: string, convert: Convert]>>();

function planOf(db: Db | Tx, model: string) {
  let plan = plans.get(model);
  if (!plan) {
    const dataModel = (db as unknown as { _runtimeDataModel?: RuntimeDataModel })._runtimeDataModel;
    const fields = dataModel?.models[model]?.fields;
    if (!fields) throw new Error(`no data model for ${model}`);
    plan = fields.filter((f) => f.kind === 'scalar' || f.kind === 'enum')
      .map((f) => [f.name, f.dbName ?? f.name, CONVERTERS[f.type] ?? AS_IS]);
    plans.set(model, plan);
  }
  return plan;
}

/** `json`, one `to_jsonb(row)` of the model's table, as the model query would return the row. */
export function rowFromJson<M extends keyof JsonRowModels>(db: Db | Tx, model: M, json: Record<string, unknown>): JsonRowModels[M] {
  const row: Record<string, unknown> = {};
  for (const [field, column, convert] of planOf(db, model)) row[field] = convert(json[column] ?? null);
  return row as unknown as JsonRowModels[M];
}
