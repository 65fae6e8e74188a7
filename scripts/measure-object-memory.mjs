// What an account's object costs workerd's memory, measured (issue 35 item 8; docs/scaling.md): `wrangler dev` with
// N accounts, each signed up, given Max and a key, and sent a few task requests, so its object is made, migrated and
// warm; then left idle long enough for workerd to evict idle objects. Prints workerd's resident memory (RSS, from
// /proc) at each stage. Linux only. Run: node scripts/measure-object-memory.mjs [accounts=50] [idleSeconds=90]
import { readFileSync, readdirSync } from "node:fs";
import { accountWithKey } from "../test/support/accounts.mjs";
import { sleep, startWranglerDev } from "../test/support/wrangler-dev.mjs";

const accounts = Number(process.argv[2] ?? 50);
const idleSeconds = Number(process.argv[3] ?? 90);

/** RSS in MiB of every workerd process in the group wrangler started. */
function workerdRss(pgid) {
  let kib = 0;
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const group = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      if (group !== pgid || !readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("workerd")) continue;
      kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // A process that ended meanwhile.
    }
  }
  return kib / 1024;
}

const server = await startWranglerDev({ vars: { RATE_LIMITS: "off" } });
try {
  const rows = [["started, no account", workerdRss(server.pgid)]];
  for (let i = 0; i < accounts; i++) {
    const { key } = await accountWithKey(server, { prefix: `mem-${i}` });
    const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    for (let t = 0; t < 3; t++)
      await fetch(`${server.base}/api/v1/tasks`, { method: "POST", headers, body: JSON.stringify({ title: `T${t}` }) });
    await fetch(`${server.base}/api/v1/tasks`, { headers });
  }
  rows.push([`${accounts} accounts, objects warm`, workerdRss(server.pgid)]);
  await sleep(idleSeconds * 1000);
  rows.push([`after ${idleSeconds} s idle`, workerdRss(server.pgid)]);
  for (const [stage, mib] of rows) console.log(`${stage.padEnd(32)} ${mib.toFixed(1)} MiB`);
  const warm = (rows[1][1] - rows[0][1]) / accounts;
  const idle = (rows[2][1] - rows[0][1]) / accounts;
  console.log(`per account: ${warm.toFixed(2)} MiB warm, ${idle.toFixed(2)} MiB after the idle wait`);
} finally {
  await server.stop();
}
