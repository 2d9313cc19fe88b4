import defaultTemplate from '@docusaurus/core/lib/ssg/ssgTemplate.html';

/**
 * Docusaurus's page template with one change: the page paints before its scripts run.
 *
 * Stock Docusaurus loads its bundles with `<script defer>`. A deferred script runs as soon as the
 * stylesheet is in, before the browser paints: on a phone, `main.js` (about 110 KB gzipped) is
 * parsed and run, and the route's chunks are asked for, before the reader sees the text that was
 * in the HTML all along. Here the bundles are preloaded at low priority, so they download as early
 * as deferred scripts do, and a script at the end of the body adds them once the first contentful
 * paint is reported (`runAfterFirstPaint`). Hydration starts a frame later; the text shows sooner.
 */

/** Where the default template writes its deferred script tags, and the end of its body. */
const DEFER_TAGS = /<% it\.scripts\.forEach\(\(script\) => \{ %>\s*<script src="<%= it\.baseUrl %><%= script %>" defer><\/script>\s*<% \}\); %>/;
const BODY_END = '<%~ it.postBodyTags %>';

const PRELOADS = `<% it.scripts.forEach((script) => { %>
      <link rel="preload" as="script" fetchpriority="low" href="<%= it.baseUrl %><%= script %>">
    <% }); %>`;

/**
 * Runs in the page, at the end of <body>: adds the bundles, in order, after the first contentful
 * paint. Dynamic scripts with `async = false` run in the order they were added, as deferred ones do.
 */
export function runAfterFirstPaint(scripts: string[]): void {
  let added = false;
  const add = () => {
    if (added) return;
    added = true;
    for (const src of scripts) {
      const script = document.createElement('script');
      script.src = src;
      script.async = false;
      document.head.appendChild(script);
    }
  };
  // A tab opened in the background paints nothing until it is shown: it must not wait for that.
  if (document.visibilityState === 'hidden') return add();
  if (typeof PerformanceObserver !== 'function' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    // No paint timing: the frame after this one is painted.
    requestAnimationFrame(() => setTimeout(add));
    return;
  }
  new PerformanceObserver((entries, observer) => {
    if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    setTimeout(add);
  }).observe({type: 'paint', buffered: true});
  // A page that paints no text or image would otherwise never run.
  setTimeout(add, 1000);
}

const RUN_AFTER_PAINT = `<script>(${runAfterFirstPaint.toString()})(<%~ JSON.stringify(it.scripts.map((script) => it.baseUrl + script)) %>)</script>`;

function paintFirst(template: string): string {
  if (!DEFER_TAGS.test(template) || !template.includes(BODY_END)) {
    throw new Error("Docusaurus's page template changed: src/buildTime/ssgTemplate.ts no longer finds its script tags.");
  }
  return template.replace(DEFER_TAGS, PRELOADS).replace(BODY_END, `${BODY_END}\n    ${RUN_AFTER_PAINT}`);
}

export const ssgTemplate = paintFirst(defaultTemplate);
