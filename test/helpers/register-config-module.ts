/**
 * vitest setup: runs the TypeScript sources, which `require` cannot load, so the lazy
 * `normalizeConfig` of src/config/lazy-config.ts gets its module from here (the same instance the
 * tests import).
 */

import * as normalizeConfigModule from '../../src/config/normalize-config.js';
import { NORMALIZE_CONFIG_MODULE } from '../../src/config/lazy-config.js';

(globalThis as Record<symbol, unknown>)[NORMALIZE_CONFIG_MODULE] = normalizeConfigModule;
