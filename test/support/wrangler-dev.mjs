// Starts the real Worker under `wrangler dev` for the Node-side suites (test/browser, test/clients):
// a free port, its own inspector port, a temporary D1 state with the migrations applied, and a
// random ADMIN_TOKEN and CREDENTIAL_SECRET (it signs keys and feed URLs). Each suite gets its own instance, so suites can run side by side.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../..", import.meta.url));
// wrangler (and the Inspector CLI) need Node 22; the pinned binary is in node_modules/.bin when plain `node` is older.
export const nodeBin = existsSync(join(root, "node_modules/.bin/node"))
  ? join(root, "node_modules/.bin/node")
  : process.execPath;
export const childEnv = {
  ...process.env,
  CI: "true",
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};
const wranglerJs = join(root, "node_modules/wrangler/bin/wrangler.js");

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls until `check` returns a truthy value; throws `message` (with the last error) on timeout. A check
 * that calls the API with a key polls every `interval` ms: `wrangler dev` enforces the real per-key limit
 * (120 a minute), which 15 s of polling every 100 ms would exhaust, and then every answer is 429.
 */
export async function until(check, message, timeout = 10_000, interval = 100) {
  const deadline = Date.now() + timeout;
  let last;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await sleep(interval);
  }
  throw new Error(`${message}${last ? ` (last error: ${last.message})` : ""}`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs a Node script with the pinned Node; resolves with `{ code, stdout, stderr }` whatever the exit code. */
export function runNode(args, { env = {}, timeout = 60_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(nodeBin, args, {
      cwd: root,
      env: { ...childEnv, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      timeout,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve({ code: code ?? signal, stdout, stderr }));
  });
}

/**
 * Starts `wrangler dev` and waits until it answers. `vars` become `--var NAME:value` (e.g. RATE_LIMITS: "off").
 * Returns `{ base, adminToken, stop, mails }`; `stop()` ends wrangler and its workerd and deletes the D1 state.
 * `mails()` lists the mail sent through the simulated EMAIL binding (needs `logLevel: "info"` and a MAIL_FROM var).
 */
export async function startWranglerDev({ vars = {}, logLevel = "error" } = {}) {
  const stateDir = await mkdtemp(join(tmpdir(), "todo-dev-"));
  const adminToken = randomBytes(24).toString("hex");
  let wrangler;
  const stop = async () => {
    await stopGroup(wrangler);
    await rm(stateDir, { recursive: true, force: true });
  };
  try {
    // A loaded machine (CI, several suites at once) takes more than a minute for the 14 migrations.
    const migrate = await runNode(
      [wranglerJs, "d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir],
      {
        timeout: 240_000,
      },
    );
    if (migrate.code !== 0)
      throw new Error(`wrangler d1 migrations apply exited ${migrate.code}:\n${migrate.stdout}${migrate.stderr}`);
    const [port, inspectorPort] = [await freePort(), await freePort()];
    const base = `http://127.0.0.1:${port}`;
    const credentialSecret = randomBytes(32).toString("base64url");
    const varArgs = Object.entries({ ADMIN_TOKEN: adminToken, CREDENTIAL_SECRET: credentialSecret, ...vars }).flatMap(
      ([name, value]) => ["--var", `${name}:${value}`],
    );
    let log = "";
    // Detached: its own process group, so stop() reaches workerd too.
    wrangler = spawn(
      nodeBin,
      [
        wranglerJs,
        "dev",
        "--port",
        String(port),
        "--ip",
        "127.0.0.1",
        "--inspector-port",
        String(inspectorPort),
        "--persist-to",
        stateDir,
        ...varArgs,
        "--log-level",
        logLevel,
        "--show-interactive-dev-session=false",
      ],
      { cwd: root, env: childEnv, stdio: ["ignore", "pipe", "pipe"], detached: true },
    );
    wrangler.stdout.on("data", (d) => (log += d));
    wrangler.stderr.on("data", (d) => (log += d));
    // Should the suite die without calling stop(), do not leave a workerd behind.
    const orphanGuard = () => killGroup(wrangler, "SIGKILL");
    process.once("exit", orphanGuard);
    wrangler.once("exit", () => process.off("exit", orphanGuard));
    await until(
      async () => {
        if (exited(wrangler)) throw new Error(`wrangler dev exited:\n${log}`);
        return (await fetch(`${base}/api/v1/`)).ok;
      },
      `wrangler dev did not answer on ${base} within 120 s.\n${log}`,
      120_000,
    );
    // pgid: the process group (wrangler and its workerd), for a suite that reads their memory.
    return { base, adminToken, stop, pgid: wrangler.pid, mails: () => simulatedMails(log) };
  } catch (error) {
    await stop();
    throw error;
  }
}

const exited = (child) => child.exitCode !== null || child.signalCode !== null;

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal); // the process group we started: wrangler and its workerd
    return true;
  } catch {
    return false; // already gone
  }
}

async function stopGroup(child) {
  if (!child || exited(child)) return;
  const gone = new Promise((resolve) => child.once("exit", resolve));
  if (!killGroup(child, "SIGTERM")) return;
  const timedOut = await Promise.race([gone.then(() => false), sleep(5000).then(() => true)]);
  if (timedOut) killGroup(child, "SIGKILL");
}

/**
 * wrangler dev simulates the `send_email` binding: it logs each mail at info level, with the path of its text part
 * under .wrangler/tmp/email/. This reads them back, oldest first: `{ to, subject, text }`.
 */
async function simulatedMails(log) {
  const { readFile } = await import("node:fs/promises");
  const found = [
    ...log.matchAll(
      /send_email binding called[^\n]*\n(?:.*\n)*?To: (.+)\n(?:.*\n)*?Subject: (.+)\n(?:.*\n)*?Text: (\S+)/g,
    ),
  ];
  return Promise.all(
    found.map(async ([, to, subject, textPath]) => ({
      to: to.trim(),
      subject: subject.trim(),
      text: await readFile(textPath, "utf8"),
    })),
  );
}

/**
 * The pages' session cookie under wrangler dev (http://127.0.0.1: `todo_session`, src/transport/session-cookie.ts):
 * the token a browser context holds, or null.
 */
export async function pageSession(context) {
  return (await context.cookies()).find((c) => c.name === "todo_session")?.value ?? null;
}

/** Signs a browser context in with a session token, as POST /auth/login would: the cookie and the page's hint. */
export async function usePageSession(context, base, token) {
  await context.addCookies([
    { name: "todo_session", value: token, url: base, httpOnly: true, sameSite: "Lax" },
    { name: "todo_signed_in", value: "1", url: base, sameSite: "Lax" },
  ]);
}
