/**
 * @module registry/access-store
 * Tool rules, rate limits, named endpoints and whether `/mcp` (the everything endpoint) is on, as
 * stored in the registry. Definitions are validated here (CONFIG_INVALID naming the bad field) and
 * kept as JSON; every change is announced as an `access` change, which the gateway turns into a
 * fresh access snapshot and `list_changed` for connected clients.
 */

import { ErrorCode, SwitchboardError } from '../errors.js';
import {
  endpointInputSchema,
  parseAccessInput,
  rateLimitInputSchema,
  toolRuleInputSchema,
  type EndpointInput,
  type EndpointRecord,
  type RateLimit,
  type RateLimitInput,
  type ToolRule,
  type ToolRuleInput,
} from './access-types.js';
import { isUniqueViolation } from './open-database.js';
import { newId } from './new-id.js';
import { RECORD_NAME, checkName, parseStoredJson, requireUser, timestamp, type RegistryContext } from './registry-context.js';
import type { UserRef } from './registry-types.js';

const SETTING_EVERYTHING = 'everything_endpoint';

/** Rules, limits, endpoints. Only admins change rules and limits; users may own endpoints over their own servers. */
export class AccessStore {
  readonly #context: RegistryContext;

  constructor(context: RegistryContext) {
    this.#context = context;
  }

  /** Adds a tool rule (rules apply in the order they were added; deny wins whatever the order). */
  async addRule(input: ToolRuleInput | Record<string, unknown>): Promise<ToolRule> {
    const rule = parseAccessInput(toolRuleInputSchema, input, 'rule');
    const row = { id: newId(), definition: JSON.stringify(rule), created_at: timestamp() };
    await this.#context.db.insertInto('tool_rules').values(row).execute();
    await this.#changed('added', row.id);
    return { ...rule, id: row.id, createdAt: row.created_at };
  }

  /** Every tool rule, oldest first. */
  async listRules(): Promise<ToolRule[]> {
    const rows = await this.#context.db.selectFrom('tool_rules').selectAll().orderBy('id').execute();
    return rows.map((row) => ({ ...toolRuleInputSchema.parse(parseStoredJson(row.definition, `rule ${row.id}`)), id: row.id, createdAt: row.created_at }));
  }

  /** Removes a rule; NOT_FOUND. */
  async removeRule(id: string): Promise<void> {
    const result = await this.#context.db.deleteFrom('tool_rules').where('id', '=', id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new SwitchboardError(ErrorCode.NotFound, `there is no rule ${id}`, { hint: 'list rules with `switchboard rules list`' });
    await this.#changed('removed', id);
  }

  /** Adds a rate limit. */
  async addLimit(input: RateLimitInput | Record<string, unknown>): Promise<RateLimit> {
    const limit = parseAccessInput(rateLimitInputSchema, input, 'limit');
    const row = { id: newId(), definition: JSON.stringify(limit), created_at: timestamp() };
    await this.#context.db.insertInto('rate_limits').values(row).execute();
    await this.#changed('added', row.id);
    return { ...limit, id: row.id, createdAt: row.created_at };
  }

  /** Every rate limit, oldest first. */
  async listLimits(): Promise<RateLimit[]> {
    const rows = await this.#context.db.selectFrom('rate_limits').selectAll().orderBy('id').execute();
    return rows.map((row) => ({ ...rateLimitInputSchema.parse(parseStoredJson(row.definition, `limit ${row.id}`)), id: row.id, createdAt: row.created_at }));
  }

  /** Removes a rate limit; NOT_FOUND. */
  async removeLimit(id: string): Promise<void> {
    const result = await this.#context.db.deleteFrom('rate_limits').where('id', '=', id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new SwitchboardError(ErrorCode.NotFound, `there is no rate limit ${id}`, { hint: 'list limits with `switchboard limits list`' });
    await this.#changed('removed', id);
  }

  /** Adds or replaces the endpoint `name` (owned by `owner`, or by the admins when undefined). */
  async putEndpoint(name: string, input: EndpointInput | Record<string, unknown>, owner?: UserRef): Promise<EndpointRecord> {
    checkName(name, RECORD_NAME, 'endpoint');
    const definition = parseAccessInput(endpointInputSchema, input, `endpoint ${name}`);
    const ownerId = owner === undefined ? null : (await requireUser(this.#context, owner)).id;
    const existing = await this.#context.db.selectFrom('endpoints').selectAll().where('name', '=', name).executeTakeFirst();
    const now = timestamp();
    if (existing !== undefined) {
      if (existing.owner_id !== ownerId) throw new SwitchboardError(ErrorCode.AlreadyExists, `endpoint "${name}" exists and belongs to someone else`, { hint: 'choose another name' });
      await this.#context.db.updateTable('endpoints').set({ definition: JSON.stringify(definition), updated_at: now }).where('id', '=', existing.id).execute();
    } else {
      try {
        await this.#context.db.insertInto('endpoints').values({ id: newId(), name, owner_id: ownerId, definition: JSON.stringify(definition), created_at: now, updated_at: now }).execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw new SwitchboardError(ErrorCode.AlreadyExists, `endpoint "${name}" already exists`, { cause: error });
        throw error;
      }
    }
    await this.#changed(existing === undefined ? 'added' : 'updated', name);
    return this.getEndpoint(name);
  }

  /** Every endpoint, by name. */
  async listEndpoints(): Promise<EndpointRecord[]> {
    const rows = await this.#context.db.selectFrom('endpoints').selectAll().orderBy('name').execute();
    return rows.map((row) => ({
      ...endpointInputSchema.parse(parseStoredJson(row.definition, `endpoint ${row.name}`)),
      id: row.id,
      name: row.name,
      ...(row.owner_id === null ? {} : { ownerId: row.owner_id }),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    }));
  }

  /** One endpoint; NOT_FOUND. */
  async getEndpoint(name: string): Promise<EndpointRecord> {
    const found = (await this.listEndpoints()).find((endpoint) => endpoint.name === name);
    if (found === undefined) throw new SwitchboardError(ErrorCode.NotFound, `there is no endpoint "${name}"`, { hint: 'list endpoints with `switchboard endpoints list`' });
    return found;
  }

  /** Removes an endpoint; NOT_FOUND. Its connected clients are disconnected by the gateway. */
  async removeEndpoint(name: string): Promise<void> {
    const endpoint = await this.getEndpoint(name);
    await this.#context.db.deleteFrom('endpoints').where('id', '=', endpoint.id).execute();
    await this.#changed('removed', name);
  }

  /** Whether `/mcp` serves every tool to non-admin users. @default true */
  async everythingEndpoint(): Promise<boolean> {
    const row = await this.#context.db.selectFrom('settings').select('value').where('key', '=', SETTING_EVERYTHING).executeTakeFirst();
    return row?.value !== 'off';
  }

  /** Turns `/mcp` on or off for non-admin users (they then use their named endpoints). */
  async setEverythingEndpoint(on: boolean): Promise<void> {
    const value = on ? 'on' : 'off';
    await this.#context.db.insertInto('settings').values({ key: SETTING_EVERYTHING, value }).onConflict((conflict) => conflict.column('key').doUpdateSet({ value })).execute();
    await this.#changed('updated', SETTING_EVERYTHING);
  }

  async #changed(action: 'added' | 'updated' | 'removed', name: string): Promise<void> {
    await this.#context.notify({ kind: 'access', action, userId: undefined, name });
  }
}
