/**
 * The `_headers` rules in the forms of the hosts that do not read `_headers`: the `headers` of
 * Vercel's `vercel.json` and of a Render Blueprint (`render.yaml`). `npm run headers` prints them
 * from a build; the build fails when one of those files, at the root of the repository, still
 * holds another build's policy (its hashes no longer match the pages, and the pages would not run).
 */
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import type {HeaderRule} from './headersFile';

export const HOSTS = ['vercel', 'render'] as const;
export type Host = (typeof HOSTS)[number];

/** The file at the root of the repository that holds each host's headers. */
export const HOST_CONFIG: Record<Host, string> = {vercel: 'vercel.json', render: 'render.yaml'};

/** Vercel's `source` is a path-to-regexp pattern: a `*` splat is `(.*)`. */
function vercelSource(rulePath: string): string {
  return rulePath.replace(/\*/g, '(.*)');
}

/** The rules as the value of `headers` in vercel.json (Vercel applies each matching entry, the last one last). */
export function vercelHeaders(rules: HeaderRule[]): {source: string; headers: {key: string; value: string}[]}[] {
  return rules.map((rule) => ({
    source: vercelSource(rule.path),
    headers: Object.entries(rule.headers).map(([key, value]) => ({key, value})),
  }));
}

/** The rules as the `headers` of a static site in render.yaml, indented for a service entry. */
export function renderYamlHeaders(rules: HeaderRule[]): string {
  const lines = ['    headers:'];
  for (const rule of rules) {
    for (const [name, value] of Object.entries(rule.headers)) {
      // Double-quoted YAML: a policy holds single quotes, never a double quote or a backslash.
      lines.push(`      - path: ${rule.path}`, `        name: ${name}`, `        value: ${JSON.stringify(value)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** What `npm run headers -- <host>` prints. */
export function hostHeaders(host: Host, rules: HeaderRule[]): string {
  return host === 'vercel' ? `${JSON.stringify({headers: vercelHeaders(rules)}, null, 2)}\n` : renderYamlHeaders(rules);
}

/**
 * For each host file at `rootDir` that sets a Content-Security-Policy, whether it sets exactly this
 * build's: every value, and no other. Returns what is wrong, or an empty list.
 */
export function staleHostConfigs(rootDir: string, rules: HeaderRule[]): string[] {
  const values = rules.flatMap((rule) =>
    Object.entries(rule.headers)
      .filter(([name]) => name === 'Content-Security-Policy')
      .map(([, value]) => value),
  );
  return HOSTS.flatMap((host) => {
    const file = path.join(rootDir, HOST_CONFIG[host]);
    if (!existsSync(file)) return [];
    const text = readFileSync(file, 'utf8');
    const named = text.match(/Content-Security-Policy/g)?.length ?? 0;
    if (named === 0) return [];
    const missing = values.filter((value) => !text.includes(value));
    if (missing.length === 0 && named === values.length) return [];
    return [
      `${HOST_CONFIG[host]} sets a Content-Security-Policy that is not this build's (an inline script or a host changed). ` +
        `Replace its headers with these (\`npm run headers -- ${host}\` prints them after a build):\n${hostHeaders(host, rules)}`,
    ];
  });
}
