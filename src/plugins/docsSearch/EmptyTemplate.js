// Stands in for @easyops-cn/docusaurus-search-local's SearchBar/EmptyTemplate.js (src/plugins/docsSearch
// swaps it in), which only said "No results". Plain JavaScript, like the file it replaces.
import {noResultsHtml} from './noResults';
import styles from './NoResults.module.css';

export function EmptyTemplate({query}) {
  return noResultsHtml(query, window.location.pathname, styles);
}
