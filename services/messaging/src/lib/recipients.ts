import { errors } from '@chat/contracts';

export type MessageKind = 'stream' | 'private';

export function messageKind(type: string): MessageKind {
  if (type === 'stream' || type === 'channel') return 'stream';
  if (type === 'private' || type === 'direct') return 'private';
  // The family validates `type` as one of its literals: "Invalid type", naming the parameter.
  throw errors.badRequest('Invalid type');
}

/** `to` of a channel message: a name, an id, or a JSON list holding exactly one of those. */
export function parseStreamTarget(raw: unknown): { id: number } | { name: string } {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    const trimmed = raw.trim();
    if (/^-?\d+$/.test(trimmed)) return { id: Number(trimmed) };
    if (trimmed.startsWith('[') || trimmed.startsWith('"')) {
      try {
        value = JSON.parse(trimmed);
      } catch {
        value = raw;
      }
    }
  }
  if (Array.isArray(value)) {
    if (value.length !== 1) throw errors.badRequest('Expected exactly one channel');
    value = value[0];
  }
  if (typeof value === 'number' && Number.isSafeInteger(value)) return { id: value };
  if (typeof value === 'string') return { name: value };
  throw errors.badRequest('Invalid data type for channel');
}

/** `to` of a direct message: a JSON list of user ids or of emails, or comma-separated emails. */
export function parseDirectTargets(raw: unknown): { ids: number[] } | { emails: string[] } {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      value = raw.split(',').map((s) => s.trim()).filter(Boolean);
    }
  }
  if (typeof value === 'number' || typeof value === 'string') value = [value];
  if (!Array.isArray(value)) throw errors.badRequest('Invalid data type for recipients');
  if (value.length === 0) throw errors.badRequest('Message must have recipients');
  if (value.every((v) => typeof v === 'number' && Number.isSafeInteger(v))) return { ids: [...new Set(value as number[])] };
  if (value.every((v) => typeof v === 'string')) {
    return { emails: [...new Set((value as string[]).map((s) => s.trim()).filter(Boolean))] };
  }
  throw errors.badRequest('Recipient lists may contain emails or user IDs, but not both.');
}
