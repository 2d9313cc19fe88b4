import {appConfig} from './app';

/** A product name as other services see it: lower case, words joined by dashes. */
export function toServiceName(appName: string): string {
  return appName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * The product's name in the User-Agent of its GitHub calls (the worker's, the preflight's).
 * Derived from `appName`, so a rename follows without another edit.
 */
export const serviceName = toServiceName(appConfig.appName);
