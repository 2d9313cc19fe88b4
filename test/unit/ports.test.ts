/** Free ports for the local stack come from outside the range the OS assigns by itself, so a `listen(0)` elsewhere cannot take one before it is bound. */
import {createServer, type Server} from 'node:net';
import {ephemeralRange, freePort, portInUse} from '../../scripts/local/ports';

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

test('freePort answers ports below the OS-assigned range, each one bindable', async () => {
  const {low} = ephemeralRange();
  const ports = await Promise.all(Array.from({length: 20}, () => freePort()));
  for (const port of ports) {
    expect(port).toBeGreaterThanOrEqual(1024);
    expect(port).toBeLessThan(low);
  }
  const server = await listen(ports[0]!);
  await close(server);
});

test('an OS-assigned port (listen on 0) falls inside the range freePort avoids', async () => {
  const server = await listen(0);
  const {port} = server.address() as {port: number};
  const {low, high} = ephemeralRange();
  expect(port).toBeGreaterThanOrEqual(low);
  expect(port).toBeLessThanOrEqual(high);
  expect(await portInUse(port)).toBe(true);
  await close(server);
  expect(await portInUse(port)).toBe(false);
});
