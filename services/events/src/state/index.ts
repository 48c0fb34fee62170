/**
 * The initial state returned by register, section by section. A section is fetched when its
 * event type (or, for the list-valued sections, its own name) is in fetch_event_types, or when
 * no fetch_event_types and no event_types were given.
 */
import type { Db, Realm } from '@chat/db';
import type { Identity } from '@chat/contracts';
import type { RegisterRequest, ServerInfo } from './request';
import { realmSection } from './realm';
import { realmUsersSection } from './users';
import { subscriptionsSection, streamsSection } from './subscriptions';
import { userGroupsSection } from './groups';
import { personalSections } from './personal';
import { areaSections } from './areas';
import { presenceSection } from './presence';
import { scheduledSections } from './scheduled';
import { flagSections } from './unreads';
import { topicSections } from './topics';
import { organizationSections } from './organization';
import { accountSections } from './account';

export interface StateOptions extends RegisterRequest {
  realm: Realm;
  identity: Identity;
  server: ServerInfo;
}

export type Want = (...names: string[]) => boolean;

export async function fetchInitialState(db: Db, opts: StateOptions): Promise<Record<string, unknown>> {
  const types = opts.fetchEventTypes ? new Set(opts.fetchEventTypes) : null;
  const want: Want = (...names) => types === null || names.some((n) => types.has(n));
  const parts = await Promise.all([
    realmSection(db, opts, want),
    realmUsersSection(db, opts, want),
    want('subscription', 'subscriptions') ? subscriptionsSection(db, opts) : {},
    want('stream') ? streamsSection(db, opts) : {},
    want('user_group', 'realm_user_groups') ? userGroupsSection(db, opts) : {},
    personalSections(db, opts, want),
    areaSections(db, opts, want),
    presenceSection(db, opts, want),
    scheduledSections(db, opts, want),
    flagSections(db, opts, want),
    topicSections(db, opts, want),
    organizationSections(db, opts, want),
    accountSections(db, opts, want),
  ]);
  return Object.assign({}, ...parts);
}
