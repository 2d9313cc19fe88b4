// @docusaurus/core's lib/client/clientEntry.js (MIT, Docusaurus 3.10.2) with the app's modules run,
// and the route's chunks asked for, in a task of their own after the bundle's. See ./index.ts.
// This site routes by path (no `future.experimental_router: 'hash'`), so only BrowserRouter is
// bundled; the config check in ./index.ts refuses a hash router.
import React, {startTransition} from 'react';
import ReactDOM from 'react-dom/client';
import {HelmetProvider} from 'react-helmet-async';
import {BrowserRouter as Router} from 'react-router-dom';
import ExecutionEnvironment from '@docusaurus/core/lib/client/exports/ExecutionEnvironment';

const hydrate = Boolean(process.env.HYDRATE_CLIENT_ENTRY);

if (ExecutionEnvironment.canUseDOM) {
  const container = document.getElementById('__docusaurus');
  // Required in the second task rather than imported: the app's modules (the route table, its
  // registry, the theme's components) run there, with the request for the route's chunks.
  let app;
  const onRecoverableError = (error, errorInfo) => {
    console.error('Docusaurus React Root onRecoverableError:', error, errorInfo);
  };
  const renderApp = () => {
    if (window.docusaurusRoot) {
      window.docusaurusRoot.render(app);
      return;
    }
    if (hydrate) {
      window.docusaurusRoot = ReactDOM.hydrateRoot(container, app, {onRecoverableError});
    } else {
      const root = ReactDOM.createRoot(container, {onRecoverableError});
      root.render(app);
      window.docusaurusRoot = root;
    }
  };
  // The one change: a task of its own (see ./index.ts).
  setTimeout(() => {
    window.docusaurus = require('@docusaurus/core/lib/client/docusaurus').default;
    const App = require('@docusaurus/core/lib/client/App').default;
    const preload = require('@docusaurus/core/lib/client/preload').default;
    app = (
      <HelmetProvider>
        <Router>
          <App />
        </Router>
      </HelmetProvider>
    );
    preload(window.location.pathname).then(() => {
      startTransition(renderApp);
    });
  });
  if (module.hot) {
    module.hot.accept();
  }
}
