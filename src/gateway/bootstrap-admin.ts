/**
 * @module gateway/bootstrap-admin
 * The first start of a gateway: with no administrator in the registry, one is created (`admin`) with
 * an API token, which is returned once (to be printed once) and written to a token file readable by
 * its owner only (mode 0600). `SWITCHBOARD_TOKEN` instead sets the administrator's token (for scripts
 * and CI): its hash is registered if the registry does not know it yet.
 */

import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { RegistryUser, ServerRegistry } from '../registry/index.js';

/** The environment variable that sets the admin token. */
export const TOKEN_ENV = 'SWITCHBOARD_TOKEN';
/** The name of the administrator created on first start. @default 'admin' */
export const DEFAULT_ADMIN_NAME = 'admin';

/** Options of {@link bootstrapAdmin}. */
export interface AdminBootstrapOptions {
  /** The token the operator chose (`SWITCHBOARD_TOKEN`). */
  envToken?: string;
  /** Where a created token is written (mode 0600), and read from on later starts. */
  tokenFile: string;
  /** @default DEFAULT_ADMIN_NAME */
  adminName?: string;
}

/** What the bootstrap found or did. */
export interface AdminBootstrap {
  /** The administrator whose token this is (the first one, when several exist). */
  user: RegistryUser;
  /** The admin token, when this process knows it (created now, from the environment, or from the token file). */
  token?: string;
  /** `created`: made now (print it once); `env`: SWITCHBOARD_TOKEN; `file`: the token file; `none`: unknown here. */
  source: 'created' | 'env' | 'file' | 'none';
  /** True when the administrator was created now. */
  createdUser: boolean;
}

/** Makes sure an administrator exists and finds (or creates) its token. */
export async function bootstrapAdmin(registry: ServerRegistry, options: AdminBootstrapOptions): Promise<AdminBootstrap> {
  const envToken = options.envToken?.trim() === '' ? undefined : options.envToken?.trim();
  if (envToken !== undefined) {
    const owner = await registry.verifyToken(envToken);
    if (owner !== undefined) {
      if (!owner.isAdmin) {
        throw new SwitchboardError(ErrorCode.InvalidArgument, `${TOKEN_ENV} is a token of user "${owner.name}", who is not an administrator`, {
          hint: `unset ${TOKEN_ENV}, or use an administrator's token`,
        });
      }
      return { user: owner, token: envToken, source: 'env', createdUser: false };
    }
    const { user, created } = await findOrCreateAdmin(registry, options.adminName ?? DEFAULT_ADMIN_NAME);
    await registry.tokens.register(user, envToken, { name: TOKEN_ENV });
    return { user, token: envToken, source: 'env', createdUser: created };
  }
  const { user, created } = await findOrCreateAdmin(registry, options.adminName ?? DEFAULT_ADMIN_NAME);
  if (!created) {
    const fromFile = readTokenFile(options.tokenFile);
    if (fromFile !== undefined) {
      const owner = await registry.verifyToken(fromFile);
      if (owner?.isAdmin === true) return { user: owner, token: fromFile, source: 'file', createdUser: false };
    }
    // An admin exists: a missing or stale token file is not a reason to mint tokens on every start.
    if ((await registry.tokens.list(user)).length > 0) return { user, source: 'none', createdUser: false };
  }
  const { token } = await registry.tokens.create(user, { name: 'gateway (first start)' });
  writeTokenFile(options.tokenFile, token);
  return { user, token, source: 'created', createdUser: created };
}

async function findOrCreateAdmin(registry: ServerRegistry, name: string): Promise<{ user: RegistryUser; created: boolean }> {
  const admin = (await registry.users.list()).find((user) => user.isAdmin);
  if (admin !== undefined) return { user: admin, created: false };
  const existing = await registry.users.find(name);
  if (existing !== undefined) {
    throw new SwitchboardError(ErrorCode.AlreadyExists, `the registry has no administrator, and a user "${name}" exists who is not one`, {
      hint: `make one with \`switchboard users add NAME --admin\` (or grant it to "${name}")`,
    });
  }
  return { user: await registry.users.add(name, { isAdmin: true }), created: true };
}

/** The token in `file`, or undefined when there is none. */
export function readTokenFile(file: string): string | undefined {
  try {
    const text = readFileSync(file, 'utf8').trim();
    return text === '' ? undefined : text;
  } catch {
    return undefined;
  }
}

/** Writes `token` to `file`, readable by its owner only. */
export function writeTokenFile(file: string, token: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  // `mode` applies only to a new file: an existing one is tightened too.
  chmodSync(file, 0o600);
}
