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
          dataBlobBindings: { SKILL_MD_BYTES: "SKILL.md", LLMS_TXT_BYTES: "llms.txt" },
        },
      }),
    ],
    test: {
      include: ["test/**/*.test.ts"],
      setupFiles: ["./test/apply-migrations.ts"],
    },
  };
});
