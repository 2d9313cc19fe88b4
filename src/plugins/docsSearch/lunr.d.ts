/**
 * The parts of lunr 2 (the index behind @easyops-cn/docusaurus-search-local, which ships no types
 * for it) that the docs' search ranking and its tests use.
 */
declare module 'lunr' {
  namespace lunr {
    class Token {
      constructor(text: string, metadata?: object);
      toString(): string;
    }
    /** The Porter stemmer the index and the queries go through. */
    function stemmer(token: Token): Token;
    /** The token, or undefined when it is an English stop word the index leaves out. */
    function stopWordFilter(token: Token): Token | undefined;

    /** Where each matched term sits in each field of a document: [start, length] pairs. */
    type MatchMetadata = Record<string, Record<string, {position?: number[][]}>>;

    namespace Index {
      interface Result {
        ref: string;
        score: number;
        matchData: {metadata: MatchMetadata};
      }
    }
    class Index {
      static load(serialized: unknown): Index;
      query(build: (query: Query) => void): Index.Result[];
    }

    namespace Query {
      const presence: {OPTIONAL: number; REQUIRED: number; PROHIBITED: number};
      const wildcard: {NONE: number; LEADING: number; TRAILING: number};
    }
    class Query {
      term(
        term: string,
        options?: {
          presence?: number;
          wildcard?: number;
          editDistance?: number;
          usePipeline?: boolean;
          boost?: number;
          fields?: string[];
        },
      ): Query;
    }
  }
  namespace lunr {
    /** What `lunr(function () {...})` builds an index with, as the plugin does at build time. */
    interface Builder {
      ref(field: string): void;
      field(field: string): void;
      add(document: object): void;
      metadataWhitelist: string[];
    }
  }
  function lunr(config: (this: lunr.Builder) => void): lunr.Index;
  export = lunr;
}
