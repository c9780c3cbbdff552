// OAuth errors in RFC 6749 §5.2 form ({error, error_description}), kept apart from AppError:
// their codes are the OAuth registry's, not reelay's, and they never carry internal text.
import type { FastifyReply } from 'fastify';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'server_error'
  | 'temporarily_unavailable'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'unsupported_token_type';

export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly status: number;

  constructor(error: OAuthErrorCode, description: string, status = 400) {
    super(description);
    this.name = 'OAuthError';
    this.error = error;
    this.status = status;
  }
}

export function sendOAuthError(reply: FastifyReply, err: OAuthError): FastifyReply {
  return reply
    .code(err.status)
    .header('cache-control', 'no-store')
    .header('content-type', 'application/json; charset=utf-8')
    .send({ error: err.error, error_description: err.message });
}

/** A form or JSON body field as a single string; repeated parameters are an error (RFC 6749 §3.1). */
export function field(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new OAuthError('invalid_request', `Parameter ${name} must appear once, as a string.`);
  return value;
}
