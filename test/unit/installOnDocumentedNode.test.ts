/**
 * `npm ci` on the Node the README names, the way a buyer runs it: no package in the lock refuses
 * that Node (npm warns EBADENGINE, and the package may not work), and every dependency's install
 * script was reviewed in `allowScripts` (npm 11 lists the others on every install, and a later npm
 * will not run them). Both read `package-lock.json`, which records each package's `engines` and
 * whether it has an install script, so a new dependency fails here before it reaches a buyer.
 */
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import packageJson from '../../package.json';

interface LockedPackage {
  version?: string;
  engines?: Record<string, string> | string[];
  hasInstallScript?: boolean;
}

const ROOT = path.join(__dirname, '..', '..');
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockedPackage>;
};
const installed = Object.entries(lock.packages).filter(([where]) => where !== '');
/** The package's name from its place in the lock (`node_modules/a/node_modules/@b/c` is `@b/c`). */
const nameOf = (where: string) => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** The oldest Node that package.json's `engines` admits: the one the README promises works. */
const oldestNode = semver.minVersion(packageJson.engines.node)!.version;

test('the README names the Node that package.json admits', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const [major, minor] = oldestNode.split('.');
  expect(readme).toContain(`Node.js ${major}.${minor} or later`);
});

test('every locked package runs on the oldest Node package.json admits', () => {
  const refusing = installed
    .filter(([, entry]) => !Array.isArray(entry.engines) && typeof entry.engines?.node === 'string')
    .filter(([, entry]) => !semver.satisfies(oldestNode, (entry.engines as Record<string, string>).node!))
    .map(([where, entry]) => `${where}@${entry.version} wants node ${(entry.engines as Record<string, string>).node}`);
  expect(refusing).toEqual([]);
});

test('every install script in the lock is allowed or denied in allowScripts', () => {
  const policy = (packageJson as {allowScripts?: Record<string, boolean>}).allowScripts ?? {};
  const unreviewed = installed
    .filter(([where, entry]) => entry.hasInstallScript && !(nameOf(where) in policy))
    .map(([where]) => where);
  expect(unreviewed).toEqual([]);
  // And no entry outlives its package (`npm install-scripts prune` would drop it).
  const withScripts = new Set(installed.filter(([, entry]) => entry.hasInstallScript).map(([where]) => nameOf(where)));
  expect(Object.keys(policy).filter((name) => !withScripts.has(name))).toEqual([]);
});
