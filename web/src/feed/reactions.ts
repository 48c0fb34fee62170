/** A message's reactions, grouped by emoji in the order each was first used, with who reacted. */
import type { MessageReaction } from '@chat/client';

export interface ReactionGroup {
  key: string;
  name: string;
  code: string;
  type: string;
  userIds: number[];
  mine: boolean;
}

export function groupReactions(reactions: readonly MessageReaction[], selfId: number): ReactionGroup[] {
  const groups = new Map<string, ReactionGroup>();
  for (const r of reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    let g = groups.get(key);
    if (!g) {
      g = { key, name: r.emoji_name, code: r.emoji_code, type: r.reaction_type, userIds: [], mine: false };
      groups.set(key, g);
    }
    if (!g.userIds.includes(r.user_id)) g.userIds.push(r.user_id);
    if (r.user_id === selfId) g.mine = true;
  }
  return [...groups.values()];
}

/** "You, Ada and Bo" (the viewer first), the names of who reacted. */
export function reactorNames(group: ReactionGroup, selfId: number, nameOf: (id: number) => string, youWord: string, andWord: string): string {
  const names = [...(group.mine ? [youWord] : []), ...group.userIds.filter((id) => id !== selfId).map(nameOf)];
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} ${andWord} ${names[names.length - 1]}`;
}
