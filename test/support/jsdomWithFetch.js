// jsdom has no fetch; the unit tests talk to real local HTTP servers, so
// they get Node's own fetch and its companions.
const {TestEnvironment} = require('jest-environment-jsdom');

class JsdomWithFetch extends TestEnvironment {
  async setup() {
    await super.setup();
    for (const name of ['fetch', 'Request', 'Response', 'Headers', 'AbortController', 'TextEncoder', 'TextDecoder']) {
      this.global[name] = globalThis[name];
    }
  }
}

module.exports = JsdomWithFetch;
