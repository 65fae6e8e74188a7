import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig(async () => {
  // The same migration files that `wrangler d1 migrations apply` runs in production.
  const migrations = await readD1Migrations("./migrations");
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            ADMIN_TOKEN: "test-admin-token",
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
            // Generated inputs per endpoint and MCP tool in test/hardening/fuzz.test.ts: FUZZ_RUNS=5000 npm test.
            FUZZ_RUNS: process.env.FUZZ_RUNS ?? "200",
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
      }),
    ],
    test: {
      include: ["test/**/*.test.ts"],
      setupFiles: ["./test/apply-migrations.ts"],
      // Vitest's 5 s default made time a verdict: on a 2-core machine under parallel load (load average ~13)
      // a test that signs up and connects over OAuth (two PBKDF2 derivations, registration, consent, token
      // exchange: ~0.6 s idle), or that pays the MCP SDK's first import (1–4 s), can pass 5 s and fail though
      // nothing is wrong (test/oauth/key-path.test.ts). A timeout here only ends a hang; suites that are slow by
      // design still set their own.
      testTimeout: 120_000,
      hookTimeout: 120_000,
    },
  };
});
