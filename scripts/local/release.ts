/**
 * A GitHub release, published to the local worker as GitHub would: one of GitHub's own recorded
 * `release` deliveries (@octokit/webhooks-examples), made the local repository's, with the tag,
 * name and notes given, signed with the local stack's webhook secret. `npm start -- --local` sets
 * that secret; the worker then e-mails the release from its next cron run (printed in the
 * terminal), and the dashboard's "What's new" lists it.
 *
 *   npm run release:local -- --tag v1.1.0 --name "Version 1.1" --notes "**Faster** builds."
 */
import {createHmac, randomUUID} from 'node:crypto';
import {parseArgs} from 'node:util';
import examples from '@octokit/webhooks-examples';
import type {ReleaseEvent} from '@octokit/webhooks-types';
import {API_PATHS, type ReleaseWebhookResult} from '../../src/config/api';
import {FIXTURE_REPO, LOCAL_GITHUB_WEBHOOK_SECRET} from './githubApi';

export interface LocalRelease {
  tag: string;
  name?: string;
  notes: string;
}

const recorded = examples.find((definition) => definition.name === 'release')!.examples as ReleaseEvent[];

/** GitHub's recorded `published` delivery, made this release of the local repository. */
export function releaseDelivery({tag, name = tag, notes}: LocalRelease, now = new Date()): ReleaseEvent {
  const event = structuredClone(recorded.find((candidate) => candidate.action === 'published')!);
  event.repository.full_name = FIXTURE_REPO;
  const [owner, repo] = FIXTURE_REPO.split('/') as [string, string];
  Object.assign(event.release, {
    // Each local release its own id, as GitHub's are.
    id: Math.floor(now.getTime() / 1000),
    tag_name: tag,
    name,
    body: notes,
    draft: false,
    prerelease: false,
    published_at: now.toISOString(),
    html_url: `https://github.com/${owner}/${repo}/releases/tag/${encodeURIComponent(tag)}`,
  });
  return event;
}

/** Delivers the release to the worker at `workerUrl`, signed as GitHub signs; answers the worker's word. */
export async function publishLocalRelease(
  workerUrl: string,
  release: LocalRelease,
): Promise<{status: number; body: ReleaseWebhookResult | {error?: string}; id: number}> {
  const delivery = releaseDelivery(release);
  const payload = JSON.stringify(delivery);
  const response = await fetch(`${workerUrl.replace(/\/$/, '')}${API_PATHS.githubWebhook}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'release',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': `sha256=${createHmac('sha256', LOCAL_GITHUB_WEBHOOK_SECRET).update(payload).digest('hex')}`,
    },
    body: payload,
  });
  return {status: response.status, body: (await response.json()) as ReleaseWebhookResult, id: delivery.release.id};
}

async function main() {
  const {values} = parseArgs({
    options: {
      tag: {type: 'string', default: `v0.0.${Math.floor(Date.now() / 1000)}`},
      name: {type: 'string'},
      notes: {type: 'string', default: 'A test release, published locally.'},
      worker: {type: 'string', default: `http://127.0.0.1:${process.env.WORKER_PORT ?? 8787}`},
    },
  });
  let answer;
  try {
    answer = await publishLocalRelease(values.worker, {tag: values.tag, name: values.name, notes: values.notes});
  } catch (err) {
    console.error(
      `The worker at ${values.worker} did not answer (${String(err)}). Start it first: npm start -- --local`,
    );
    process.exit(1);
  }
  const {status, body} = answer;
  if (status === 200 && 'announced' in body && body.announced) {
    console.log(
      `Published ${values.tag}: ${body.recipients ?? 0} buyers are e-mailed from the worker's next cron run, printed in the npm start terminal.`,
    );
  } else {
    console.error(`The worker answered ${status}: ${JSON.stringify(body)}`);
    if (status === 401)
      console.error(
        'Is the local stack running with GitHub stood in (npm start -- --local)? It sets the local webhook secret.',
      );
    process.exit(1);
  }
}

if (process.argv[1] && /release\.ts$/.test(process.argv[1])) void main();
