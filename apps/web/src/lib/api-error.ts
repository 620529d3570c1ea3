/** Error of an API call; `message` is the text to show, `detail` the server's own detail. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
    readonly detail: string | null = null,
    readonly code: string | null = null,
    readonly data: unknown = null,
    readonly statusText: string = '',
  ) {
    super(message);
  }
}

/** A success answer that its endpoint's contract does not allow (checked in development and tests). */
export class ContractMismatchError extends Error {
  override readonly name = 'ContractMismatchError';
}

export const CLIENT_MESSAGES = {
  network: 'Network Error',
  aborted: 'Request aborted',
  timeout: (ms: number) => `timeout of ${ms}ms exceeded`,
  status: (status: number) => `Request failed with status code ${status}`,
} as const;

/** One field of an error body, whatever the body turned out to be. */
export function errorBodyField(body: unknown, name: string): unknown {
  return body !== null && typeof body === 'object' ? Reflect.get(body, name) : undefined;
}

function field(body: unknown, name: string): string | null {
  const value = errorBodyField(body, name);
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** The server's detail, when the error body has one. */
export function serverDetail(body: unknown): string | null {
  return field(body, 'detail');
}

/** Message choice: server detail, then msg, then message, then the client's own message. */
export function chooseErrorMessage(body: unknown, clientMessage: string): string {
  return field(body, 'detail') ?? field(body, 'msg') ?? field(body, 'message') ?? clientMessage;
}

/** The message to show for any thrown value. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
