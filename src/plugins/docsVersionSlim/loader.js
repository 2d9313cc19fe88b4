/**
 * A bundler loader for the docs plugin's route props (`p/*.json`): the props of a docs version
 * list every doc of the version with its description, for the theme's DocCard, and every docs
 * page loads them. This site draws no DocCard (its section pages list their pages in words), so
 * the descriptions go: about 3 KB gzipped less on every docs page. Titles and ids stay.
 */
module.exports = function docsVersionSlim(source) {
  const props = JSON.parse(source);
  const docs = props && props.version && props.version.docs;
  if (!docs || typeof docs !== 'object') return source;
  for (const doc of Object.values(docs)) delete doc.description;
  return JSON.stringify(props);
};
