import type {Vars} from '../local/plan';

/** What each preflight check answers: one line of the checklist, and for a failure its fix. */
export type Status = 'ok' | 'warn' | 'fail';

export interface CheckLine {
  status: Status;
  label: string;
  /** The exact command or dashboard step that fixes it: every failure has one. */
  fix?: string;
}

export const ok = (label: string): CheckLine => ({status: 'ok', label});
export const warn = (label: string, fix?: string): CheckLine => ({status: 'warn', label, ...(fix && {fix})});
export type {Vars};

export const fail = (label: string, fix: string): CheckLine => ({status: 'fail', label, fix});

/** The value, trimmed, or undefined when blank: how the worker reads its variables. */
export function valueOf(vars: Vars, name: string): string | undefined {
  const value = vars[name]?.trim();
  return value ? value : undefined;
}

/** The command that stores a worker secret in the deployed environment. */
export function secretPut(name: string, env: string): string {
  return `cd worker && npx wrangler secret put ${name} --env ${env}`;
}

/** A service's error, for a line: its own message when it has one. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The warning for a service not asked: its secret is on Cloudflare, its value not on this machine. */
export function notAsked(service: string, secret: string): CheckLine {
  return warn(
    `${service}: not asked: ${secret} is set on Cloudflare, but its value is not on this machine (Cloudflare never gives one back)`,
    `To check ${service} too, give the values: npm run preflight -- --secrets <your secrets file>, or ${secret}=… in this shell`,
  );
}
