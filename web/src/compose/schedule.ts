/**
 * The times the "send later" menu offers, as the family's does: later today (9 am, 4 pm) while
 * they are still ahead, tomorrow at 9 am and 4 pm, and next Monday at 9 am; plus a custom
 * date and time. Pure: the clock is passed in.
 */

export type PresetId = 'today_9' | 'today_16' | 'tomorrow_9' | 'tomorrow_16' | 'monday_9';

export interface SchedulePreset {
  id: PresetId;
  at: Date;
}

/** A preset is only offered this far ahead of now, so it cannot pass while the menu is open. */
const MARGIN_MS = 5 * 60 * 1000;

function at(base: Date, daysAhead: number, hour: number): Date {
  const d = new Date(base.getFullYear(), base.getMonth(), base.getDate() + daysAhead, hour, 0, 0, 0);
  return d;
}

export function schedulePresets(now: Date): SchedulePreset[] {
  const out: SchedulePreset[] = [];
  const ahead = (d: Date) => d.getTime() - now.getTime() > MARGIN_MS;
  const today9 = at(now, 0, 9);
  const today16 = at(now, 0, 16);
  if (ahead(today9)) out.push({ id: 'today_9', at: today9 });
  if (ahead(today16)) out.push({ id: 'today_16', at: today16 });
  out.push({ id: 'tomorrow_9', at: at(now, 1, 9) });
  out.push({ id: 'tomorrow_16', at: at(now, 1, 16) });
  // Monday 9 am, unless tomorrow is Monday (already offered).
  const day = now.getDay();
  const untilMonday = ((8 - day) % 7) || 7;
  if (untilMonday !== 1) out.push({ id: 'monday_9', at: at(now, untilMonday, 9) });
  return out;
}

/** `2025-03-04T09:30` (a datetime-local input) as a local time, or null. */
export function parseLocalDateTime(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A Date as a datetime-local input's value. */
export function toLocalInputValue(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** Whether a chosen time can be scheduled (the server refuses times not in the future). */
export function validScheduleTime(d: Date | null, now: Date): d is Date {
  return !!d && d.getTime() > now.getTime() + 60_000;
}

/** The API's parameters for a scheduled message (`to`: a channel id or people's ids). */
export function scheduledParams(target: { type: 'stream'; streamId: number; topic: string } | { type: 'direct'; to: number[] }, content: string, when: Date): Record<string, unknown> {
  const ts = Math.floor(when.getTime() / 1000);
  if (target.type === 'stream') return { type: 'stream', to: target.streamId, topic: target.topic, content, scheduled_delivery_timestamp: ts };
  return { type: 'direct', to: target.to, content, scheduled_delivery_timestamp: ts };
}
