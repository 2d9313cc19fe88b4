/**
 * A service account key made on the spot, for a worker set up as in production (no emulator),
 * which refuses to run without one. Nothing offline can use it to reach Google: the accounts it
 * serves are already past their first verified sign-in (see `settledAccountSql` in
 * scripts/bench/idTokens.ts). Node's own crypto, so that any test may import it (jose is ESM only).
 */
import crypto from 'node:crypto';
import {emulatorProject} from '../../src/config/serviceName';

export async function offlineServiceAccount(projectId = emulatorProject): Promise<string> {
  const {privateKey} = crypto.generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: {type: 'pkcs8', format: 'pem'},
    publicKeyEncoding: {type: 'spki', format: 'pem'},
  });
  return JSON.stringify({
    client_email: `worker@${projectId}.iam.gserviceaccount.com`,
    private_key: privateKey,
    project_id: projectId,
  });
}
