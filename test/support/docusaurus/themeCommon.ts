// The one export of @docusaurus/theme-common the app's own components use outside the theme: the
// id of the page's main area, which the skip link targets (the package is ES modules only).
export const SkipToContentFallbackId = '__docusaurus_skipToContent_fallback';
