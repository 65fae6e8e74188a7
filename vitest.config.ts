import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/**
 * Three projects, by what a test needs (docs: README "Tests"):
 * - unit: rules that are plain TypeScript over Web APIs Node has (crypto.subtle, Intl, URL). They run in
 *   Node: no workerd to start and no Worker graph to load, so `npm run test:unit` is the inner loop.
 * - worker: everything that calls the Worker, its objects or D1, in workerd (the Workers pool).
 * - slow: the fuzz suites and the 10,000-task seeds. `vitest run` (npm test) runs them at a small
 *   FUZZ_RUNS; `npm run test:slow` runs them at full length, and CI runs both.
 */
const UNIT = [
  "test/domain/device-token.test.ts",
  "test/domain/quick-add.test.ts",
  "test/domain/public-address.test.ts",
  "test/domain/webhook-address.test.ts",
  "test/lifecycle/occurrences.test.ts",
  "test/lifecycle/recurrence.test.ts",
  "test/web/user-agent.test.ts",
  "test/web/rule-label.test.ts",
  "test/web/push-message.test.ts",
  "test/bundle/zod-shim.test.ts",
  "test/import/todoist-csv.test.ts",
  "test/import/own-export.test.ts",
];
const SLOW = [
  "test/hardening/fuzz.test.ts",
  "test/hardening/fuzz-oauth.test.ts",
  "test/hardening/openapi-conformance.test.ts",
  "test/account/export-scale.test.ts",
  "test/domain/search-scale.test.ts",
  "test/lifecycle/pagination.test.ts",
];

/** wrangler.toml's [[ratelimits]] quotas, for the tests' own rate-limit window (test/support/rate-window.ts). */
async function rateLimitsOf(configPath: string) {
  const { unstable_readConfig } = await import("wrangler");
  const { ratelimits } = unstable_readConfig({ config: configPath });
  return Object.fromEntries(
    ratelimits.map((r: { name: string; simple: { limit: number; period: number } }) => [
      r.name,
      { limit: r.simple.limit, period: r.simple.period },
    ]),
  );
}

export default defineConfig(() => {
  // Read when a workers project starts, so `npm run test:unit` does not pay for them.
  const workersPool = (fuzzRuns: string) =>
    cloudflareTest(async () => ({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          // The same migration files that `wrangler d1 migrations apply` runs in production.
          TEST_MIGRATIONS: await readD1Migrations("./migrations"),
          TEST_RATE_LIMITS: await rateLimitsOf("./wrangler.toml"),
          ADMIN_TOKEN: "test-admin-token",
          // Signs the API keys and feed URLs the tests make (src/domain/credential-mac.ts).
          CREDENTIAL_SECRET: "test-credential-secret",
          // Every suite signs up from the same "IP": limits are off here, and test/hardening
          // turns them on per request (a patched env) against the real [[ratelimits]] bindings.
          RATE_LIMITS: "off",
          // Stripe's webhook works with only this secret (test/billing signs events with it); checkout and the
          // portal stay off (404) unless a test patches STRIPE_SECRET_KEY and STRIPE_PRICE_ID in.
          STRIPE_WEBHOOK_SECRET: "whsec_test_billing",
          // Webhooks may point to a local receiver (test/events).
          WEBHOOKS_ALLOW_LOOPBACK: "on",
          // Links follow each request's origin (http://example.com), whatever wrangler.toml names for production.
          PUBLIC_ORIGIN: "",
          // Generated inputs per endpoint and MCP tool in test/hardening/fuzz*.test.ts.
          FUZZ_RUNS: fuzzRuns,
          // Replays one fuzz run: the seed is printed with the totals.
          ...(process.env.FUZZ_SEED ? { FUZZ_SEED: process.env.FUZZ_SEED } : {}),
        },
        // Tests in workerd cannot read the repository: Miniflare reads these files' bytes from disk,
        // so test/entry-points can check that the Worker serves them byte-identical.
        dataBlobBindings: {
          SKILL_MD_BYTES: "SKILL.md",
          REFERENCE_MD_BYTES: "references/REFERENCE.md",
          LLMS_TXT_BYTES: "llms.txt",
          README_MD_BYTES: "README.md",
        },
      },
    }));
  const inWorkers = {
    setupFiles: ["./test/apply-migrations.ts"],
    // One workerd per pool worker, kept for all the files it runs: its module cache (the Worker's
    // graph is loaded once, not per file) and its storage (D1 migrated once) carry over. Tests never
    // share data by construction: every account, key and IP is fresh (test/helpers.ts, uniqueIp).
    isolate: false,
  };
  return {
    test: {
      // Vitest's 5 s default made time a verdict: on a 2-core machine under parallel load (load average ~13)
      // a test that signs up and connects over OAuth, or that pays the MCP SDK's first import (1–4 s), can
      // pass 5 s and fail though nothing is wrong (test/oauth/key-path.test.ts). A timeout here only ends a
      // hang; suites that are slow by design still set their own.
      testTimeout: 120_000,
      hookTimeout: 120_000,
      projects: [
        { extends: true, test: { name: "unit", include: UNIT, environment: "node" } },
        {
          extends: true,
          plugins: [workersPool(process.env.FUZZ_RUNS ?? "20")],
          test: { name: "worker", include: ["test/**/*.test.ts"], exclude: [...UNIT, ...SLOW], ...inWorkers },
        },
        {
          extends: true,
          // `npm run test:slow` sets FUZZ_RUNS=200 (and FUZZ_RUNS=5000 runs longer still).
          plugins: [workersPool(process.env.FUZZ_RUNS ?? "20")],
          test: { name: "slow", include: SLOW, ...inWorkers },
        },
      ],
    },
  };
});
