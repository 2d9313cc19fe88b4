/**
 * The worker's OpenAPI 3.1 document, written from the contract (`contract.ts`) with zod's own JSON
 * Schema (`z.toJSONSchema`): nothing in it is typed twice. The worker serves it (`GET /openapi.json`)
 * and the endpoint table of `worker/README.md` is written from the same statement.
 */
import {z} from 'zod';
import {appConfig} from './app';
import {ERROR_CODES} from './apiPaths';
import {emptyBody} from './apiSchemas';
import {type Access, ACCESS, commonCodes, type Endpoint, ENDPOINTS} from './contract';

type JsonSchema = Record<string, unknown>;

/** A schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect): requests as the caller sends them, answers as sent. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  // `unrepresentable: 'any'`: a refinement's rule is code (a plan's name in the config), not a schema.
  const {$schema: _dialect, ...rest} = z.toJSONSchema(schema, {io, unrepresentable: 'any'});
  return rest;
}

/** `/admin/purchases/:sessionId` as OpenAPI writes it: `/admin/purchases/{sessionId}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

const SECURITY: Record<Access, Record<string, string[]>[]> = {
  public: [],
  optional: [{}, {idToken: []}],
  user: [{idToken: []}],
  admin: [{idToken: []}],
  link: [],
  stripe: [{stripeSignature: []}],
  // Mailgun signs inside the body (timestamp, token, signature): no header to name.
  mailgun: [],
  github: [{githubSignature: []}],
};

function parameters(endpoint: Endpoint) {
  const sources = [
    ['path', endpoint.params],
    ['query', endpoint.query],
  ] as const;
  return sources.flatMap(([place, object]) =>
    Object.entries((object?.shape ?? {}) as Record<string, z.ZodType>).map(([name, field]) => ({
      name,
      in: place,
      // A query field may be left out when it has a default or takes nothing.
      required: place === 'path' || !field.safeParse(undefined).success,
      schema: jsonSchema(field, 'input'),
    })),
  );
}

function operation(name: string, endpoint: Endpoint) {
  const codes = [...new Set([...commonCodes(endpoint), ...endpoint.codes])];
  const responses: Record<string, unknown> = {};
  for (const answer of endpoint.answers) {
    responses[String(answer.status)] =
      'json' in answer
        ? {description: 'Success', content: {'application/json': {schema: jsonSchema(answer.json, 'output')}}}
        : {description: answer.description, content: {[answer.type]: {}}};
  }
  responses.default = {
    description: `An error: {error, code?}; its codes here: ${codes.join(', ')}`,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: {error: {type: 'string'}, code: {type: 'string', enum: codes}},
          required: ['error'],
        },
      },
    },
  };
  return {
    operationId: name,
    summary: endpoint.summary,
    description: `Who may call it: ${ACCESS[endpoint.access]}.`,
    // The same in a word a table can show (worker/README.md's endpoint table).
    'x-access': ACCESS[endpoint.access],
    security: SECURITY[endpoint.access],
    parameters: parameters(endpoint),
    ...(endpoint.body && {
      requestBody: {
        // The site sends `{}` where the route reads nothing (`emptyBody`); none will do as well.
        required: endpoint.body !== emptyBody,
        content: {'application/json': {schema: jsonSchema(endpoint.body, 'input')}},
      },
    }),
    ...(endpoint.rawBody && {requestBody: {required: true, description: endpoint.rawBody, content: {'*/*': {}}}}),
    responses,
  };
}

/** The whole document. */
export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, endpoint] of Object.entries(ENDPOINTS) as [string, Endpoint][]) {
    const path = openApiPath(endpoint.path);
    paths[path] = {...paths[path], [endpoint.method.toLowerCase()]: operation(name, endpoint)};
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${appConfig.appName} worker`,
      version: '1',
      description:
        "The worker's endpoints, from src/config/contract.ts. Every error answer is {error, code?}; " +
        `the codes: ${ERROR_CODES.join(', ')}.`,
    },
    components: {
      securitySchemes: {
        idToken: {type: 'http', scheme: 'bearer', description: 'A Firebase ID token, or a Supabase access token'},
        stripeSignature: {type: 'apiKey', in: 'header', name: 'Stripe-Signature'},
        githubSignature: {type: 'apiKey', in: 'header', name: 'X-Hub-Signature-256'},
      },
    },
    paths,
  };
}
