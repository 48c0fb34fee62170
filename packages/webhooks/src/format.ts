/**
 * The shapes of message the family's git integrations share (GitHub here, GitLab and Bitbucket
 * alike): topics `repo / branch` and `repo / PR #12 Title`, a push as a list of its commits, a pull
 * request or issue as one line with its link, long text quoted. Kept in one place so every
 * provider of the kind reads the same in a channel.
 */

/** How many commits a push lists before "and N more commit(s)". */
export const COMMITS_SHOWN = 20;
/** How many committers a push names before "others". */
const COMMITTERS_NAMED = 3;
/** The longest topic the family keeps (longer ones are cut with an ellipsis). */
const TOPIC_MAX = 60;

export const shortSha = (sha: string) => sha.slice(0, 7);

/** A topic cut to the family's length, ending in "…" when cut. */
export function topic(text: string): string {
  const chars = [...text];
  return chars.length <= TOPIC_MAX ? text : chars.slice(0, TOPIC_MAX - 1).join('') + '…';
}

export const branchTopic = (repo: string, branch: string) => topic(`${repo} / ${branch}`);

/** `repo / PR #12 Title` (type: PR, issue, MR). */
export const itemTopic = (repo: string, type: string, id: number | string, title: string) => topic(`${repo} / ${type} #${id} ${title}`);

/** Text shown as a quote block, as the family shows bodies and comments. */
export const quote = (text: string) => `\n~~~ quote\n${text}\n~~~`;

export const link = (text: string, url: string | undefined) => (url ? `[${text}](${url})` : text);

export interface Commit {
  sha: string;
  message: string;
  url?: string;
  author: string;
}

function commitLines(commits: readonly Commit[], truncated: boolean): string {
  const lines = commits.slice(0, COMMITS_SHOWN).map((c) => `* ${c.message.split('\n')[0]} (${link(shortSha(c.sha), c.url)})`);
  if (commits.length > COMMITS_SHOWN) lines.push(`[and ${commits.length - COMMITS_SHOWN} more commit(s)]`);
  else if (truncated) lines.push('[and more commit(s)]');
  return lines.join('\n');
}

/** "Commits by A (3), B (2) and others (4)": most commits first, ties by name. */
function committers(commits: readonly Commit[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const c of commits) counts.set(c.author, (counts.get(c.author) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (sorted.length <= COMMITTERS_NAMED) return sorted;
  const rest = sorted.slice(COMMITTERS_NAMED).reduce((n, [, k]) => n + k, 0);
  return [...sorted.slice(0, COMMITTERS_NAMED), ['others', rest]];
}

export interface Push {
  pusher: string;
  branch: string;
  compareUrl?: string;
  commits: readonly Commit[];
  /** The provider listed only some of the commits. */
  truncated?: boolean;
  deleted?: boolean;
}

/** A push to a branch: its commits, who wrote them when not only the pusher, or the branch's deletion. */
export function pushText(p: Push): string {
  if (p.commits.length === 0) {
    return p.deleted
      ? `${p.pusher} ${link('deleted', p.compareUrl)} the branch ${p.branch}.`
      : `${p.pusher} ${link('pushed', p.compareUrl)} the branch ${p.branch}.`;
  }
  const n = p.commits.length;
  const pushed = `${link('pushed', p.compareUrl)} ${n} commit${n > 1 ? 's' : ''}`;
  const by = committers(p.commits);
  let head = `${p.pusher} ${pushed} to branch ${p.branch}.`;
  if (!(by.length === 1 && by[0][0] === p.pusher)) {
    const named = by.map(([name, k]) => `${name} (${k})`);
    const list = named.length > 1 ? `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}` : named[0];
    head += ` Commits by ${list}.`;
  }
  return `${head}\n\n${commitLines(p.commits, !!p.truncated)}`;
}

export interface ItemEvent {
  user: string;
  action: string;
  /** PR, Issue, MR. */
  type: string;
  url: string;
  number?: number;
  title?: string;
  /** The body, quoted below the line. */
  body?: string | null;
  assignees?: readonly string[];
  /** [head, base]: "from `head` to `base`". */
  branches?: [string, string];
}

/**
 * "alice opened [PR #12](url) from `feature` to `main`:" with the body quoted; the title is left
 * out when the topic already names the item (the family's default), included otherwise.
 */
export function itemText(e: ItemEvent): string {
  const id = e.number !== undefined ? ` #${e.number}` : '';
  let line = `${e.user} ${e.action} ${link(`${e.type}${id}${e.title !== undefined ? ` ${e.title}` : ''}`, e.url)}`;
  if (e.assignees && e.assignees.length) {
    const a = e.assignees;
    line += ` (assigned to ${a.length === 1 ? a[0] : `${a.slice(0, -1).join(', ')} and ${a[a.length - 1]}`})`;
  }
  if (e.branches) line += ` from \`${e.branches[0]}\` to \`${e.branches[1]}\``;
  const body = e.body?.trim();
  const endsInPunctuation = e.title !== undefined && !e.assignees?.length && !e.branches && /[\p{P}]$/u.test(e.title);
  if (!endsInPunctuation) line += body ? ':' : '.';
  return body ? `${line}\n${quote(body)}` : line;
}

/** "alice published release [v1.0](url) for tag v1.0." (noun: "pre-release" for those). */
export const releaseText = (user: string, action: string, name: string, url: string, tag: string, noun = 'release') =>
  `${user} ${action} ${noun} ${link(name, url)} for tag ${tag}.`;

/** "alice pushed tag [v1.0](url)." */
export function tagText(user: string, tag: string, url: string | undefined, action = 'pushed'): string {
  const text = `${user} ${action} tag ${link(tag, url)}`;
  return /[\p{P}]$/u.test(tag) ? text : `${text}.`;
}

/** A duration in seconds as "1h 2m 3s" (CI runs). */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const parts = [[Math.floor(s / 3600), 'h'], [Math.floor((s % 3600) / 60), 'm'], [s % 60, 's']] as const;
  const shown = parts.filter(([n]) => n > 0).map(([n, u]) => `${n}${u}`);
  return shown.length ? shown.join(' ') : '0s';
}
