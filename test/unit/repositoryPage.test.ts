/**
 * @jest-environment node
 *
 * The dashboard links a buyer to the repository's page as the worker names it: on github.com in
 * production, and on the GitHub stand-in when the worker talks to one on this machine (local mode,
 * tests), whose repositories are not the buyer's on github.com.
 */
import {repositoryPage} from '../../worker/src/access/repositoryPage';

test("a repository's page is on github.com, or on the stand-in the worker talks to", () => {
  expect(repositoryPage({GITHUB_API_URL: undefined}, 'acme/kit-private')).toBe('https://github.com/acme/kit-private');
  expect(repositoryPage({GITHUB_API_URL: 'http://127.0.0.1:4567/'}, 'acme/kit-private')).toBe(
    'http://127.0.0.1:4567/acme/kit-private',
  );
  expect(repositoryPage({GITHUB_API_URL: 'http://localhost:4567'}, 'acme/kit-private')).toBe(
    'http://localhost:4567/acme/kit-private',
  );
});

// GITHUB_API_URL is for development and tests; set in a deployed worker anyway, it names an API,
// whose paths are no page a buyer can open (https://api.github.com/acme/kit-private is a 404).
test.each([
  ["GitHub's own API, named outright", 'https://api.github.com'],
  ['an API on another host', 'https://github.example.com/api/v3/'],
  ['not a URL', 'api.github.com'],
])('with GITHUB_API_URL %s, the page is still on github.com', (_label, apiUrl) => {
  expect(repositoryPage({GITHUB_API_URL: apiUrl}, 'acme/kit-private')).toBe('https://github.com/acme/kit-private');
});
