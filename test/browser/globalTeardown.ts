import {stopRunAuthEmulator} from '../support/runAuthEmulator';
import {stopSharedStack} from './sharedStack';

export default async function globalTeardown(): Promise<void> {
  await Promise.all([...(globalThis.__SITE_SERVERS__ ?? []).map((server) => server.close()), stopSharedStack()]);
  // After the shared stack, which uses it; the worker suite's teardown may have stopped it already.
  stopRunAuthEmulator();
}
