import { defineConfig } from 'vitest/config';

// Three projects split by cost: unit tests sit beside the code; integration tests start real servers;
// e2e tests run the built CLI and gateway. Files run in parallel across 2 workers at most (2 cores).
export default defineConfig({
  test: {
    globalSetup: ['./test/helpers/global-setup.ts'],
    setupFiles: ['./test/helpers/register-config-module.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'] } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
    ],
  },
});
