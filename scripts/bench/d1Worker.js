// A second baseline for `npm run bench:worker`: one local-D1 round trip and nothing else, so the
// figures show what any route that must read (a GET) or write (a POST) D1 can reach here.
let table;

export default {
  async fetch(request, env) {
    if (request.method === 'POST') {
      table ??= env.DB.prepare('CREATE TABLE IF NOT EXISTS marks (id INTEGER PRIMARY KEY, at INTEGER NOT NULL)').run();
      await table;
      await env.DB.prepare('INSERT INTO marks (at) VALUES (?1)').bind(Date.now()).run();
    } else {
      await env.DB.prepare('SELECT 1').first();
    }
    return new Response('{"ok":true}', {headers: {'content-type': 'application/json'}});
  },
};
