/**
 * GitLab (https://docs.gitlab.com/user/project/integrations/webhook_events/): the event is in the
 * `X-Gitlab-Event` header ("Push Hook", "Merge Request Hook", ...), completed, as the family does,
 * by the payload's action ("Merge Request Hook merge") or, for comments, by what was commented
 * on ("Note Hook MergeRequest"); those full names are what `only_events` filters. A hook with a
 * secret token sends it back as is in `X-Gitlab-Token`.
 * Pushes and CI go to `repo / branch`, merge requests, issues and snippets to `repo / MR #1 Title`,
 * tags, releases and commit comments to the project's name.
 */
import { checkToken, SECRET_OPTION, UnsupportedEvent, type Integration, type WebhookMessage, type WebhookRequest } from '../framework';
import { branchTopic, itemText, itemTopic, link, pushText, quote, shortSha, tagText, topic } from '../format';
import type { Payload } from '../payload';

/** GitLab's "before"/"after" of a branch that does not exist (created or deleted). */
const NO_SHA = '0000000000000000000000000000000000000000';

const ISSUE_ACTIONS = ['open', 'close', 'reopen', 'update'];
const MR_ACTIONS = ['open', 'close', 'reopen', 'update', 'merge', 'approved', 'unapproved', 'approval', 'unapproval'];
const EVENTS = [
  'Push Hook', 'Tag Push Hook',
  ...MR_ACTIONS.map((a) => `Merge Request Hook ${a}`),
  ...ISSUE_ACTIONS.flatMap((a) => [`Issue Hook ${a}`, `Confidential Issue Hook ${a}`]),
  'Note Hook Commit', 'Note Hook MergeRequest', 'Note Hook Issue', 'Note Hook Snippet', 'Confidential Note Hook Issue',
  'Pipeline Hook', 'Job Hook', 'Build Hook',
  'Release Hook create', 'Release Hook update', 'Release Hook delete',
  'Wiki Page Hook create', 'Wiki Page Hook update', 'Wiki Page Hook delete',
] as const;

/** Header values whose payload names an action, and those that name what a comment is on. */
const WITH_ACTION = new Set(['Merge Request Hook', 'Issue Hook', 'Confidential Issue Hook', 'Release Hook', 'Wiki Page Hook']);
const NOTES = new Set(['Note Hook', 'Confidential Note Hook']);

/**
 * Changes of an updated merge request or issue nobody follows in chat: an update that changes only
 * these posts nothing (labels come and go, timestamps always change).
 */
const QUIET_CHANGES = new Set(['labels', 'updated_at', 'updated_by_id', 'last_edited_at', 'last_edited_by_id', 'time_change', 'total_time_spent', 'milestone_id']);

interface Ctx {
  p: Payload;
  repo: string;
  /** The user chose the topic: messages then name their item in full. */
  ownTopic: boolean;
  branches: string[] | null;
}

const msg = (t: string, content: string): WebhookMessage => ({ topic: topic(t), content });
const projectUrl = (c: Ctx) => c.p.at('project.web_url').str();
/** Who did it: merge request, issue, note and pipeline payloads name the user in `user`. */
const userName = (c: Ctx) => c.p.at('user.name').str();

/** `<!-- hidden -->` comments of a description are for the template's reader, not for chat. */
const visibleText = (text: string | undefined) => text?.replace(/<!--[\s\S]*?-->/g, '').trim();

function push(c: Ctx): WebhookMessage[] {
  const { p } = c;
  const branch = p.get('ref').str().replace(/^refs\/heads\//, '');
  if (c.branches && !c.branches.includes(branch)) return [];
  const where = branchTopic(c.repo, branch);
  const user = p.get('user_name').str();
  if (p.get('after').str() === NO_SHA) return [msg(where, `${user} deleted branch ${branch}.`)];
  const before = p.get('before').str();
  const compareUrl = before === NO_SHA ? undefined : `${projectUrl(c)}/-/compare/${before}...${p.get('after').str()}`;
  const commits = p.get('commits').list().map((k) => ({
    sha: k.get('id').str(),
    message: k.get('message').str(),
    url: k.get('url').str(),
    author: k.at('author.name').str(),
  }));
  // GitLab lists at most 20 commits of a push and counts them all in total_commits_count.
  const total = p.get('total_commits_count').optNum() ?? commits.length;
  if (before === NO_SHA && commits.length === 0) return [msg(where, `${user} created branch ${branch}.`)];
  return [msg(where, pushText({ pusher: user, branch, compareUrl, commits, truncated: total > commits.length }))];
}

function tagPush(c: Ctx): WebhookMessage[] {
  const { p } = c;
  const tag = p.get('ref').str().replace(/^refs\/tags\//, '');
  // A deleted tag has no commit to check out.
  const removed = !p.get('checkout_sha').exists;
  const url = removed ? undefined : `${projectUrl(c)}/-/tags/${encodeURIComponent(tag)}`;
  return [msg(c.repo, tagText(p.get('user_name').str(), tag, url, removed ? 'removed' : 'pushed'))];
}

/** `[MR #1](url)`, with its title when the user chose the topic. */
function itemName(c: Ctx, type: string, id: number, title: string, url: string): string {
  return link(`${type} #${id}${c.ownTopic ? ` ${title}` : ''}`, url);
}

function assigneeNames(p: Payload): string[] {
  const list = p.get('assignees').optList().map((a) => a.get('name').str());
  if (list.length) return list;
  const one = p.at('assignee.name').optStr();
  return one ? [one] : [];
}

function mergeRequest(c: Ctx, action: string): WebhookMessage[] {
  const { p } = c;
  const mr = p.get('object_attributes');
  const id = mr.get('iid').num();
  const title = mr.get('title').str();
  const url = mr.get('url').str();
  const where = itemTopic(c.repo, 'MR', id, title);
  const user = userName(c);
  const name = itemName(c, 'MR', id, title, url);
  const opened = (verb: string, body: string | undefined) => [msg(where, itemText({
    user, action: verb, type: 'MR', number: id, url, title: c.ownTopic ? title : undefined, body,
    assignees: assigneeNames(p), branches: [mr.get('source_branch').str(), mr.get('target_branch').str()],
  }))];
  switch (action) {
    case 'open': return opened('created', visibleText(mr.get('description').optStr()));
    case 'reopen': return [msg(where, `${user} reopened ${name}.`)];
    case 'close': return [msg(where, `${user} closed ${name}.`)];
    case 'merge': return [msg(where, `${user} merged ${name}.`)];
    case 'approved': return [msg(where, `${user} approved ${name}.`)];
    case 'unapproved': return [msg(where, `${user} unapproved ${name}.`)];
    // GitLab sends these for each approver beside approved/unapproved: posting both would say it twice.
    case 'approval': case 'unapproval': return [];
    case 'update': {
      if (mr.get('oldrev').exists) return [msg(where, `${user} added commit(s) to ${name}.`)];
      const changed = p.get('changes').exists ? p.get('changes').entries().map(([k]) => k) : [];
      if (changed.length && changed.every((k) => QUIET_CHANGES.has(k))) return [];
      return opened('updated', changed.includes('description') ? visibleText(mr.get('description').optStr()) : undefined);
    }
    default: throw new UnsupportedEvent(`Merge Request Hook ${action}`);
  }
}

function issue(c: Ctx, event: string, action: string): WebhookMessage[] {
  const { p } = c;
  const it = p.get('object_attributes');
  const id = it.get('iid').num();
  const title = it.get('title').str();
  const url = it.get('url').str();
  const where = itemTopic(c.repo, 'issue', id, title);
  const user = userName(c);
  const name = itemName(c, 'Issue', id, title, url);
  switch (action) {
    case 'open':
      return [msg(where, itemText({
        user, action: 'created', type: 'Issue', number: id, url, title: c.ownTopic ? title : undefined,
        body: visibleText(it.get('description').optStr()), assignees: assigneeNames(p),
      }))];
    case 'close': return [msg(where, `${user} closed ${name}.`)];
    case 'reopen': return [msg(where, `${user} reopened ${name}.`)];
    case 'update': {
      const changed = p.get('changes').exists ? p.get('changes').entries().map(([k]) => k) : [];
      if (changed.length && changed.every((k) => QUIET_CHANGES.has(k))) return [];
      return [msg(where, `${user} updated ${name}.`)];
    }
    default: throw new UnsupportedEvent(`${event} ${action}`);
  }
}

/** A comment on a commit, a merge request, an issue or a snippet, quoted under who wrote it where. */
function note(c: Ctx, event: string, on: string): WebhookMessage[] {
  const { p } = c;
  if (!['Commit', 'MergeRequest', 'Issue', 'Snippet'].includes(on)) throw new UnsupportedEvent(`${event} ${on}`);
  const n = p.get('object_attributes');
  const commented = `${userName(c)} ${link('commented', n.get('url').str())} on`;
  const text = quote(n.get('note').str());
  const item = (type: string, topicType: string, key: string, id: number) => {
    const it = p.get(key);
    const title = it.get('title').str();
    const path = key === 'merge_request' ? 'merge_requests' : key === 'issue' ? 'issues' : 'snippets';
    const url = it.get('url').optStr() ?? `${projectUrl(c)}/-/${path}/${id}`;
    return [msg(itemTopic(c.repo, topicType, id, title), `${commented} ${itemName(c, type, id, title, url)}:\n${text}`)];
  };
  switch (on) {
    case 'Commit': {
      const commit = p.get('commit');
      return [msg(c.repo, `${commented} ${link(shortSha(commit.get('id').str()), commit.get('url').str())}:\n${text}`)];
    }
    case 'MergeRequest': return item('MR', 'MR', 'merge_request', p.at('merge_request.iid').num());
    case 'Issue': return item('Issue', 'issue', 'issue', p.at('issue.iid').num());
    case 'Snippet': return item('Snippet', 'snippet', 'snippet', p.at('snippet.id').num());
    default: throw new UnsupportedEvent(`${event} ${on}`);
  }
}

/** A pipeline's status, with each of its jobs. */
function pipeline(c: Ctx): WebhookMessage[] {
  const { p } = c;
  const pl = p.get('object_attributes');
  const id = pl.get('id').num();
  const status = pl.get('status').str();
  const url = pl.get('url').optStr() ?? `${projectUrl(c)}/-/pipelines/${id}`;
  const change = status === 'pending' || status === 'created' ? 'was created' : status === 'running' ? 'started' : `changed status to **${status}**`;
  const jobs = p.get('builds').optList().map((b) => {
    const jobUrl = `${projectUrl(c)}/-/jobs/${b.get('id').num()}`;
    return `* ${link(b.get('name').str(), jobUrl)} (${b.get('stage').str()}) - ${b.get('status').str()}`;
  });
  const head = `${link(`Pipeline #${id}`, url)} ${change}`;
  const text = jobs.length ? `${head} with job(s):\n${jobs.join('\n')}` : `${head}.`;
  return [msg(branchTopic(c.repo, pl.get('ref').str().replace(/^refs\/heads\//, '')), text)];
}

function job(c: Ctx): WebhookMessage[] {
  const { p } = c;
  const status = p.get('build_status').str();
  const change = status === 'created' ? 'was created' : status === 'running' ? 'started' : `changed status to **${status}**`;
  const home = p.at('repository.homepage').str();
  const name = link(`Job ${p.get('build_name').str()}`, `${home}/-/jobs/${p.get('build_id').num()}`);
  const repo = p.at('repository.name').str();
  return [msg(branchTopic(repo, p.get('ref').str().replace(/^refs\/heads\//, '')), `${name} from stage ${p.get('build_stage').str()} ${change}.`)];
}

function release(c: Ctx, action: string): WebhookMessage[] {
  const { p } = c;
  const verbs: Record<string, string> = { create: 'created', update: 'updated', delete: 'deleted' };
  const verb = verbs[action];
  if (!verb) throw new UnsupportedEvent(`Release Hook ${action}`);
  const tag = p.get('tag').str();
  const name = p.get('name').optStr() || tag;
  const tagUrl = `${projectUrl(c)}/-/tags/${encodeURIComponent(tag)}`;
  // The release payload names no user.
  return [msg(c.repo, `Release ${link(name, action === 'delete' ? undefined : p.get('url').str())} for tag ${link(tag, tagUrl)} was ${verb}.`)];
}

function wikiPage(c: Ctx, action: string): WebhookMessage[] {
  const verbs: Record<string, string> = { create: 'created', update: 'updated', delete: 'deleted' };
  const verb = verbs[action];
  if (!verb) throw new UnsupportedEvent(`Wiki Page Hook ${action}`);
  const page = c.p.get('object_attributes');
  return [msg(c.repo, `${userName(c)} ${verb} ${link(`wiki page "${page.get('title').str()}"`, page.get('url').str())}.`)];
}

/** The family's full event name: the header, and the action or what a comment is on. */
function eventName(req: WebhookRequest): string {
  const header = req.headers['x-gitlab-event'] ?? '';
  if (WITH_ACTION.has(header)) return `${header} ${req.body.at('object_attributes.action').optStr() ?? req.body.get('action').str()}`;
  if (NOTES.has(header)) return `${header} ${req.body.at('object_attributes.noteable_type').str()}`;
  return header;
}

function handle(event: string | null, req: WebhookRequest): WebhookMessage[] {
  const p = req.body;
  const branches = req.params.branches?.split(',').map((b) => b.trim()).filter(Boolean) ?? null;
  const c: Ctx = {
    p,
    repo: p.get('project').exists ? p.at('project.name').str() : p.at('repository.name').str(),
    ownTopic: req.params.topic !== undefined,
    branches: branches && branches.length ? branches : null,
  };
  const e = event ?? '';
  const [, header, rest] = /^((?:Confidential )?(?:Merge Request|Issue|Note|Release|Wiki Page) Hook) (.+)$/.exec(e) ?? [];
  if (header === 'Merge Request Hook') return mergeRequest(c, rest);
  if (header === 'Issue Hook' || header === 'Confidential Issue Hook') return issue(c, header, rest);
  if (header === 'Note Hook' || header === 'Confidential Note Hook') return note(c, header, rest);
  if (header === 'Release Hook') return release(c, rest);
  if (header === 'Wiki Page Hook') return wikiPage(c, rest);
  switch (e) {
    case 'Push Hook': return push(c);
    case 'Tag Push Hook': return tagPush(c);
    case 'Pipeline Hook': return pipeline(c);
    // "Build Hook" is the older name of the job event.
    case 'Job Hook': case 'Build Hook': return job(c);
    default: throw new UnsupportedEvent(e || 'unknown');
  }
}

export const gitlab: Integration = {
  name: 'gitlab',
  displayName: 'GitLab',
  allEventTypes: EVENTS,
  configOptions: [SECRET_OPTION],
  urlOptions: [{ key: 'branches', label: 'Only notify of pushes to these branches (comma-separated)', validator: 'check_string' }],
  eventHeader: 'X-Gitlab-Event',
  event: eventName,
  verify: (req) => checkToken(req, req.headers['x-gitlab-token']),
  handle,
};
