/**
 * @module config/config-schemas
 * The config schemas, built on first need. zod is required synchronously (normalizing a config is
 * synchronous) through its CommonJS build, so it loads only when a config needs more than the quick
 * check (`quick-check.ts`) can vouch for.
 */

import { createRequire } from 'node:module';
import type { z as Zod } from 'zod';
import { createConfigSchemas, type ConfigSchemas } from './schema.js';

let schemas: ConfigSchemas | undefined;

/** The config schemas (loads zod the first time). */
export function configSchemas(): ConfigSchemas {
  if (schemas === undefined) {
    const { z } = createRequire(import.meta.url)('zod') as { z: typeof Zod };
    schemas = createConfigSchemas(z);
  }
  return schemas;
}
