/**
 * The one typed client for the worker's endpoints. Every call answers the
 * parsed body or throws an ApiError whose message can be shown to a person.
 */

export interface CreateCheckoutSessionRequest {
  priceId: string;
  successUrl: string;
  cancelUrl: string;
  email?: string;
}

export interface UrlResponse {
  url: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code?: string;

  constructor(message: string, status: number, code?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

export interface ApiClientOptions {
  baseUrl: string;
}

export const UNREACHABLE_MESSAGE = 'Could not reach the server. Check your connection and try again.';

async function errorFrom(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const {error, code} = (body ?? {}) as {error?: unknown; code?: unknown};
  const message =
    typeof error === 'string' && error.trim() ? error : `Request failed with status ${response.status}`;
  return new ApiError(message, response.status, typeof code === 'string' ? code : undefined);
}

function isUrlResponse(body: unknown): body is UrlResponse {
  if (typeof body !== 'object' || body === null) return false;
  const {url} = body as {url?: unknown};
  if (typeof url !== 'string') return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:';
  } catch {
    return false;
  }
}

export function createApiClient({baseUrl}: ApiClientOptions) {
  async function post(path: string, body: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify(body),
      });
    } catch {
      throw new ApiError(UNREACHABLE_MESSAGE, 0);
    }
    if (!response.ok) throw await errorFrom(response);
    try {
      return await response.json();
    } catch {
      throw new ApiError('The server sent an answer that is not JSON', response.status);
    }
  }

  return {
    async createCheckoutSession(request: CreateCheckoutSessionRequest): Promise<UrlResponse> {
      const body = await post('/createCheckoutSession', request);
      if (!isUrlResponse(body)) throw new ApiError('The server sent no checkout URL', 502);
      return {url: body.url};
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
