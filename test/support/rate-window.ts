import { env } from "cloudflare:workers";
import { expect } from "vitest";

/** wrangler.toml's [[ratelimits]], binding name → quota and period (vitest.config.ts reads them). */
const CONFIGURED = (env as unknown as { TEST_RATE_LIMITS: Record<string, { limit: number; period: number }> })
  .TEST_RATE_LIMITS;

const windows = new Map<string, Partial<Env>>();

/**
 * The [[ratelimits]] bindings with wrangler.toml's quotas, counting in one window per test: the window
 * opens with the test's first request and does not roll over before it ends. The runtime's windows are
 * aligned to the clock, so a test that needs N requests in one window would otherwise wait for a fresh
 * one whenever fewer than N seconds were left. Counts as Miniflare's binding does: a request past the
 * quota is refused and not counted. test/hardening/rate-limits.test.ts keeps one test on the runtime's
 * binding, which proves the two agree.
 */
export function rateWindow(): Partial<Env> {
  const { testPath, currentTestName } = expect.getState();
  const test = `${testPath} > ${currentTestName}`;
  let bindings = windows.get(test);
  if (!bindings) {
    const counts = new Map<string, number>();
    const limiter = (name: string, quota: number): RateLimit => ({
      async limit({ key }) {
        const id = `${name}:${key}`;
        const count = counts.get(id) ?? 0;
        if (count >= quota) return { success: false };
        counts.set(id, count + 1);
        return { success: true };
      },
    });
    bindings = Object.fromEntries(
      Object.entries(CONFIGURED).map(([name, { limit }]) => [name, limiter(name, limit)]),
    ) as Partial<Env>;
    windows.set(test, bindings);
  }
  return bindings;
}
