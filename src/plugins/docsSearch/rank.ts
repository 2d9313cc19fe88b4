/**
 * How the docs' search bar orders what it finds (issue 16), in place of the ranking of
 * @easyops-cn/docusaurus-search-local's worker. The plugin requires every word of the query in one
 * document and ranks a title before a heading before a description before the keywords before the
 * text, whatever matched. A reader's question ("how do I try a purchase without being charged")
 * rarely has all its words in one section, so it found nothing or the wrong page.
 *
 * Here any word counts, and a section scores what the reader's words weigh in it: each word once,
 * by how rare it is across the docs (a word on every page says little), times where it matched
 * (the page's title, keywords, a heading, the description, the text). A section also carries what
 * its page's title, description and keywords matched, so the page's own words lift its sections.
 * The best section of each page comes first, one per page, then the next best of each, so the first
 * suggestions name different pages. The index files and the suggestions' shape stay the plugin's.
 */
import lunr from 'lunr';

/** The plugin's document kinds: its index file holds one index per kind, in this order. */
export const TITLE = 0;
export const HEADING = 1;
export const DESCRIPTION = 2;
export const KEYWORDS = 3;
export const CONTENT = 4;

/** A document of the plugin's index: `t` its text, `p` its page's title document, `h` its anchor. */
export interface SearchDocument {
  i: number;
  t: string;
  u: string;
  h?: string;
  p?: number;
  s?: string;
  b?: string[];
}

export interface WrappedIndex {
  type: number;
  documents: SearchDocument[];
  index: lunr.Index;
}

/** What the plugin's suggestion and search-page templates render. */
export interface SearchResult {
  document: SearchDocument;
  type: number;
  page: SearchDocument | undefined;
  metadata: lunr.MatchMetadata;
  tokens: string[];
  score: number;
}

/** Where a word matched, and how much that says about the page. */
const FIELD_WEIGHT: Record<number, number> = {
  [TITLE]: 3,
  [KEYWORDS]: 2,
  [HEADING]: 2,
  [DESCRIPTION]: 1.5,
  [CONTENT]: 1,
};

/** The word being typed is read as the start of a longer one once it has this many letters: "i" could start anything. */
const MIN_PREFIX_LENGTH = 2;

/** A word the docs never use is looked up with a typo allowed, if it is this long: "helm" is not a typo of "help". */
const MIN_FUZZY_LENGTH = 5;

/** Which of a page's own documents stands for it, best first. */
const SHOWN_FIRST = [TITLE, KEYWORDS, DESCRIPTION];

/** The query's words as the index holds them: lower case, trimmed of punctuation, no stop words. */
function queryWords(input: string): string[] {
  const tokens = (input.toLowerCase().match(/[^-\s]+/g) ?? [])
    .map((token) => token.replace(/^\W+|\W+$/g, ''))
    .filter(Boolean);
  const words = tokens.filter((token) => lunr.stopWordFilter(new lunr.Token(token, {})));
  return [...new Set(words.length > 0 ? words : tokens)];
}

interface Match {
  document: SearchDocument;
  type: number;
  page: number;
  /** The query's words found in the document (by index), each with how surely: 1 as written, less as a prefix or with a typo. */
  words: Map<number, number>;
  score: number;
  metadata: lunr.MatchMetadata;
}

/** How surely a word matched: as written; as the start of a longer word while it is being typed ("test" in "testimonial"); with a typo. */
const SURENESS = {exact: 1, prefix: 0.5, fuzzy: 0.5};

const byRef = new WeakMap<SearchDocument[], Map<string, SearchDocument>>();

/** An index's document by its lunr ref (its id as a string), looked up once per index file. */
function documentOf(documents: SearchDocument[], ref: string): SearchDocument | undefined {
  if (!byRef.has(documents)) byRef.set(documents, new Map(documents.map((document) => [String(document.i), document])));
  return byRef.get(documents)!.get(ref);
}

/** Every document of every index that holds each word: as written, as a prefix while it is typed, else with a typo. */
function findWords(
  indexes: WrappedIndex[],
  words: string[],
  typing: boolean,
  fuzzyDistance: number,
): Map<string, Match> {
  const matches = new Map<string, Match>();
  const lookUp = (word: string, wordIndex: number, how: keyof typeof SURENESS) => {
    let found = false;
    for (const {type, documents, index} of indexes) {
      const results = index.query((query) => {
        if (how === 'exact') query.term(word);
        else if (how === 'prefix') query.term(word, {usePipeline: false, wildcard: lunr.Query.wildcard.TRAILING});
        else query.term(word, {editDistance: fuzzyDistance});
      });
      for (const result of results) {
        const document = documentOf(documents, result.ref);
        if (!document) continue;
        found = true;
        const key = `${type}:${result.ref}`;
        const match = matches.get(key) ?? {
          document,
          type,
          page: type === TITLE ? document.i : document.p!,
          words: new Map(),
          score: 0,
          metadata: {},
        };
        match.words.set(wordIndex, Math.max(match.words.get(wordIndex) ?? 0, SURENESS[how]));
        match.score += result.score * SURENESS[how];
        Object.assign(match.metadata, result.matchData.metadata);
        matches.set(key, match);
      }
    }
    return found;
  };
  words.forEach((word, wordIndex) => {
    let found = lookUp(word, wordIndex, 'exact');
    // The word being typed may be the start of a longer one ("paym").
    if (typing && wordIndex === words.length - 1 && word.length >= MIN_PREFIX_LENGTH)
      found = lookUp(word, wordIndex, 'prefix') || found;
    if (!found && fuzzyDistance > 0 && word.length >= MIN_FUZZY_LENGTH) lookUp(word, wordIndex, 'fuzzy');
  });
  return matches;
}

/** The strongest field each word matched in, merged into `into`. */
function mergeWords(into: Map<number, number>, match: Match): void {
  for (const [word, sureness] of match.words)
    into.set(word, Math.max(into.get(word) ?? 0, FIELD_WEIGHT[match.type] * sureness));
}

/** A heading and the text under it, as the plugin indexes them: two documents with one anchor. */
interface Section {
  page: number;
  heading?: Match;
  content?: Match;
  words: Map<number, number>;
}

interface Candidate {
  page: number;
  shown: Match;
  words: Map<number, number>;
  score: number;
}

/** The search: at most `limit` suggestions, best first. */
export function rankSearch(indexes: WrappedIndex[], input: string, limit: number, fuzzyDistance = 1): SearchResult[] {
  const words = queryWords(input);
  const titles = indexes.find((index) => index.type === TITLE);
  if (words.length === 0 || !titles) return [];
  const matches = findWords(indexes, words, !/\s$/.test(input), fuzzyDistance);

  // A page's own words (title, description, keywords), and each section's (heading and text).
  const pageWords = new Map<number, Map<number, number>>();
  // What stands for a page matched by its own words: its title, else its keywords (shown as the
  // title), else its description. The templates need a matched document to highlight.
  const pageShown = new Map<number, Match>();
  const sections = new Map<string, Section>();
  const pagesWithWord = words.map(() => new Set<number>());
  for (const match of matches.values()) {
    for (const word of match.words.keys()) pagesWithWord[word].add(match.page);
    if (match.type === HEADING || match.type === CONTENT) {
      const key = `${match.page}${match.document.h ?? ''}`;
      const section: Section = sections.get(key) ?? {page: match.page, words: new Map()};
      if (match.type === HEADING) section.heading = match;
      else section.content = match;
      mergeWords(section.words, match);
      sections.set(key, section);
    } else {
      if (!pageWords.has(match.page)) pageWords.set(match.page, new Map());
      mergeWords(pageWords.get(match.page)!, match);
      const shown = pageShown.get(match.page);
      if (!shown || SHOWN_FIRST.indexOf(match.type) < SHOWN_FIRST.indexOf(shown.type)) pageShown.set(match.page, match);
    }
  }

  // A word found on few pages tells more than one found on many.
  const rarity = pagesWithWord.map((pages) => Math.log(1 + titles.documents.length / Math.max(1, pages.size)));
  const value = (found: Map<number, number>) =>
    [...found].reduce((sum, [word, weight]) => sum + rarity[word] * weight, 0);

  const candidates: Candidate[] = [];
  for (const section of sections.values()) {
    const found = new Map(pageWords.get(section.page));
    for (const [word, weight] of section.words) found.set(word, Math.max(found.get(word) ?? 0, weight));
    // The text shows why it matched; a heading alone is shown when only the heading did.
    const shown = section.content ?? section.heading!;
    candidates.push({
      page: section.page,
      shown,
      words: found,
      score: (section.content?.score ?? 0) + (section.heading?.score ?? 0),
    });
  }
  for (const [page, found] of pageWords) {
    const shown = pageShown.get(page)!;
    candidates.push({page, shown, words: found, score: shown.score});
  }
  // Equal words, the page itself first (its title says more than a line of it), then the closer match.
  const ownFirst = (candidate: Candidate) =>
    candidate.shown.type === HEADING || candidate.shown.type === CONTENT ? 1 : 0;
  const ranked = candidates
    .map((candidate) => ({candidate, value: value(candidate.words)}))
    .sort(
      (a, b) =>
        b.value - a.value || ownFirst(a.candidate) - ownFirst(b.candidate) || b.candidate.score - a.candidate.score,
    )
    .map(({candidate}) => candidate);

  // One suggestion per page first, then the next best of each page, in the same order.
  const seen = new Map<number, number>();
  const rounds: Candidate[][] = [];
  for (const candidate of ranked) {
    const round = seen.get(candidate.page) ?? 0;
    seen.set(candidate.page, round + 1);
    (rounds[round] ??= []).push(candidate);
  }
  return rounds
    .flat()
    .slice(0, limit)
    .map(({shown, page, words: found}) => ({
      document: shown.document,
      type: shown.type,
      page: shown.type === TITLE ? undefined : documentOf(titles.documents, String(page)),
      metadata: shown.metadata,
      tokens: words,
      score: value(found),
    }));
}
