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

/**
 * The Firebase project of the local Auth emulator. A `demo-` project has nothing real behind it,
 * and a deployed worker refuses one; named after the product, as `firebase init` would name it.
 */
export const emulatorProject = `demo-${serviceName}`;

/** Where the browser keeps the site's own notes (localStorage, sessionStorage): `<service>:<name>`. */
export function storageKey(name: string): string {
  return `${serviceName}:${name}`;
}
