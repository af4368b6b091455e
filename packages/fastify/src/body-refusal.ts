import type { FastifyError } from 'fastify';
import { HttpRefusal } from './refusal.js';

/** Fastify's own body-reading errors, answered as refusals with a JSON-RPC body. */
export function bodyRefusal(error: FastifyError, bodyLimit: number): HttpRefusal | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpRefusal('body-too-large', `Payload Too Large: the body exceeds the ${bodyLimit}-byte limit`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpRefusal('unsupported-media-type', 'Unsupported Media Type: POST a JSON-RPC message as application/json');
    default:
      return error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500
        ? new HttpRefusal('unreadable-body', 'Bad Request: the request body could not be read')
        : undefined;
  }
}
