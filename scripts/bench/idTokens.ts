/** ID tokens the benchmarks' worker accepts: signed with a key this script serves as a JWKS. */
import http from 'node:http';
import type net from 'node:net';
import {exportJWK, generateKeyPair, SignJWT} from 'jose';
import {emulatorProject} from '../../src/config/serviceName';

/** The Firebase project the benchmarks' tokens are for. */
export const BENCH_PROJECT = emulatorProject;

/** The signing keys, as Google serves them: cacheable, so the worker fetches them once. */
export function serveJwks(jwks: object): Promise<{url: string; close(): void}> {
  const body = JSON.stringify(jwks);
  const server = http.createServer((req, res) => {
    if (req.url !== '/jwks') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {'content-type': 'application/json', 'cache-control': 'public, max-age=3600'}).end(body);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address() as net.AddressInfo;
      resolve({url: `http://127.0.0.1:${port}/jwks`, close: () => server.close()});
    });
  });
}

/**
 * Firebase-shaped ID tokens signed with one key of ours, for verified e-mails: the worker runs its
 * full RS256 verification against the JWKS. `sign` makes one for each user, valid for an hour.
 */
export async function tokenSigner() {
  const kid = 'bench-key';
  const {publicKey, privateKey} = await generateKeyPair('RS256');
  const jwk = {...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig'};
  const sign = ({uid, email}: {uid: string; email: string}) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({email, email_verified: true})
      .setProtectedHeader({alg: 'RS256', kid})
      .setIssuer(`https://securetoken.google.com/${BENCH_PROJECT}`)
      .setAudience(BENCH_PROJECT)
      .setSubject(uid)
      .setIssuedAt(now - 10)
      .setExpirationTime(now + 3600)
      .sign(privateKey);
  };
  return {sign, jwks: {keys: [jwk]}};
}

/** One such token for `email`, and the keys that verify it. */
export async function idTokenAndKeys(user: {uid: string; email: string}) {
  const {sign, jwks} = await tokenSigner();
  return {token: await sign(user), jwks};
}

/** The SQL that records an account's first verified sign-in as done, as a real one leaves it. */
export function settledAccountSql(uid: string): string {
  // OR IGNORE: a token signed again later (the hourly refresh) finds the account settled already.
  return `INSERT OR IGNORE INTO verified_accounts (user_id, state, checked_at) VALUES ('${uid.replace(/'/g, "''")}', 'done', 0)`;
}
