/**
 * @module gateway/gateway-app-types
 * The Hono types shared by the gateway's routes.
 */

import type { Context, Hono } from 'hono';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { RegistryUser } from '../registry/index.js';

/** Per-request values: the request id (logs) and the authenticated user. */
export interface GatewayEnv {
  Variables: {
    requestId: string;
    user: RegistryUser | undefined;
    /** The OAuth scopes of the request's access token; undefined for a static API token (everything allowed). */
    scopes: readonly string[] | undefined;
  };
}

/** The gateway's Hono app. */
export type GatewayApp = Hono<GatewayEnv>;
/** A request context of the gateway. */
export type GatewayContext = Context<GatewayEnv>;

/** The authenticated user of a route behind the auth middleware. */
export function userOf(c: GatewayContext): RegistryUser {
  const user = c.get('user');
  if (user === undefined) throw new SwitchboardError(ErrorCode.Unauthorized, 'an API token is required');
  return user;
}

/** The JSON body of a request; INVALID_ARGUMENT (400) when it is not JSON, or not an object. */
export async function jsonObjectBody(c: GatewayContext): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch (error) {
    if (error instanceof SwitchboardError) throw error;
    throw new SwitchboardError(ErrorCode.InvalidArgument, 'the request body is not valid JSON', { hint: 'send Content-Type: application/json with a JSON object' });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new SwitchboardError(ErrorCode.InvalidArgument, 'the request body must be a JSON object');
  }
  return { ...body };
}
