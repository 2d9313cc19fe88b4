/** The config's `repository.downloads` switch holds on the worker: turned off, every download call refuses. */
import {archiveName, refuseWhenOff} from '../../worker/src/access/downloadRules';
import {HttpError} from '../../worker/src/errors';

test('off: 404 DOWNLOADS_OFF pointing to the GitHub invitation; on: nothing to refuse', () => {
  expect(() => refuseWhenOff(true)).not.toThrow();
  let refused: unknown;
  try {
    refuseWhenOff(false);
  } catch (error) {
    refused = error;
  }
  expect(refused).toBeInstanceOf(HttpError);
  expect(refused).toMatchObject({
    status: 404,
    code: 'DOWNLOADS_OFF',
    message: expect.stringContaining('GitHub invitation'),
  });
});

test('the archive is named after the repository and the ref, with only characters every file system takes', () => {
  expect(archiveName('acme/kit', 'v1.2.0')).toBe('acme-kit-v1.2.0.zip');
  expect(archiveName('acme/kit', 'feature/x"y')).toBe('acme-kit-feature-x-y.zip');
});
