/**
 * Code playgrounds and data exports, as their endpoints, their events and register give them.
 */
import type { RealmExport, RealmPlayground } from '@chat/db';

export function realmPlaygroundObject(p: RealmPlayground) {
  return { id: p.id, name: p.name, pygments_language: p.pygmentsLanguage, url_template: p.urlTemplate };
}

/** The realm's playgrounds in the order they were added: the event's list and register's realm_playgrounds. */
export function realmPlaygroundList(rows: RealmPlayground[]) {
  return [...rows].sort((a, b) => a.id - b.id).map(realmPlaygroundObject);
}

/** RealmExport.status values. */
export const EXPORT_STATUS = { REQUESTED: 1, STARTED: 2, SUCCEEDED: 3, FAILED: 4, DELETED: 5 } as const;
/** RealmExport.exportType values: public data, or everything the members consented to. */
export const EXPORT_TYPE = { PUBLIC: 1, FULL_WITH_CONSENT: 2 } as const;

/** Where a finished export is downloaded: below the realm's URL, by its unguessable path. */
export function exportUrl(realmUrl: string, exportPath: string): string {
  return `${realmUrl}/user_avatars/${exportPath}`;
}

/** Times are UNIX seconds with fractions, as clients of this API family read them. */
const seconds = (d: Date | null) => (d ? d.getTime() / 1000 : null);

export function realmExportObject(e: RealmExport, realmUrl: string) {
  return {
    id: e.id,
    export_time: e.dateRequested.getTime() / 1000,
    acting_user_id: e.actingUserId,
    export_url: e.status === EXPORT_STATUS.SUCCEEDED && e.exportPath ? exportUrl(realmUrl, e.exportPath) : null,
    deleted_timestamp: seconds(e.dateDeleted),
    failed_timestamp: seconds(e.dateFailed),
    pending: e.status === EXPORT_STATUS.REQUESTED || e.status === EXPORT_STATUS.STARTED,
    export_type: e.exportType,
  };
}
