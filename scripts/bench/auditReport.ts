/**
 * What `npm run audit` makes of its Lighthouse runs: the median run of each page, the one table it
 * prints, and the verdict against issue 15's goals. Pure, so the rules are unit-tested.
 */

/** This site, or the stock Docusaurus template measured beside it (as `npm run bench` names them). */
export type Site = 'this site' | 'stock';
/** Which goal a page answers to: the landing page, a docs page type, or a page of the app. */
export type PageRole = 'home' | 'docs' | 'app';

export interface AuditedPage {
  site: Site;
  path: string;
  /** Names the page in the table when its path does not say what it stands for. */
  label?: string;
  role: PageRole;
  /**
   * Audits allowed to fail here, by category, because the page fails them on purpose (`/signin`'s
   * noindex fails SEO's `is-crawlable`). Any other failing audit of that category is still a miss.
   */
  deliberate?: Partial<Record<OtherCategory, string[]>>;
}

/** One Lighthouse run's figures; scores 0 to 100, times in ms. */
export interface Figures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Everything the page transferred (Lighthouse's total byte weight: compressed, headers included). */
  bytes: number;
  /** The ids of the audits that cost each of the other categories points, to say what to fix. */
  failing: Record<OtherCategory, string[]>;
  /** What the page logged as errors (Lighthouse's errors-in-console), to say what the error was. */
  consoleErrors?: string[];
  /**
   * Run offline only: addresses on other hosts the page asked for and could not reach. Their DNS
   * failures are not counted as console errors, so they are listed instead.
   */
  unreachable?: string[];
}

export type OtherCategory = 'accessibility' | 'bestPractices' | 'seo';

export interface PageResult {
  page: AuditedPage;
  /** The median run. */
  figures: Figures;
  /** Every run's performance score, in the order they ran, to show the spread. */
  performanceRuns: number[];
  /** Every run's total blocking time in ms, in the same order. */
  tbtRuns: number[];
}

/**
 * Issue 15's goals, and issue 23's for the docs: 97 or more in every run, not only the median, and
 * under 150 ms of blocking time in every run.
 */
export const GOALS = {homePerformance: 99, docsPerformance: 97, docsTbtMs: 150, otherScores: 100} as const;

/** The run whose performance score is the median (the lower middle of an even count). */
export function medianByPerformance(runs: readonly Figures[]): Figures {
  if (runs.length === 0) throw new Error('No Lighthouse run to take the median of.');
  const sorted = [...runs].sort((a, b) => a.performance - b.performance);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

const name = (page: AuditedPage) => (page.label ? `${page.path} (${page.label})` : page.path);

/** A Markdown table, so scripts/bench/README.md can quote it as printed. */
export function formatTable(results: readonly PageResult[]): string {
  const header = ['site', 'page', 'perf', 'a11y', 'best pr.', 'SEO', 'LCP s', 'TBT ms', 'CLS', 'KB', 'perf runs'];
  const rows = results.map(({page, figures: f, performanceRuns}) => [
    page.site,
    name(page),
    String(f.performance),
    String(f.accessibility),
    String(f.bestPractices),
    String(f.seo),
    (f.lcpMs / 1000).toFixed(1),
    String(Math.round(f.tbtMs)),
    f.cls.toFixed(3),
    String(Math.round(f.bytes / 1024)),
    performanceRuns.join(' '),
  ]);
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

/** Every goal of issue 15 that the results miss, one sentence each; empty when all are met. */
export function missedGoals(results: readonly PageResult[]): string[] {
  const misses: string[] = [];
  const ours = results.filter((result) => result.page.site === 'this site');
  const stockDocs = results.find((result) => result.page.site === 'stock' && result.page.role === 'docs');
  for (const {page, figures, performanceRuns, tbtRuns} of ours) {
    if (page.role === 'home' && figures.performance < GOALS.homePerformance) {
      misses.push(`${name(page)}: performance ${figures.performance} < ${GOALS.homePerformance}`);
    }
    if (page.role === 'docs') {
      const lowest = Math.min(...performanceRuns);
      if (lowest < GOALS.docsPerformance) {
        misses.push(
          `${name(page)}: performance ${lowest} < ${GOALS.docsPerformance} in a run (runs: ${performanceRuns.join(' ')})`,
        );
      }
      const longest = Math.round(Math.max(...tbtRuns));
      if (longest >= GOALS.docsTbtMs) {
        misses.push(`${name(page)}: blocking time ${longest} ms ≥ ${GOALS.docsTbtMs} ms in a run`);
      }
      if (stockDocs && figures.performance <= stockDocs.figures.performance) {
        misses.push(
          `${name(page)}: performance ${figures.performance} not above the stock docs page's ${stockDocs.figures.performance}`,
        );
      }
    }
    const others: Array<[OtherCategory, string]> = [
      ['accessibility', 'accessibility'],
      ['bestPractices', 'best practices'],
      ['seo', 'SEO'],
    ];
    for (const [category, title] of others) {
      const score = figures[category];
      if (score >= GOALS.otherScores) continue;
      const deliberate = page.deliberate?.[category] ?? [];
      const failing = figures.failing[category];
      const undeliberate = failing.filter((id) => !deliberate.includes(id));
      // Below 100 with nothing failing but what the page means to fail is the goal met.
      if (failing.length > 0 && undeliberate.length === 0) continue;
      const logged =
        undeliberate.includes('errors-in-console') && figures.consoleErrors?.length
          ? `; logged: ${figures.consoleErrors.join(' | ')}`
          : '';
      misses.push(
        `${name(page)}: ${title} ${score} < ${GOALS.otherScores}${undeliberate.length ? ` (${undeliberate.join(', ')}${logged})` : ''}`,
      );
    }
  }
  return misses;
}

/** The addresses each page could not reach offline, one line a page; empty when none. */
export function formatUnreachable(results: readonly PageResult[]): string[] {
  return results
    .filter(({figures}) => figures.unreachable?.length)
    .map(({page, figures}) => `${name(page)}: ${[...new Set(figures.unreachable)].join(', ')}`);
}
