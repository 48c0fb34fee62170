/** How the sends' statements were grouped (ADR 0031), on the service's /metrics. */
import { counterFrom, type Metrics } from '@chat/kit';
import type { Db } from '@chat/db';
import { channelReadStats } from './reads';
import { channelWriteStats } from './grouped-write';
import type { GroupStats } from './statement-group';

export function registerSendMetrics(metrics: Metrics, db: Db): void {
  const kinds: Array<[string, () => GroupStats]> = [['read', () => channelReadStats(db)], ['write', () => channelWriteStats(db)]];
  for (const [kind, stats] of kinds) {
    counterFrom(metrics, `messaging_send_${kind}_statements_total`, `Channel-send ${kind} statements run`, () => stats().statements);
    counterFrom(metrics, `messaging_send_${kind}_groups_total`, `Channel-send ${kind} statements that carried several sends`, () => stats().groups);
    counterFrom(metrics, `messaging_send_${kind}s_grouped_total`, `Channel sends whose ${kind} went in a statement with others`, () => stats().grouped);
    counterFrom(metrics, `messaging_send_${kind}s_retried_alone_total`, `Channel sends whose ${kind} ran again alone after its group was refused`, () => stats().retriedAlone);
  }
}
