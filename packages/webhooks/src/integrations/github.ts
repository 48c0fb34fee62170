/**
 * GitHub (https://docs.github.com/en/webhooks/webhook-events-and-payloads): the event is in the
 * `X-GitHub-Event` header, and a hook with a secret signs the body in `X-Hub-Signature-256`.
 * Pushes go to `repo / branch`, pull requests and issues to `repo / PR #12 Title`, the rest to
 * the repository's name. Messages leave the item's title out when the topic already shows it.
 */
import { checkHmacSha256, SECRET_OPTION, UnsupportedEvent, type Integration, type WebhookMessage, type WebhookRequest } from '../framework';
import { branchTopic, duration, itemText, itemTopic, link, pushText, quote, releaseText, shortSha, tagText, topic } from '../format';
import type { Payload } from '../payload';

const EVENTS = [
  'ping', 'push', 'pull_request', 'pull_request_review', 'pull_request_review_comment', 'issues', 'issue_comment',
  'release', 'workflow_run', 'check_suite', 'check_run', 'star', 'watch', 'fork', 'create', 'delete',
] as const;

/** Actions that change nothing people follow in chat (labels, locks, merge queues): nothing is posted. */
const QUIET_ACTIONS = new Set([
  'labeled', 'unlabeled', 'locked', 'unlocked', 'milestoned', 'demilestoned', 'pinned', 'unpinned',
  'auto_merge_enabled', 'auto_merge_disabled', 'enqueued', 'dequeued', 'review_request_removed',
]);

interface Ctx {
  p: Payload;
  repo: string;
  sender: string;
  /** The user chose the topic: messages then name their item in full. */
  ownTopic: boolean;
  branches: string[] | null;
}

const msg = (t: string, content: string): WebhookMessage => ({ topic: topic(t), content });

function ping(c: Ctx): WebhookMessage[] {
  // An organization's hook has no repository: its topic is the organization.
  const where = c.p.get('repository').exists ? c.repo : c.p.at('organization.login').str();
  return [msg(where, `GitHub webhook has been successfully configured by ${c.sender}.`)];
}

function push(c: Ctx): WebhookMessage[] {
  const { p } = c;
  const ref = p.get('ref').str();
  const compare = p.get('compare').optStr();
  if (ref.startsWith('refs/tags/')) {
    const tag = ref.slice('refs/tags/'.length);
    const deleted = p.get('deleted').bool();
    return [msg(c.repo, tagText(c.sender, tag, deleted ? undefined : compare, deleted ? 'removed' : 'pushed'))];
  }
  const branch = ref.replace(/^refs\/heads\//, '');
  if (c.branches && !c.branches.includes(branch)) return [];
  const where = branchTopic(c.repo, branch);
  if (p.get('deleted').bool()) return [msg(where, `${c.sender} deleted branch ${branch}.`)];
  const commits = p.get('commits').list().map((k) => ({
    sha: k.get('id').str(),
    message: k.get('message').str(),
    url: k.get('url').str(),
    author: k.at('author.username').optStr() ?? k.at('author.name').str(),
  }));
  if (p.get('forced').bool() && commits.length <= 1) {
    const head = p.get('after').str();
    return [msg(where, `${c.sender} ${link('force pushed', compare)} to branch ${branch}. Head is now ${shortSha(head)}.`)];
  }
  if (p.get('created').bool() && commits.length === 0) {
    return [msg(where, `${c.sender} created branch ${link(branch, compare)}.`)];
  }
  // GitHub lists at most 2048 commits, and `size` is absent from current payloads.
  return [msg(where, pushText({ pusher: c.sender, branch, compareUrl: compare, commits }))];
}

/** The verb of a pull request's action said in one line; undefined for one not known. */
function pullRequestAction(action: string, pr: Payload): string | undefined {
  switch (action) {
    case 'closed': return pr.get('merged').exists && pr.get('merged').bool() ? 'merged' : 'closed without merge';
    case 'synchronize': return 'updated';
    case 'opened': case 'reopened': case 'edited': return action;
    default: return undefined;
  }
}

function pullRequest(c: Ctx): WebhookMessage[] {
  const { p } = c;
  const action = p.get('action').str();
  if (QUIET_ACTIONS.has(action)) return [];
  const pr = p.get('pull_request');
  const number = pr.get('number').num();
  const title = pr.get('title').str();
  const where = itemTopic(c.repo, 'PR', number, title);
  const url = pr.get('html_url').str();
  const shownTitle = c.ownTopic ? title : undefined;
  const name = link(`PR #${number}${shownTitle ? ` ${shownTitle}` : ''}`, url);
  if (action === 'review_requested') {
    const who = p.get('requested_reviewer').exists ? p.at('requested_reviewer.login').str() : p.at('requested_team.name').str();
    return [msg(where, `${c.sender} requested ${who} for a review on ${name}.`)];
  }
  if (action === 'assigned' || action === 'unassigned') {
    const who = p.at('assignee.login').str();
    const text = `${c.sender} ${action === 'assigned' ? `assigned ${who} to` : `unassigned ${who} from`} ${name}.`;
    return [msg(where, text)];
  }
  if (action === 'ready_for_review' || action === 'converted_to_draft') {
    const to = action === 'ready_for_review' ? 'as ready for review' : 'to draft';
    return [msg(where, `${c.sender} ${action === 'ready_for_review' ? 'marked' : 'converted'} ${name} ${to}.`)];
  }
  const verb = pullRequestAction(action, pr);
  if (verb === undefined) throw new UnsupportedEvent(`pull_request.${action}`);
  const opened = action === 'opened' || action === 'reopened';
  return [msg(where, itemText({
    user: c.sender,
    action: verb,
    type: 'PR',
    number,
    url,
    title: shownTitle,
    body: action === 'opened' || action === 'edited' ? pr.get('body').optStr() : null,
    assignees: opened ? pr.get('assignees').optList().map((a) => a.get('login').str()) : undefined,
    branches: opened ? [pr.at('head.ref').str(), pr.at('base.ref').str()] : undefined,
  }))];
}

function review(c: Ctx): WebhookMessage[] {
  const { p } = c;
  if (p.get('action').str() !== 'submitted') return [];
  const pr = p.get('pull_request');
  const r = p.get('review');
  const number = pr.get('number').num();
  const state = r.get('state').str().toLowerCase();
  const verb = state === 'approved' ? 'approved' : state === 'changes_requested' ? 'requested changes on' : 'reviewed';
  const body = r.get('body').optStr()?.trim();
  const item = link(`PR #${number}${c.ownTopic ? ` ${pr.get('title').str()}` : ''}`, pr.get('html_url').str());
  const text = `${c.sender} ${link(verb, r.get('html_url').str())} ${item}${body ? `:\n${quote(body)}` : '.'}`;
  return [msg(itemTopic(c.repo, 'PR', number, pr.get('title').str()), text)];
}

/** A comment on an issue, on a pull request's conversation, or on a line of its diff. */
function comment(c: Ctx, item: Payload, type: 'PR' | 'issue'): WebhookMessage[] {
  const { p } = c;
  const action = p.get('action').str();
  const cm = p.get('comment');
  const number = item.get('number').num();
  const title = item.get('title').str();
  const name = link(`${type === 'PR' ? 'PR' : 'Issue'} #${number}${c.ownTopic ? ` ${title}` : ''}`, item.get('html_url').str());
  const where = itemTopic(c.repo, type, number, title);
  const url = cm.get('html_url').str();
  if (action === 'created') return [msg(where, `${c.sender} ${link('commented', url)} on ${name}:\n${quote(cm.get('body').str())}`)];
  if (action === 'edited') return [msg(where, `${c.sender} edited ${link('a comment', url)} on ${name}:\n${quote(cm.get('body').str())}`)];
  if (action === 'deleted') return [msg(where, `${c.sender} deleted a comment on ${name}.`)];
  throw new UnsupportedEvent(`comment.${action}`);
}

function issues(c: Ctx): WebhookMessage[] {
  const { p } = c;
  const action = p.get('action').str();
  if (QUIET_ACTIONS.has(action)) return [];
  const issue = p.get('issue');
  const number = issue.get('number').num();
  const title = issue.get('title').str();
  const where = itemTopic(c.repo, 'issue', number, title);
  const url = issue.get('html_url').str();
  const shownTitle = c.ownTopic ? title : undefined;
  const name = link(`Issue #${number}${shownTitle ? ` ${shownTitle}` : ''}`, url);
  switch (action) {
    case 'opened': case 'reopened': case 'edited':
      return [msg(where, itemText({
        user: c.sender, action, type: 'Issue', number, url, title: shownTitle,
        body: action === 'reopened' ? null : issue.get('body').optStr(),
        assignees: action === 'opened' ? issue.get('assignees').optList().map((a) => a.get('login').str()) : undefined,
      }))];
    case 'closed': {
      const reason = issue.get('state_reason').optStr();
      return [msg(where, `${c.sender} closed ${name}${reason === 'not_planned' ? ' as not planned' : reason === 'completed' ? ' as completed' : ''}.`)];
    }
    case 'assigned': return [msg(where, `${c.sender} assigned ${p.at('assignee.login').str()} to ${name}.`)];
    case 'unassigned': return [msg(where, `${c.sender} unassigned ${p.at('assignee.login').str()} from ${name}.`)];
    case 'deleted': return [msg(where, `${c.sender} deleted ${name}.`)];
    case 'transferred': return [msg(where, `${c.sender} transferred ${name} to ${link(p.at('changes.new_repository.full_name').str(), p.at('changes.new_issue.html_url').str())}.`)];
    default: throw new UnsupportedEvent(`issues.${action}`);
  }
}

function release(c: Ctx): WebhookMessage[] {
  const { p } = c;
  const action = p.get('action').str();
  const r = p.get('release');
  const tag = r.get('tag_name').str();
  const name = r.get('name').optStr() || tag;
  const verbs: Record<string, string> = {
    published: 'published', created: 'created', released: 'released', prereleased: 'pre-released',
    edited: 'edited', deleted: 'deleted', unpublished: 'unpublished',
  };
  const verb = verbs[action];
  if (!verb) throw new UnsupportedEvent(`release.${action}`);
  // A published release also sends `created` (drafts aside) and `released` or `prereleased`:
  // one message is enough.
  if (action === 'created' || action === 'released' || action === 'prereleased') return [];
  return [msg(`${c.repo} / ${tag}${name !== tag ? ` ${name}` : ''}`, releaseText(c.sender, verb, name, r.get('html_url').str(), tag, r.get('prerelease').exists && r.get('prerelease').bool() ? 'pre-release' : 'release'))];
}

function workflowRun(c: Ctx): WebhookMessage[] {
  const { p } = c;
  if (p.get('action').str() !== 'completed') return [];
  const run = p.get('workflow_run');
  const name = run.get('name').str();
  const conclusion = run.get('conclusion').optStr() ?? 'unknown';
  const started = Date.parse(run.get('run_started_at').optStr() ?? run.get('created_at').str());
  const ended = Date.parse(run.get('updated_at').str());
  const took = Number.isFinite(started) && Number.isFinite(ended) ? ` in ${duration((ended - started) / 1000)}` : '';
  const text =
    `${link(`Workflow ${name} run #${run.get('run_number').num()}`, run.get('html_url').str())} ` +
    `on branch \`${run.get('head_branch').str()}\` (${run.get('event').str()}) ${conclusion === 'success' ? 'succeeded' : `finished: **${conclusion}**`}${took}.\n` +
    `Commit: ${shortSha(run.get('head_sha').str())} ${run.at('head_commit.message').optStr()?.split('\n')[0] ?? ''}`.trimEnd();
  return [msg(`${c.repo} / ${name}`, text)];
}

function checkSuite(c: Ctx): WebhookMessage[] {
  const { p } = c;
  if (p.get('action').str() !== 'completed') return [];
  const s = p.get('check_suite');
  const app = s.at('app.name').str();
  const branch = s.get('head_branch').optStr();
  const conclusion = s.get('conclusion').optStr() ?? 'unknown';
  const commitUrl = `${p.at('repository.html_url').str()}/commit/${s.get('head_sha').str()}`;
  const text = `Check suite of ${app} for ${link(shortSha(s.get('head_sha').str()), commitUrl)}${branch ? ` on branch \`${branch}\`` : ''} completed: **${conclusion}**.`;
  return [msg(c.repo, text)];
}

function checkRun(c: Ctx): WebhookMessage[] {
  const { p } = c;
  if (p.get('action').str() !== 'completed') return [];
  const r = p.get('check_run');
  const text = `Check ${link(r.get('name').str(), r.get('html_url').str())} for ${shortSha(r.get('head_sha').str())} completed: **${r.get('conclusion').optStr() ?? 'unknown'}**.`;
  return [msg(c.repo, text)];
}

function handle(event: string | null, req: WebhookRequest): WebhookMessage[] {
  const p = req.body;
  const branches = req.params.branches?.split(',').map((b) => b.trim()).filter(Boolean) ?? null;
  const c: Ctx = {
    p,
    repo: p.get('repository').exists ? p.at('repository.name').str() : '',
    sender: p.at('sender.login').optStr() ?? 'Someone',
    ownTopic: req.params.topic !== undefined,
    branches: branches && branches.length ? branches : null,
  };
  const repoLink = () => link(p.at('repository.full_name').str(), p.at('repository.html_url').str());
  switch (event) {
    case 'ping': return ping(c);
    case 'push': return push(c);
    case 'pull_request': return pullRequest(c);
    case 'pull_request_review': return review(c);
    case 'pull_request_review_comment': return comment(c, p.get('pull_request'), 'PR');
    case 'issue_comment': return comment(c, p.get('issue'), p.at('issue.pull_request').exists ? 'PR' : 'issue');
    case 'issues': return issues(c);
    case 'release': return release(c);
    case 'workflow_run': return workflowRun(c);
    case 'check_suite': return checkSuite(c);
    case 'check_run': return checkRun(c);
    case 'star': return p.get('action').str() === 'created' ? [msg(c.repo, `${c.sender} starred the repository ${repoLink()}.`)] : [];
    // `watch` is GitHub's older name for starring (its only action is `started`).
    case 'watch': return [msg(c.repo, `${c.sender} starred the repository ${repoLink()}.`)];
    case 'fork': return [msg(c.repo, `${c.sender} forked ${repoLink()} to ${link(p.at('forkee.full_name').str(), p.at('forkee.html_url').str())}.`)];
    // Pushes report new and deleted branches and tags too; these events would repeat them.
    case 'create': case 'delete': return [];
    default: throw new UnsupportedEvent(event ?? 'unknown');
  }
}

export const github: Integration = {
  name: 'github',
  displayName: 'GitHub',
  allEventTypes: EVENTS,
  configOptions: [SECRET_OPTION],
  urlOptions: [{ key: 'branches', label: 'Only notify of pushes to these branches (comma-separated)', validator: 'check_string' }],
  body: 'form',
  eventHeader: 'X-GitHub-Event',
  verify: (req) => checkHmacSha256(req, req.headers['x-hub-signature-256'], 'sha256='),
  handle,
};
