import http from 'node:http';
import {ApiError, createApiClient, UNREACHABLE_MESSAGE} from '../../src/lib/api';
import {listen, type RunningServer} from '../support/staticServer';

/** A server that answers every request with the status and raw body the test sets. */
let reply: {status: number; body: string} = {status: 200, body: '{}'};
let server: RunningServer;
beforeAll(async () => {
  server = await listen(
    http.createServer((_request, response) => {
      response.writeHead(reply.status, {'Content-Type': 'application/json'});
      response.end(reply.body);
    }),
  );
});
afterAll(() => server.close());

const request = {priceId: 'price_1', successUrl: 'http://localhost/success', cancelUrl: 'http://localhost/'};

async function failure(): Promise<ApiError> {
  const error = await createApiClient({baseUrl: server.url})
    .createCheckoutSession(request)
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('the worker API client', () => {
  it('answers the checkout URL', async () => {
    reply = {status: 200, body: JSON.stringify({url: 'https://checkout.stripe.com/c/pay/cs_1', extra: true})};
    await expect(createApiClient({baseUrl: server.url}).createCheckoutSession(request)).resolves.toEqual({
      url: 'https://checkout.stripe.com/c/pay/cs_1',
    });
  });

  it('carries the worker\'s error message, status and code', async () => {
    reply = {status: 401, body: JSON.stringify({error: 'Unauthorized', code: 'TOKEN_EXPIRED'})};
    expect(await failure()).toMatchObject({message: 'Unauthorized', status: 401, code: 'TOKEN_EXPIRED'});
  });

  it('names the status when the error body is not JSON', async () => {
    reply = {status: 502, body: '<html>Bad gateway</html>'};
    expect(await failure()).toMatchObject({message: 'Request failed with status 502', status: 502});
  });

  it.each([
    ['no url', '{}'],
    ['a url that is not one', JSON.stringify({url: 'javascript:alert(1)'})],
    ['not JSON', 'ok'],
  ])('refuses a success answer with %s', async (_case, body) => {
    reply = {status: 200, body};
    expect((await failure()).message).toMatch(/no checkout URL|not JSON/);
  });

  it('says the server is unreachable when the connection fails', async () => {
    const error = await createApiClient({baseUrl: 'http://127.0.0.1:9'})
      .createCheckoutSession(request)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({message: UNREACHABLE_MESSAGE, status: 0});
  });
});
