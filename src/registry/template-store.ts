/**
 * @module registry/template-store
 * Admin-defined stdio server templates. Their fixed env values may be secrets (an admin's API key
 * for a shared backend), so they are stored encrypted like server secrets.
 */

import { z } from 'zod';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { RegistryDatabase } from './database-schema.js';
import { maskSecret } from './mask-secret.js';
import { isUniqueViolation } from './open-database.js';
import { newId } from './new-id.js';
import { RECORD_NAME, checkName, parseStoredJson, timestamp, type RegistryContext } from './registry-context.js';
import type { RegisteredTemplate } from './registry-types.js';
import { parseServerTemplate, serverTemplateSchema, type ServerTemplateDefinition, type ServerTemplateInput } from './server-template.js';

const envSchema = z.record(z.string(), z.string());

/** A template with its env values in clear, for building server specs. Internal. */
export interface LoadedTemplate {
  id: string;
  name: string;
  definition: ServerTemplateDefinition;
  env: Record<string, string>;
}

/** The server templates of a registry. Only admins (the operator) change them. */
export class TemplateStore {
  readonly #context: RegistryContext;

  constructor(context: RegistryContext) {
    this.#context = context;
  }

  /** Adds a template; throws INVALID_ARGUMENT for a bad definition, ALREADY_EXISTS for a taken name. */
  async add(name: string, input: ServerTemplateInput): Promise<RegisteredTemplate> {
    checkName(name, RECORD_NAME, 'template');
    const definition = parseServerTemplate(input, name);
    const id = newId();
    const now = timestamp();
    const row = { id, name, description: definition.description ?? null, ...this.#serialize(id, definition), created_at: now, updated_at: now };
    try {
      await this.#context.db.insertInto('server_templates').values(row).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new SwitchboardError(ErrorCode.AlreadyExists, `template "${name}" already exists`, { cause: error });
      throw error;
    }
    await this.#context.notify({ kind: 'template', action: 'added', userId: null, name });
    return this.#toPublic(row);
  }

  /** Replaces a template's definition; its instances follow on their next refresh. */
  async update(name: string, input: ServerTemplateInput): Promise<RegisteredTemplate> {
    const existing = await this.#row(name);
    const definition = parseServerTemplate(input, name);
    const changes = { description: definition.description ?? null, ...this.#serialize(existing.id, definition), updated_at: timestamp() };
    await this.#context.db.updateTable('server_templates').set(changes).where('id', '=', existing.id).execute();
    await this.#context.notify({ kind: 'template', action: 'updated', userId: null, name });
    return this.#toPublic({ ...existing, ...changes });
  }

  /** Every template, env values masked. */
  async list(): Promise<RegisteredTemplate[]> {
    const rows = await this.#context.db.selectFrom('server_templates').selectAll().orderBy('name').execute();
    return rows.map((row) => this.#toPublic(row));
  }

  /** One template, env values masked; throws NOT_FOUND. */
  async get(name: string): Promise<RegisteredTemplate> {
    return this.#toPublic(await this.#row(name));
  }

  /** Removes a template; refused while servers use it. */
  async remove(name: string): Promise<void> {
    const row = await this.#row(name);
    const used = await this.#context.db.selectFrom('servers').select(({ fn }) => fn.countAll<number>().as('count')).where('template_id', '=', row.id).executeTakeFirst();
    const count = Number(used?.count ?? 0);
    if (count > 0) {
      throw new SwitchboardError(ErrorCode.InvalidArgument, `template "${name}" is used by ${count} server${count === 1 ? '' : 's'}`, {
        hint: 'remove those servers first',
      });
    }
    await this.#context.db.deleteFrom('server_templates').where('id', '=', row.id).execute();
    await this.#context.notify({ kind: 'template', action: 'removed', userId: null, name });
  }

  /** A template with env values decrypted (by name or id). Internal. */
  async load(ref: { name: string } | { id: string }): Promise<LoadedTemplate | undefined> {
    const query = this.#context.db.selectFrom('server_templates').selectAll();
    const row = await ('id' in ref ? query.where('id', '=', ref.id) : query.where('name', '=', ref.name)).executeTakeFirst();
    return row === undefined ? undefined : this.#load(row);
  }

  /** Every template with env values decrypted, by id. Internal. */
  async loadAll(): Promise<Map<string, LoadedTemplate>> {
    const rows = await this.#context.db.selectFrom('server_templates').selectAll().execute();
    return new Map(rows.map((row) => [row.id, this.#load(row)]));
  }

  #load(row: RegistryDatabase['server_templates']): LoadedTemplate {
    const definition = serverTemplateSchema.parse(parseStoredJson(row.definition, `template ${row.name}`));
    const env = row.secrets === null ? {} : envSchema.parse(parseStoredJson(this.#context.box.decrypt(row.secrets, `template:${row.id}`), `template ${row.name} env`));
    return { id: row.id, name: row.name, definition: { ...definition, env }, env };
  }

  async #row(name: string): Promise<RegistryDatabase['server_templates']> {
    const row = await this.#context.db.selectFrom('server_templates').selectAll().where('name', '=', name).executeTakeFirst();
    if (row === undefined) {
      throw new SwitchboardError(ErrorCode.NotFound, `there is no template "${name}"`, { hint: 'list templates with `switchboard templates list`' });
    }
    return row;
  }

  #serialize(id: string, definition: ServerTemplateDefinition): { definition: string; secrets: string | null } {
    // Env names stay readable (with empty values); the values go to the encrypted column.
    const names = Object.fromEntries(Object.keys(definition.env).map((key) => [key, '']));
    return {
      definition: JSON.stringify({ ...definition, env: names }),
      secrets: Object.keys(definition.env).length === 0 ? null : this.#context.box.encrypt(JSON.stringify(definition.env), `template:${id}`),
    };
  }

  #toPublic(row: RegistryDatabase['server_templates']): RegisteredTemplate {
    const loaded = this.#load(row);
    return {
      id: row.id,
      name: row.name,
      ...(row.description === null ? {} : { description: row.description }),
      command: loaded.definition.command,
      args: loaded.definition.args,
      // A value that is only placeholders carries no secret of its own: show it.
      env: Object.fromEntries(Object.entries(loaded.env).map(([key, value]) => [key, /^(?:\{\{\s*\w+\s*\}\})+$/.test(value) ? value : maskSecret(value)])),
      parameters: loaded.definition.parameters.map((parameter) =>
        parameter.secret === true && parameter.default !== undefined ? { ...parameter, default: maskSecret(String(parameter.default)) } : { ...parameter },
      ),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }
}
