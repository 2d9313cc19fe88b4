// The baseline for `npm run bench:worker`: a worker that does nothing but answer, so the ratios show
// what the real routes cost on top of workerd and wrangler's dev proxy.
export default {
  fetch() {
    return new Response('{"ok":true}', {headers: {'content-type': 'application/json'}});
  },
};
