/**
 * What the launch-code suites do in the console, in one place: make a code (a Stripe promotion code,
 * or with `forUpgrades` an upgrade code), read it as the console lists it, end it.
 */
import {adminPath, ADMIN_PATHS, type AdminLaunchCode} from '../../src/config/api';
import type {SignedInUser, Stack} from './stack';

/** A code no other test of the run has made (the codes live in the file's D1 and stand-in). */
let made = 0;
export const freshCode = (label = 'LAUNCH') => `${label}-${Date.now().toString(36).toUpperCase()}${made++}`;

export function launchCodeActs(seller: {readonly stack: Stack; readonly admin: SignedInUser}) {
  const create = (body: Record<string, unknown>) =>
    seller.stack.call(ADMIN_PATHS.createLaunchCode, {method: 'POST', token: seller.admin.idToken, body});

  async function createOk(body: Record<string, unknown>): Promise<AdminLaunchCode> {
    const response = await create(body);
    if (response.status !== 201) throw new Error(`create: ${response.status} ${await response.text()}`);
    return (await response.json()) as AdminLaunchCode;
  }

  async function listed(id: string): Promise<AdminLaunchCode | undefined> {
    const response = await seller.stack.call(ADMIN_PATHS.launchCodes, {token: seller.admin.idToken});
    expect(response.status).toBe(200);
    return ((await response.json()) as {items: AdminLaunchCode[]}).items.find((code) => code.id === id);
  }

  const end = (id: string) =>
    seller.stack.call(adminPath(ADMIN_PATHS.endLaunchCode, {codeId: id}), {
      method: 'POST',
      token: seller.admin.idToken,
      body: {},
    });

  return {create, createOk, listed, end};
}
