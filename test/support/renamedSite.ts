/**
 * A seller's rename and re-price, done to a copy of the repository: the product facts a seller
 * changes in `src/config/app.ts` (name, domain, prices, price ids; the support address and the
 * domain's e-mail addresses follow the domain), and a scan of a built site for the facts it had
 * before. The rename test builds the copy once and holds every built text file to it.
 */
import {cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {appConfig, type Plan} from '../../src/config';
import {kitFiles} from '../../scripts/support/kitFiles';

export interface PlanFacts {
  price: number;
  priceAnchor?: number;
  priceId: {test: string; production: string};
  /** A team's own price for each seat (`team.seatPrice`), a price and ids of its own. */
  seatPrice?: {price: number; priceId: {test: string; production: string}};
}

export interface ProductFacts {
  appName: string;
  domainName: string;
  plans: readonly PlanFacts[];
}

/** The facts as the repository holds them now. */
export function currentFacts(): ProductFacts {
  return {
    appName: appConfig.appName,
    domainName: appConfig.domainName,
    plans: (appConfig.plans as readonly Plan[]).map(({price, priceAnchor, priceId, team}) => ({
      price,
      priceAnchor,
      priceId,
      seatPrice: team?.seatPrice,
    })),
  };
}

/** Another product: every fact differs from `from`, and none contains an old one. */
export function renamedFacts(from: ProductFacts): ProductFacts {
  return {
    appName: 'Tidewater',
    domainName: 'tidewater.example',
    plans: from.plans.map((plan, index) => ({
      price: 41 + index * 12,
      priceAnchor: plan.priceAnchor === undefined ? undefined : 141 + index * 12,
      priceId: {test: `price_tidewater${index}Test`, production: `price_tidewater${index}Live`},
      seatPrice: plan.seatPrice && {
        price: 35 + index * 12,
        priceId: {test: `price_tidewater${index}TeamTest`, production: `price_tidewater${index}TeamLive`},
      },
    })),
  };
}

/**
 * The literals of `src/config/app.ts` that spell each fact, old and new. Each old literal must be
 * in the file exactly once, so a change of how the config spells a fact fails here, loudly,
 * instead of leaving the old value in place and the scan with nothing to find.
 */
function replacements(from: ProductFacts, to: ProductFacts): Array<[string, string]> {
  const pairs: Array<[string, string]> = [
    [`const appName = '${from.appName}';`, `const appName = '${to.appName}';`],
    [`const domainName = '${from.domainName}';`, `const domainName = '${to.domainName}';`],
  ];
  from.plans.forEach((plan, index) => {
    const next = to.plans[index]!;
    pairs.push([`test: '${plan.priceId.test}',`, `test: '${next.priceId.test}',`]);
    pairs.push([`production: '${plan.priceId.production}',`, `production: '${next.priceId.production}',`]);
    pairs.push([`price: ${plan.price},\n`, `price: ${next.price},\n`]);
    if (plan.priceAnchor !== undefined)
      pairs.push([`priceAnchor: ${plan.priceAnchor},\n`, `priceAnchor: ${next.priceAnchor},\n`]);
    if (plan.seatPrice && next.seatPrice) {
      pairs.push([`price: ${plan.seatPrice.price},\n`, `price: ${next.seatPrice.price},\n`]);
      pairs.push([`test: '${plan.seatPrice.priceId.test}',`, `test: '${next.seatPrice.priceId.test}',`]);
      pairs.push([
        `production: '${plan.seatPrice.priceId.production}',`,
        `production: '${next.seatPrice.priceId.production}',`,
      ]);
    }
  });
  return pairs;
}

export function rewriteConfig(source: string, from: ProductFacts, to: ProductFacts): string {
  let text = source;
  for (const [before, after] of replacements(from, to)) {
    const count = text.split(before).length - 1;
    if (count !== 1)
      throw new Error(
        `src/config/app.ts spells \`${before.trim()}\` ${count} times, not once: teach test/support/renamedSite.ts the config's new shape.`,
      );
    text = text.replace(before, after);
  }
  return text;
}

/**
 * A copy of the repository's files in a temporary folder (what a clone of this work would hold:
 * scripts/support/kitFiles.ts, with or without a `.git`), sharing this checkout's node_modules,
 * with `src/config/app.ts` saying `to`.
 */
export function renamedCopy(root: string, from: ProductFacts, to: ProductFacts): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'renamed-site-'));
  for (const file of kitFiles(root)) {
    mkdirSync(path.dirname(path.join(dir, file)), {recursive: true});
    cpSync(path.join(root, file), path.join(dir, file));
  }
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  const config = path.join(dir, 'src', 'config', 'app.ts');
  writeFileSync(config, rewriteConfig(readFileSync(config, 'utf8'), from, to));
  return dir;
}

export interface Leak {
  /** The file, relative to the built site. */
  file: string;
  /** Which old fact it is. */
  fact: string;
  /** The word it is part of, as far as a name, an address or a path goes (`api.example.com/x`). */
  token: string;
  /** The text around it. */
  excerpt: string;
}

/** What a word of code or prose is made of, for `Leak.token`. */
const TOKEN_CHAR = /[\w.:/@-]/;

function tokenAround(text: string, start: number, end: number): string {
  let from = start;
  let to = end;
  while (from > 0 && TOKEN_CHAR.test(text[from - 1]!)) from--;
  while (to < text.length && TOKEN_CHAR.test(text[to]!)) to++;
  // A sentence's full stop or colon is not part of the word.
  return text.slice(from, to).replace(/[.:]+$/, '');
}

/**
 * What a file says, as the scan reads it. A search index holds its documents' text and then the
 * same words again, cut into an inverted index: only the documents are read, so each leak is
 * reported once, in the words a reader searched.
 */
function readableText(file: string, text: string): string {
  if (!/(^|\/)search-index[^/]*\.json$/.test(file)) return text;
  const indexes = JSON.parse(text) as Array<{documents: unknown}>;
  return JSON.stringify(indexes.map((index) => index.documents));
}

/** What a person (or a search engine) would read as an old fact, with the fact's name. */
export function oldFactPatterns(from: ProductFacts): Array<{fact: string; pattern: RegExp}> {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const patterns = [
    // Any case: the name as the pages show it, in a repository's path, a storage key or the domain.
    {fact: 'name', pattern: new RegExp(escape(from.appName), 'gi')},
    {fact: 'domain', pattern: new RegExp(escape(from.domainName), 'gi')},
  ];
  for (const plan of from.plans) {
    for (const amount of [plan.price, plan.priceAnchor, plan.seatPrice?.price].filter((value) => value !== undefined)) {
      // As the page shows it ("$N", "$N.00"), and as the structured data writes it ("N.00").
      patterns.push({
        fact: `price ${amount}`,
        pattern: new RegExp(`\\$${amount}(?![\\d])|(?<![\\d.])${amount}\\.00(?!\\d)`, 'g'),
      });
    }
    for (const id of [plan.priceId, ...(plan.seatPrice ? [plan.seatPrice.priceId] : [])].flatMap((ids) => [
      ids.test,
      ids.production,
    ]))
      patterns.push({fact: `price id ${id}`, pattern: new RegExp(escape(id), 'g')});
  }
  return patterns;
}

/** The built files a person, a browser or a crawler reads as text. Images and the video are binary. */
const TEXT_FILE = /\.(html|js|mjs|json|xml|txt|svg|vtt|webmanifest)$/;

export function findLeaks(siteDir: string, from: ProductFacts): Leak[] {
  const patterns = oldFactPatterns(from);
  const leaks: Leak[] = [];
  const files = (readdirSync(siteDir, {recursive: true}) as string[]).filter((file) => TEXT_FILE.test(file)).sort();
  for (const file of files) {
    const name = file.split(path.sep).join('/');
    const text = readableText(name, readFileSync(path.join(siteDir, file), 'utf8'));
    for (const {fact, pattern} of patterns) {
      for (const match of text.matchAll(pattern)) {
        const end = match.index + match[0].length;
        const excerpt = text.slice(Math.max(0, match.index - 60), end + 60).replace(/\s+/g, ' ');
        leaks.push({file: name, fact, token: tokenAround(text, match.index, end), excerpt});
      }
    }
  }
  return leaks;
}

/**
 * The built files of the frozen docs versions (versions.json): their pages, their search index,
 * and the scripts that hold their text or their version's data. A frozen version is the docs as
 * they were at a release, copied word for word by `npm run docs:version`, the kit's name
 * included; Make it yours tells a seller to delete the kit's own, and a seller's own versions
 * speak of their own product. So they are not held to the config.
 */
export function frozenReleaseFiles(siteDir: string, versions: readonly string[]): Set<string> {
  const frozen = new Set<string>();
  const files = (readdirSync(siteDir, {recursive: true}) as string[]).map((file) => file.split(path.sep).join('/'));
  for (const version of versions) {
    for (const file of files) {
      if (file.startsWith(`docs/${version}/`) || file === `docs/${version}.html`) frozen.add(file);
      else if (file.startsWith('assets/js/') && file.endsWith('.js')) {
        const text = readFileSync(path.join(siteDir, file), 'utf8');
        if (text.includes(`versioned_docs/version-${version}/`) || text.includes(`"version":"${version}"`))
          frozen.add(file);
      }
    }
  }
  return frozen;
}

/** An old fact the built site may keep, and why it cannot come from src/config. */
export interface AllowedLeak {
  /** The words it may stay in: matched against the leak's `token`. */
  token: RegExp;
  reason: string;
}

/**
 * The leaks no allowed entry covers, and the entries nothing matched (an entry outliving its
 * reason is a leak waiting to be let through, so it fails the test too).
 */
export function unexplained(
  leaks: readonly Leak[],
  allowed: readonly AllowedLeak[],
): {leaks: Leak[]; unused: AllowedLeak[]} {
  const used = new Set<AllowedLeak>();
  const open = leaks.filter((leak) => {
    const entry = allowed.find((candidate) => candidate.token.test(leak.token));
    if (entry) used.add(entry);
    return !entry;
  });
  return {leaks: open, unused: allowed.filter((entry) => !used.has(entry))};
}
