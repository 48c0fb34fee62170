/**
 * A channel's topic list, newest first, as the store keeps it (AppState.topics): what the server
 * listed (GET /users/me/<id>/topics) plus what messages and moves have shown since. Pure.
 *
 * Exports: noteTopic, dropTopic, setTopicMax, sameTopic.
 */
import type { ChannelTopics } from './store';

/** Topic names compare without case, as the server files them. */
export function sameTopic(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function sortTopics(list: ChannelTopics['topics']): ChannelTopics['topics'] {
  return [...list].sort((a, b) => b.max_id - a.max_id);
}

/** The list with `name` known to have a message `id` (a new topic, or a newer message). */
export function noteTopic(entry: ChannelTopics | undefined, name: string, id: number): ChannelTopics {
  const topics = entry?.topics ?? [];
  const i = topics.findIndex((t) => sameTopic(t.name, name));
  if (i >= 0 && topics[i]!.max_id >= id) return entry!;
  const next = i >= 0 ? topics.map((t, j) => (j === i ? { name: t.name, max_id: id } : t)) : [...topics, { name, max_id: id }];
  return { ...(entry ?? { complete: false }), topics: sortTopics(next) };
}

export function dropTopic(entry: ChannelTopics, name: string): ChannelTopics {
  const topics = entry.topics.filter((t) => !sameTopic(t.name, name));
  return topics.length === entry.topics.length ? entry : { ...entry, topics };
}

/** Lowers a topic's newest id after deletions (or drops it when nothing of it is known to remain). */
export function setTopicMax(entry: ChannelTopics, name: string, maxId: number | undefined): ChannelTopics {
  if (maxId === undefined) return dropTopic(entry, name);
  return { ...entry, topics: sortTopics(entry.topics.map((t) => (sameTopic(t.name, name) ? { ...t, max_id: maxId } : t))) };
}
