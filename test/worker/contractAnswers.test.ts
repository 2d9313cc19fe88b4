/**
 * The contract, the worker and the OpenAPI document agree: the worker serves the document written
 * from the contract (a 3.1 document with every endpoint and its answers), and its real answers to
 * the main endpoints, buyer's and seller's, are what the contract's answer schemas say, field for
 * field: the site's client, typed from those schemas, reads what the worker sends.
 */
import {ADMIN_PATHS, API_PATHS, adminPath} from '../../src/config/api';
import {errorBody} from '../../src/config/apiSchemas';
import {commonCodes, type Endpoint, ENDPOINTS, type EndpointName} from '../../src/config/contract';
import {openApiDocument, openApiPath} from '../../src/config/openApi';
import {
  completedEvent,
  PRICE_STARTER,
  productionFirebase,
  SITE_ORIGIN,
  startStack,
  uniqueEmail,
  useSellerStack,
} from './stack';

/** Where a seller's worker is deployed: a public name. */
const DEPLOYED_ORIGIN = 'https://shop.example';

const seller = useSellerStack();

/** The answer as the contract states it for its status: parsed with its schema, nothing left out or added. */
async function expectAnswer(name: EndpointName, response: Response): Promise<unknown> {
  const endpoint: Endpoint = ENDPOINTS[name];
  const stated = endpoint.answers.find((answer) => answer.status === response.status);
  const body: unknown = await response.json();
  expect({name, status: response.status, stated: Boolean(stated)}).toEqual({
    name,
    status: response.status,
    stated: true,
  });
  if (!stated || !('json' in stated)) throw new Error(`${name} answers no JSON at ${response.status}`);
  const parsed = stated.json.safeParse(body);
  expect(parsed.error?.issues ?? []).toEqual([]);
  // z.object drops keys it does not know: equal means the worker sent none the contract leaves out.
  expect(parsed.data).toEqual(body);
  return body;
}

/** An error answer in the one shape, with a code the contract lists for the endpoint. */
async function expectError(name: EndpointName, response: Response, code: string): Promise<void> {
  const endpoint: Endpoint = ENDPOINTS[name];
  const body = errorBody.parse(await response.json());
  expect(body.code).toBe(code);
  expect([...commonCodes(endpoint), ...endpoint.codes]).toContain(code);
}

describe('the OpenAPI document', () => {
  test('the dev server serves it: the contract as OpenAPI 3.1, fresh on every read', async () => {
    const response = await seller.stack.call(API_PATHS.openApi);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const document = (await response.json()) as ReturnType<typeof openApiDocument>;
    expect(document).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({title: expect.any(String), version: expect.any(String)});
  });

  test.each([
    ['its SITE_URL is public', {SITE_URL: DEPLOYED_ORIGIN}, API_PATHS.openApi],
    ['it is asked on a public name', {}, `${DEPLOYED_ORIGIN}${API_PATHS.openApi}`],
  ])('a deployed worker does not (404, as for any path it does not serve): %s', async (_label, vars, address) => {
    const stack = await startStack({...(await productionFirebase()), ...vars});
    try {
      const response = await stack.call(address);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({error: `No route for GET ${API_PATHS.openApi}`});
    } finally {
      await stack.stop();
    }
  });

  test('every endpoint of the contract is in it, with its parameters, body and every answer', () => {
    const document = openApiDocument();
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      Object.values(ENDPOINTS)
        .map((endpoint) => `${endpoint.method} ${openApiPath(endpoint.path)}`)
        .sort(),
    );
    for (const [name, endpoint] of Object.entries(ENDPOINTS) as [string, Endpoint][]) {
      const operation = document.paths[openApiPath(endpoint.path)]![endpoint.method.toLowerCase()] as {
        operationId: string;
        parameters: {name: string; in: string}[];
        requestBody?: {content: Record<string, {schema?: {type?: string}}>};
        responses: Record<string, {content: Record<string, {schema?: unknown}>}>;
      };
      expect(operation.operationId).toBe(name);
      const inPath = [...endpoint.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
      expect(operation.parameters.filter((parameter) => parameter.in === 'path').map(({name}) => name)).toEqual(inPath);
      if (endpoint.body) expect(operation.requestBody?.content['application/json']?.schema?.type).toBe('object');
      for (const answer of endpoint.answers) {
        const response = operation.responses[String(answer.status)];
        expect(response).toBeDefined();
        if ('json' in answer)
          expect(response!.content['application/json']!.schema).toMatchObject({type: expect.any(String)});
      }
      expect(operation.responses.default!.content['application/json']!.schema).toMatchObject({required: ['error']});
    }
  });
});

describe("the worker's answers are the contract's", () => {
  test('a route that reads no body takes none, and the contract says so: no body required, no 415', async () => {
    const {stack} = seller;
    const user = await stack.signUp({verified: true});
    // No body and no content type, as a caller other than the site may send.
    await expectAnswer('signedIn', await stack.call(API_PATHS.signedIn, {method: 'POST', token: user.idToken}));
    const operation = openApiDocument().paths[openApiPath(ENDPOINTS.signedIn.path)]!.post as {
      requestBody: {required: boolean};
    };
    expect(operation.requestBody.required).toBe(false);
    expect(commonCodes(ENDPOINTS.signedIn)).not.toContain('UNSUPPORTED_MEDIA_TYPE');
    expect(commonCodes(ENDPOINTS.leads)).toContain('UNSUPPORTED_MEDIA_TYPE');
  });

  test("a buyer's endpoints, from the checkout to the dashboard", async () => {
    const {stack} = seller;
    await expectAnswer('health', await stack.call('/'));
    await expectAnswer('prices', await stack.call(API_PATHS.prices));
    await expectAnswer(
      'leads',
      await stack.call(API_PATHS.leads, {method: 'POST', body: {email: uniqueEmail('lead')}}),
    );

    const user = await stack.signUp({verified: true});
    const token = user.idToken;
    await expectAnswer(
      'createCheckoutSession',
      await stack.call(API_PATHS.createCheckoutSession, {
        method: 'POST',
        token,
        body: {priceId: PRICE_STARTER, successUrl: `${SITE_ORIGIN}/success`, cancelUrl: `${SITE_ORIGIN}/`},
      }),
    );
    const sessionId = await stack.paidCheckout({email: user.email, user});
    expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
    await expectAnswer(
      'checkoutStatus',
      await stack.call(API_PATHS.checkoutStatus, {
        method: 'POST',
        body: {sessionId, claim: stack.claimOf(sessionId)},
      }),
    );
    await expectAnswer('signedIn', await stack.call(API_PATHS.signedIn, {method: 'POST', token, body: {}}));
    await expectAnswer('userHasPaid', await stack.call(`${API_PATHS.userHasPaid}?userId=${user.uid}`, {token}));
    await expectAnswer('isAdmin', await stack.call(API_PATHS.isAdmin, {token}));
    await expectError('sales', await stack.call(ADMIN_PATHS.sales, {token}), 'ADMIN_ONLY');
    const username = stack.github.addUser(`contract-${Date.now().toString(36)}`).login;
    await expectAnswer(
      'addUserToRepo',
      await stack.call(API_PATHS.addUserToRepo, {method: 'POST', token, body: {username, userId: user.uid}}),
    );
    const status = (await expectAnswer('accessStatus', await stack.call(API_PATHS.accessStatus, {token}))) as {
      payment?: unknown;
    };
    expect(status.payment).toBeDefined();
    await expectAnswer('upgrades', await stack.call(API_PATHS.upgrades, {token}));
    await expectAnswer('releases', await stack.call(API_PATHS.releases, {token}));
    await expectAnswer(
      'releaseEmails',
      await stack.call(API_PATHS.releaseEmails, {method: 'POST', token, body: {subscribed: false}}),
    );
    await expectAnswer('receipts', await stack.call(API_PATHS.receipts, {token}));
  });

  test("a guest's checkout exchange", async () => {
    const {stack} = seller;
    const sessionId = await stack.paidCheckout({email: uniqueEmail('guest')});
    expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
    await expectAnswer('retrieveUserFromCheckoutSession', await stack.exchange(sessionId));
  });

  test("the seller's console", async () => {
    const {stack, admin} = seller;
    const token = admin.idToken;
    const buyer = await stack.signUp();
    const sessionId = await stack.paidCheckout({email: buyer.email, user: buyer});
    expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);

    await expectAnswer('sales', await stack.call(ADMIN_PATHS.sales, {token}));
    const purchases = (await expectAnswer('purchases', await stack.call(ADMIN_PATHS.purchases, {token}))) as {
      items: unknown[];
    };
    expect(purchases.items.length).toBeGreaterThan(0);
    await expectAnswer('purchase', await stack.call(adminPath(ADMIN_PATHS.purchase, {sessionId}), {token}));
    await expectAnswer('jobs', await stack.call(ADMIN_PATHS.jobs, {token}));
    await expectAnswer('adminReleases', await stack.call(ADMIN_PATHS.releases, {token}));
    await expectAnswer('adminLeads', await stack.call(ADMIN_PATHS.leads, {token}));
    await expectAnswer('repositoryAudit', await stack.call(ADMIN_PATHS.repositoryAudit, {token}));
    // A purchase with no GitHub account yet has nothing to reset: an error the contract states.
    await expectError(
      'resetUsernameChanges',
      await stack.call(adminPath(ADMIN_PATHS.resetUsernameChanges, {sessionId}), {method: 'POST', token, body: {}}),
      'CONFLICT',
    );
    await expectAnswer('auditLog', await stack.call(ADMIN_PATHS.auditLog, {token}));
  });
});
