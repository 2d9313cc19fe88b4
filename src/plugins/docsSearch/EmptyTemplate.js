// Stands in for @easyops-cn/docusaurus-search-local's SearchBar/EmptyTemplate.js (src/plugins/docsSearch
// swaps it in), which only said "No results". Plain JavaScript, like the file it replaces.
import {noIndexHtml, noResultsHtml} from './noResults';
import styles from './NoResults.module.css';

export function EmptyTemplate({query}) {
  // Outside a production build the plugin answers every query with nothing (it has no index), and
  // its own template said so; "No results" there would be a lie.
  if (process.env.NODE_ENV !== 'production') return noIndexHtml(styles);
  return noResultsHtml(query, window.location.pathname, styles);
}
