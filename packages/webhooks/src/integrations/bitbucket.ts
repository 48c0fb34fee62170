/**
 * Bitbucket Cloud (https://support.atlassian.com/bitbucket-cloud/docs/event-payloads/): the event
 * key is in the `X-Event-Key` header (`repo:push`, `pullrequest:created`, ...). Its URL name is
 * the family's, `bitbucket2` (the family's `bitbucket` is Bitbucket's retired hook format), and
 * `only_events` names the family's event names (`push`, `pull_request_created`, `issue_commented`).
 * Pushes go to `repo / branch` (one message per changed branch or tag), pull requests and issues
 * to `repo / PR #1 Title`, the rest to the repository's name.
 */
import { UnsupportedEvent, type Integration, type WebhookMessage, type WebhookRequest } from '../framework';
import { branchTopic, itemText, itemTopic, link, pushText, quote, shortSha, tagText, topic } from '../format';
import type { Payload } from '../payload';

/** Bitbucket's event keys and the family's names for them. */
const EVENT_NAMES: Record<string, string> = {
  'repo:push': 'push',
  'repo:fork': 'fork',
  'repo:updated': 'repo:updated',
  'repo:commit_comment_created': 'commit_comment',
  'repo:commit_status_created': 'change_commit_status',
  'repo:commit_status_updated': 'change_commit_status',
  'issue:created': 'issue_created',
  'issue:updated': 'issue_updated',
  'issue:comment_created': 'issue_commented',
  ...Object.fromEntries([
    'created', 'updated', 'approved', 'unapproved', 'fulfilled', 'rejected', 'changes_request_created', 'changes_request_removed',
    'comment_created', 'comment_updated', 'comment_deleted',
  ].map((a) => [`pullrequest:${a}`, `pull_request_${a}`])),
};

interface Ctx {
  p: Payload;
  repo: string;
  actor: string;
  ownTopic: boolean;
  branches: string[] | null;
}

const msg = (t: string, content: string): WebhookMessage => ({ topic: topic(t), content });
const href = (p: Payload) => p.at('links.html.href').str();
/** A Bitbucket account as shown: its display name (nickname for older payloads). */
const person = (u: Payload) => u.get('display_name').optStr() ?? u.get('nickname').str();

/** One message per changed branch or tag of a push. */
function push(c: Ctx): WebhookMessage[] {
  const out: WebhookMessage[] = [];
  for (const change of c.p.at('push.changes').list()) {
    const ref = change.get('new').exists ? change.get('new') : change.get('old');
    const name = ref.get('name').str();
    if (ref.get('type').str() === 'tag') {
      const removed = !change.get('new').exists;
      out.push(msg(c.repo, tagText(c.actor, name, href(ref), removed ? 'removed' : 'pushed')));
      continue;
    }
    if (c.branches && !c.branches.includes(name)) continue;
    const where = branchTopic(c.repo, name);
    if (!change.get('new').exists) {
      out.push(msg(where, `${c.actor} deleted branch ${name}.`));
      continue;
    }
    const compare = change.at('links.html.href').optStr();
    if (change.get('forced').bool()) {
      out.push(msg(where, `${c.actor} ${link('force pushed', compare)} to branch ${name}. Head is now ${shortSha(change.at('new.target.hash').str())}.`));
      continue;
    }
    const commits = change.get('commits').optList().map((k) => ({
      sha: k.get('hash').str(),
      message: k.get('message').str(),
      url: href(k),
      // A commit by someone without a Bitbucket account has only the raw "Name <email>".
      author: k.at('author.user').exists ? person(k.at('author.user')) : k.at('author.raw').str().replace(/\s*<[^>]*>\s*$/, ''),
    }));
    if (commits.length === 0) {
      out.push(msg(where, `${c.actor} created branch ${link(name, href(change.get('new')))}.`));
      continue;
    }
    out.push(msg(where, pushText({ pusher: c.actor, branch: name, compareUrl: compare, commits, truncated: change.get('truncated').exists && change.get('truncated').bool() })));
  }
  return out;
}

function pullRequest(c: Ctx, action: string): WebhookMessage[] {
  const { p } = c;
  const pr = p.get('pullrequest');
  const id = pr.get('id').num();
  const title = pr.get('title').str();
  const url = href(pr);
  const where = itemTopic(c.repo, 'PR', id, title);
  const name = link(`PR #${id}${c.ownTopic ? ` ${title}` : ''}`, url);
  const branches: [string, string] = [pr.at('source.branch.name').str(), pr.at('destination.branch.name').str()];
  const said = (verb: string) => [msg(where, `${c.actor} ${verb} ${name}.`)];
  const comment = (verb: (url: string) => string, withText: boolean) => {
    const cm = p.get('comment');
    const text = withText ? `:\n${quote(cm.at('content.raw').str())}` : '.';
    return [msg(where, `${c.actor} ${verb(href(cm))} on ${name}${text}`)];
  };
  switch (action) {
    case 'created': case 'updated':
      return [msg(where, itemText({
        user: c.actor, action, type: 'PR', number: id, url, title: c.ownTopic ? title : undefined,
        body: pr.get('description').optStr(), branches: action === 'created' ? branches : undefined,
      }))];
    case 'approved': return said('approved');
    case 'unapproved': return said('unapproved');
    case 'changes_request_created': return said('requested changes on');
    case 'changes_request_removed': return said('withdrew the request for changes on');
    case 'rejected': return said('declined');
    case 'fulfilled': return [msg(where, `${c.actor} merged ${name} from \`${branches[0]}\` to \`${branches[1]}\`.`)];
    case 'comment_created': return comment((u) => link('commented', u), true);
    case 'comment_updated': return comment((u) => `edited ${link('a comment', u)}`, true);
    case 'comment_deleted': return comment((u) => `deleted ${link('a comment', u)}`, false);
    default: throw new UnsupportedEvent(`pull_request_${action}`);
  }
}

function issue(c: Ctx, event: string): WebhookMessage[] {
  const { p } = c;
  const it = p.get('issue');
  const id = it.get('id').num();
  const title = it.get('title').str();
  const url = href(it);
  const where = itemTopic(c.repo, 'issue', id, title);
  const name = link(`Issue #${id}${c.ownTopic ? ` ${title}` : ''}`, url);
  if (event === 'issue_created') {
    return [msg(where, itemText({
      user: c.actor, action: 'created', type: 'Issue', number: id, url, title: c.ownTopic ? title : undefined,
      body: it.at('content.raw').optStr(), assignees: it.get('assignee').exists ? [person(it.get('assignee'))] : undefined,
    }))];
  }
  if (event === 'issue_commented') {
    const cm = p.get('comment');
    return [msg(where, `${c.actor} ${link('commented', href(cm))} on ${name}:\n${quote(cm.at('content.raw').str())}`)];
  }
  // An update names what changed (state, title, assignee...); the state is what people follow.
  const state = p.at('changes.state.new').optStr();
  return [msg(where, state ? `${c.actor} changed the state of ${name} to **${state}**.` : `${c.actor} updated ${name}.`)];
}

function repoUpdated(c: Ctx): WebhookMessage[] {
  const changes = c.p.get('changes').entries();
  const lines = changes.flatMap(([field, ch]) => {
    const now = ch.get('new').exists ? ch.get('new').value : undefined;
    if (typeof now !== 'string' || field === 'links') return [];
    const old = ch.get('old').optStr();
    return [`${c.actor} changed the ${field.replace(/_/g, ' ')} of the **${c.repo}** repository${old ? ` from **${old}**` : ''} to **${now}**.`];
  });
  return lines.length ? [msg(c.repo, lines.join('\n'))] : [];
}

function handle(event: string | null, req: WebhookRequest): WebhookMessage[] {
  const p = req.body;
  const branches = req.params.branches?.split(',').map((b) => b.trim()).filter(Boolean) ?? null;
  const c: Ctx = {
    p,
    repo: p.at('repository.name').str(),
    actor: person(p.get('actor')),
    ownTopic: req.params.topic !== undefined,
    branches: branches && branches.length ? branches : null,
  };
  const e = event ?? '';
  if (e.startsWith('pull_request_')) return pullRequest(c, e.slice('pull_request_'.length));
  if (e.startsWith('issue_')) return issue(c, e);
  switch (e) {
    case 'push': return push(c);
    case 'fork': return [msg(c.repo, `${c.actor} forked the repository into ${link(p.at('fork.full_name').str(), href(p.get('fork')))}.`)];
    case 'commit_comment': {
      const cm = p.get('comment');
      const commit = cm.get('commit');
      return [msg(c.repo, `${c.actor} ${link('commented', href(cm))} on ${link(shortSha(commit.get('hash').str()), href(commit))}:\n${quote(cm.at('content.raw').str())}`)];
    }
    case 'change_commit_status': {
      const s = p.get('commit_status');
      const sha = s.at('links.commit.href').str().split('/').pop() ?? '';
      const commit = link(shortSha(sha), `${href(p.get('repository'))}/commits/${sha}`);
      return [msg(c.repo, `${link(s.get('name').optStr() ?? s.get('key').str(), s.get('url').str())} changed the status of ${commit} to **${s.get('state').str()}**.`)];
    }
    case 'repo:updated': return repoUpdated(c);
    default: throw new UnsupportedEvent(e || 'unknown');
  }
}

export const bitbucket2: Integration = {
  name: 'bitbucket2',
  displayName: 'Bitbucket',
  allEventTypes: [...new Set(Object.values(EVENT_NAMES))],
  urlOptions: [{ key: 'branches', label: 'Only notify of pushes to these branches (comma-separated)', validator: 'check_string' }],
  eventHeader: 'X-Event-Key',
  event: (req) => {
    const key = req.headers['x-event-key'] ?? '';
    return EVENT_NAMES[key] ?? key;
  },
  handle,
};
