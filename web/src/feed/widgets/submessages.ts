/**
 * A widget message's submessages, in the family's protocol: the first, from the message's
 * sender, says which widget it is (`{widget_type, extra_data}`); each later one is an event of
 * that widget (a vote, a new option, a struck task), applied in id order by every client alike.
 */

export interface Submessage {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

export interface WidgetEvent {
  senderId: number;
  data: Record<string, unknown> & { type?: unknown };
}

export interface WidgetStart {
  widgetType: string;
  extraData: Record<string, unknown> | null;
  events: WidgetEvent[];
}

function parse(content: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(content);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The widget of a message, or null when it has none (or another person tried to start one). */
export function widgetOf(message: { sender_id: number; submessages: unknown[] }): WidgetStart | null {
  const subs = (message.submessages as Submessage[]).filter((s) => s && s.msg_type === 'widget').slice().sort((a, b) => a.id - b.id);
  const first = subs[0];
  if (!first || first.sender_id !== message.sender_id) return null;
  const start = parse(first.content);
  if (!start || typeof start.widget_type !== 'string') return null;
  const extra = start.extra_data && typeof start.extra_data === 'object' ? (start.extra_data as Record<string, unknown>) : null;
  const events: WidgetEvent[] = [];
  for (const s of subs.slice(1)) {
    const data = parse(s.content);
    if (data && typeof data.type === 'string') events.push({ senderId: s.sender_id, data });
  }
  return { widgetType: start.widget_type, extraData: extra, events };
}
