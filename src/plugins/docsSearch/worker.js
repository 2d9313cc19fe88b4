// Stands in for @easyops-cn/docusaurus-search-local's theme/worker.js (src/plugins/docsSearch swaps
// it in): the same index files, fetched and cached the same way, one per docs version, and the same
// Comlink interface, with the ranking of ./rank.ts. Plain JavaScript: the bundler compiles it as it
// compiled the file it replaces, which is not TypeScript.
import * as Comlink from 'comlink';
import lunr from 'lunr';
import {
  fuzzyMatchingDistance,
  searchIndexUrl,
} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/proxiedGeneratedConstants';
import {rankSearch} from './rank';

const cache = new Map();

async function fetchIndexes(baseUrl, searchContext) {
  const url = `${baseUrl}${searchIndexUrl.replace('{dir}', searchContext ? `-${searchContext.replace(/\//g, '-')}` : '')}`;
  if (new URL(url, location.origin).origin !== location.origin) throw new Error('Unexpected version url');
  const json = await (await fetch(url)).json();
  return json.map(({documents, index}, type) => ({type, documents, index: lunr.Index.load(index)}));
}

class SearchWorker {
  async fetchIndexes(baseUrl, searchContext) {
    await this.indexes(baseUrl, searchContext);
  }

  indexes(baseUrl, searchContext) {
    const key = `${baseUrl}${searchContext}`;
    if (!cache.has(key)) cache.set(key, fetchIndexes(baseUrl, searchContext));
    return cache.get(key);
  }

  async search(baseUrl, searchContext, input, limit) {
    return rankSearch(await this.indexes(baseUrl, searchContext), input, limit, fuzzyMatchingDistance);
  }
}

Comlink.expose(SearchWorker);
