/**
 * Opens a page at its #fragment when the browser drew the page itself. A page that arrives with
 * its HTML (the build) is scrolled to its fragment by the browser as it parses, and Docusaurus
 * handles the fragments of client-side navigations; but the dev server (`npm start`) sends every
 * page without its HTML, so there was nothing to scroll to and `/#pricing` opened at the top.
 */
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';
import type {ClientModule} from '@docusaurus/types';

// Read before React draws anything: the container holds the server's HTML, or nothing.
const drawnByBrowser = ExecutionEnvironment.canUseDOM && !document.getElementById('__docusaurus')?.hasChildNodes();

const module: ClientModule = {
  onRouteDidUpdate({location, previousLocation}) {
    if (previousLocation || !drawnByBrowser || !location.hash) return;
    document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  },
};
export default module;
