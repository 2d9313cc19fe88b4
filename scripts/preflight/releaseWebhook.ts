/**
 * GitHub's `release` webhook, which tells the worker of a new release to announce to buyers: with
 * GITHUB_WEBHOOK_SECRET set, an active webhook of the repository sends `release` events, as JSON,
 * to SITE_URL + /api/webhook/github. Asks GitHub's "List repository webhooks", which needs the
 * token's "Webhooks" repository permission (read), or a classic token's read:repo_hook scope.
 * GitHub shows a webhook's secret only as asterisks: that it is GITHUB_WEBHOOK_SECRET cannot be checked.
 */
import {RequestError} from '@octokit/request-error';
import {API_PATHS} from '../../src/config/api';
import {githubClient, TOKENS} from './github';
import {type CheckLine, fail, messageOf, ok, secretPut, warn} from './lines';

export interface ReleaseWebhookInput {
  token: string | undefined;
  /** GITHUB_REPO, `owner/name`. */
  repo: string | undefined;
  webhookSecret: string | undefined;
  /** UNSUBSCRIBE_SECRET: without it, the worker refuses every release delivery (503). */
  unsubscribeSecret: string | undefined;
  siteUrl: string;
  apiUrl?: string;
  env: string;
}

/** Where GitHub delivers the release events: the worker's route on the site. */
export function githubWebhookUrl(siteUrl: string): string {
  return new URL(API_PATHS.githubWebhook, siteUrl).href;
}

export async function checkReleaseWebhook(input: ReleaseWebhookInput): Promise<CheckLine[]> {
  const {token, repo, env} = input;
  if (!input.webhookSecret) {
    return [
      warn(
        "GitHub: GITHUB_WEBHOOK_SECRET is not set: releases will not be announced to buyers (no e-mail, nothing in What's new)",
        `${secretPut('GITHUB_WEBHOOK_SECRET', env)} and ${secretPut('UNSUBSCRIBE_SECRET', env)} (two random values: openssl rand -hex 32), then add the webhook (docs: Ship an update)`,
      ),
    ];
  }
  // Without a token or a repository, the GitHub lines already fail and say what to set.
  if (!token || !repo || !/^[\w.-]+\/[\w.-]+$/.test(repo)) return [];
  const lines: CheckLine[] = [];
  if (!input.unsubscribeSecret) {
    lines.push(
      fail(
        'GitHub: UNSUBSCRIBE_SECRET is not set: the worker refuses every release delivery (503)',
        `${secretPut('UNSUBSCRIBE_SECRET', env)} (a random value: openssl rand -hex 32)`,
      ),
    );
  }
  const url = githubWebhookUrl(input.siteUrl);
  const settings = `Payload URL ${url}, Content type application/json, Secret: the value of GITHUB_WEBHOOK_SECRET, "Let me select individual events": Releases only, Active`;
  const [owner, name] = repo.split('/') as [string, string];
  const octokit = githubClient(token, input.apiUrl);
  let hooks;
  try {
    hooks = await octokit.paginate(octokit.rest.repos.listWebhooks, {owner, repo: name, per_page: 100});
  } catch (error) {
    const status = error instanceof RequestError ? error.status : 0;
    if (status === 403 || status === 404) {
      // A fine-grained token without the permission answers 403; a classic token without the scope, 404.
      return [
        ...lines,
        fail(
          `GitHub: the token may not read the webhooks of ${repo} (${status}: ${messageOf(error)}), so the release webhook cannot be checked`,
          `Give the token Webhooks: Read-only on ${repo} (${TOKENS}; a classic token: the read:repo_hook scope), then ${secretPut('GITHUB_TOKEN', env)}`,
        ),
      ];
    }
    return [
      ...lines,
      fail(
        `GitHub: could not list the webhooks of ${repo}: ${messageOf(error)}`,
        'Try again; https://www.githubstatus.com says whether GitHub is down',
      ),
    ];
  }
  // A trailing slash is the same address to GitHub's delivery.
  const hook = hooks.find((candidate) => candidate.config.url?.replace(/\/+$/, '') === url.replace(/\/+$/, ''));
  if (!hook) {
    const elsewhere = hooks.map((candidate) => candidate.config.url).filter(Boolean);
    return [
      ...lines,
      fail(
        `GitHub: no webhook of ${repo} sends to ${url}${elsewhere.length > 0 ? ` (its webhooks send to ${elsewhere.join(', ')})` : ''}: releases will not be announced`,
        `https://github.com/${repo}/settings/hooks/new: ${settings}`,
      ),
    ];
  }
  const wrong = [
    ...(hook.active ? [] : ['it is inactive']),
    ...(hook.config.content_type === 'json' ? [] : [`it sends ${hook.config.content_type ?? 'form'}, not json`]),
    ...(hook.events.includes('release') || hook.events.includes('*')
      ? []
      : [`it does not send release events (only ${hook.events.join(', ') || 'none'})`]),
  ];
  if (wrong.length > 0) {
    return [
      ...lines,
      fail(
        `GitHub: the webhook to ${url}: ${wrong.join('; ')}`,
        `https://github.com/${repo}/settings/hooks/${hook.id}: ${settings}`,
      ),
    ];
  }
  return [...lines, ok(`GitHub: an active webhook sends release events to ${url}, as JSON`)];
}
