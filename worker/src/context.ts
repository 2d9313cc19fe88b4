import {type Settings, settingsOf} from './settings';

/** What the worker's work runs with, in a request or in the cron: the database and the settings. */
export interface Context {
  db: D1Database;
  settings: Settings;
}

export function contextOf(env: Env): Context {
  return {db: env.DB, settings: settingsOf(env)};
}
