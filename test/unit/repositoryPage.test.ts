/**
 * @jest-environment node
 *
 * The dashboard links a buyer to the repository's page as the worker names it: on github.com in
 * production, and on the GitHub stand-in when the worker talks to one (local mode, tests), whose
 * repositories are not the buyer's on github.com.
 */
import {repositoryPage} from '../../worker/src/access/repositoryPage';

test("a repository's page is on github.com, or on the stand-in the worker talks to", () => {
  expect(repositoryPage({GITHUB_API_URL: undefined}, 'acme/kit-private')).toBe('https://github.com/acme/kit-private');
  expect(repositoryPage({GITHUB_API_URL: 'http://127.0.0.1:4567/'}, 'acme/kit-private')).toBe('http://127.0.0.1:4567/acme/kit-private');
});
