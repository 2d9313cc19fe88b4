import {stopSharedStack} from './sharedStack';

export default async function globalTeardown(): Promise<void> {
  await Promise.all([...(globalThis.__SITE_SERVERS__ ?? []).map((server) => server.close()), stopSharedStack()]);
}
