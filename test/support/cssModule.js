// CSS modules in jsdom: each class name is its own key, so tests can read them.
module.exports = new Proxy({}, {get: (_target, key) => (key === '__esModule' ? false : String(key))});
