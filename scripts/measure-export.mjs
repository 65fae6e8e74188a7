// Measures GET /account/export of an account with 10,000 tasks against a `wrangler dev` of its own
// (rate limits off, temporary D1 state): bytes, time to first byte and the whole download, three times.
// Numbers go to docs/scaling.md. Usage: node scripts/measure-export.mjs [tasks]
import { accountWithKey } from "../test/support/accounts.mjs";
import { startWranglerDev } from "../test/support/wrangler-dev.mjs";

const TASKS = Number(process.argv[2] ?? 10_000);
const CONCURRENCY = 16;

const server = await startWranglerDev({ vars: { RATE_LIMITS: "off" } });
try {
  const user = await accountWithKey(server, { prefix: "export-measure" });
  let next = 0;
  const create = async () => {
    while (next < TASKS) {
      const n = next++;
      const body = {
        title: `Task ${n}: renew the passport and book the dentist`,
        due: `2027-${String((n % 12) + 1).padStart(2, "0")}-15`,
      };
      if (n % 3 === 0) body.notes = "Bring the old passport, two photos and the form printed on both sides.";
      const res = await fetch(`${server.base}/api/v1/tasks`, {
        method: "POST",
        headers: { Authorization: `Bearer ${user.key}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
    }
  };
  const seeded = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, create));
  console.log(`seeded ${TASKS} tasks in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

  for (let run = 1; run <= 3; run++) {
    const started = performance.now();
    const res = await fetch(`${server.base}/account/export`, { headers: { Authorization: `Bearer ${user.session}` } });
    const firstByte = performance.now() - started;
    const text = await res.text();
    const all = performance.now() - started;
    const tasks = JSON.parse(text).tasks.length;
    console.log(
      `run ${run}: ${res.status}, ${Buffer.byteLength(text)} bytes, ${tasks} tasks, first byte ${firstByte.toFixed(0)} ms, all ${all.toFixed(0)} ms`,
    );
  }
} finally {
  await server.stop();
}
