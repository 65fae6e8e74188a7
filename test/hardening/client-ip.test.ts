import { describe, expect, it } from "vitest";
import { forgedKey } from "../support/forged";
import { RATE_POLICIES } from "../../src/transport/rate-limit";
import { limited, uniqueIp } from "./support";

/**
 * Per-IP limits key on CF-Connecting-IP alone, the header Cloudflare's edge sets on every request
 * it proxies (workers.dev, custom domains, routes). Headers a client can choose and Cloudflare
 * passes on (X-Forwarded-For is appended to, True-Client-IP is set only on Enterprise zones) must
 * not move a request to another bucket. docs/security.md has the deployment paths.
 */
const SPOOFABLE = [
  "X-Forwarded-For",
  "X-Real-IP",
  "True-Client-IP",
  "Forwarded",
  "CF-Connecting-IPv6",
  "Fly-Client-IP",
];

async function failedAttempts(n: number, headers: (i: number) => Record<string, string>, ip?: string) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await limited("/api/v1/tasks", { token: forgedKey(), ip, headers: headers(i) });
    statuses.push(res.status);
    await res.body?.cancel();
  }
  return statuses;
}

describe("the client IP behind the per-IP limits", { timeout: 60_000 }, () => {
  it("ignores every other address header a client can set", async () => {
    const { quota } = RATE_POLICIES.perIp;
    const ip = uniqueIp();
    const statuses = await failedAttempts(
      quota + SPOOFABLE.length,
      (i) => {
        const name = SPOOFABLE[i % SPOOFABLE.length]!;
        return { [name]: name === "Forwarded" ? `for="[${uniqueIp()}]"` : uniqueIp() };
      },
      ip,
    );
    expect(statuses).toEqual([...Array(quota).fill(401), ...Array(SPOOFABLE.length).fill(429)]);
  });
});
