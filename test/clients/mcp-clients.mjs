// The MCP endpoint through the clients users connect with, in Node, against the real Worker under
// `wrangler dev`: the 1.x TypeScript SDK that most hosts embed, the 2.x client, and the Inspector CLI.
// The workerd suite (test/mcp) cannot do this: no Ajv there (no eval), no child processes.
// Run: npm run test:clients (node:test; one line per case, exit 1 on any failure).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from "@modelcontextprotocol/client";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Transport1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { accountWithKey } from "../support/accounts.mjs";
import { root, runNode, startWranglerDev } from "../support/wrangler-dev.mjs";

const TIMEOUT = 30_000;
const packageJson = (name) => JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8"));

/**
 * One row per tool call; every row runs through every client generation, after `listTools()`.
 * `args`: the arguments, or `async (call) => args` to set up first (`call(tool, args)` returns a
 * successful call's structuredContent). `account: "free"` calls with a key without Max.
 * Expect either `error` (the code the text starts with; `field`: named after `Fields:`) or
 * `check(structuredContent, text)`. A successful call that resolves has passed the client's outputSchema
 * check; `text` is what a host that reads only text gives the model (issue 34: results come once), so
 * checks hold it to the ids and facts a model needs next. `needs`: an argument the tool must publish,
 * else the row is skipped (issue 34's fields, on a build that has them).
 */
const cases = [
  { tool: "complete_task", label: "an unknown id", args: { id: "does-not-exist" }, error: "task_not_found" },
  {
    tool: "create_task",
    label: "a 600-character title",
    args: { title: "x".repeat(600) },
    error: "validation_failed",
    field: "title",
  },
  { tool: "create_task", label: "a number as title", args: { title: 42 }, error: "validation_failed", field: "title" },
  { tool: "list_tasks", label: "a key without Max", account: "free", args: {}, error: "max_required" },
  {
    tool: "create_task",
    label: "an all-day important task",
    args: { title: "Renew passport", due: "2026-12-24", important: true },
    check: ({ task }, text) => {
      assert.ok(task.id, "task.id");
      assert.deepEqual(
        [task.title, task.due, task.important, task.completed],
        // Open is the default, which results leave out (docs/mcp.md).
        ["Renew passport", "2026-12-24", true, undefined],
      );
      assert.equal(task.updatedAt, undefined, "no sync-only fields in MCP results");
      assert.match(
        text,
        new RegExp(`^Created:\n- ${task.id} "Renew passport", due 2026-12-24, (important|priority [34])$`),
      );
    },
  },
  {
    tool: "create_task",
    label: "a plan with 5 subtasks, labels and a priority",
    needs: "subtasks",
    args: {
      title: "Launch",
      due: "2026-12-10",
      priority: 4,
      labels: ["work"],
      subtasks: ["Draft", "Review", "Translate", "Publish", "Announce"].map((title, i) => ({
        title,
        priority: 1 + (i % 4),
      })),
    },
    check: ({ task }, text) => {
      assert.deepEqual(
        // A subtask sits under its parent: it repeats neither the parent's id nor its list; priority 1 is left out.
        [task.title, task.priority, task.labels, task.subtasks.map((t) => [t.title, t.parentId, t.priority])],
        [
          "Launch",
          4,
          ["work"],
          ["Draft", "Review", "Translate", "Publish", "Announce"].map((t, i) => [
            t,
            undefined,
            i % 4 ? 1 + (i % 4) : undefined,
          ]),
        ],
      );
      for (const t of [task, ...task.subtasks]) assert.match(text, new RegExp(`${t.id} "${t.title}"`));
      assert.match(text, /priority 4, labels "work"/);
    },
  },
  {
    tool: "list_tasks",
    label: "with the user's lists, to add to one by name",
    args: async (call) => {
      // Each client's run has a list of its own (the account may be shared).
      const listId = `groceries-${crypto.randomUUID()}`;
      await call("create_task", { title: "Milk", listId });
      return { listId, lists: true };
    },
    check: ({ tasks, lists }, text) => {
      const listId = tasks[0]?.listId;
      assert.match(text, new RegExp(`^- ${tasks[0].id} "Milk", list "${listId}"$`, "m"));
      assert.match(text, new RegExp(`Lists \\(id name\\): .*${listId} "${listId}"`));
      assert.deepEqual(
        tasks.map((t) => t.title),
        ["Milk"],
      );
      assert.ok(
        lists.some((l) => l.id === listId && l.name === listId),
        JSON.stringify(lists),
      );
    },
  },
  {
    tool: "list_tasks",
    label: "open tasks",
    args: async (call) => {
      await call("create_task", { title: "Listed task" });
      return { completed: false };
    },
    check: ({ tasks, count, serverTime }) => {
      assert.ok(
        tasks.some((task) => task.title === "Listed task"),
        "the created task is listed",
      );
      assert.equal(count, tasks.length);
      assert.ok(Number.isFinite(Date.parse(serverTime)), `serverTime: ${serverTime}`);
    },
  },
  {
    tool: "complete_task",
    label: "a daily task",
    args: async (call) => ({
      id: (await call("create_task", { title: "Water plants", due: "2026-12-01", repeat: "FREQ=DAILY" })).task.id,
    }),
    check: ({ task, next }, text) => {
      assert.equal(task.completed, true);
      assert.ok(next, "next is present");
      // The next occurrence is open: `completed` is left out at its default (docs/mcp.md).
      assert.deepEqual([next.completed, next.due, next.repeat], [undefined, "2026-12-02", "FREQ=DAILY"]);
      assert.match(text, new RegExp(`^Completed: ${task.id} "Water plants"`));
      assert.match(
        text,
        new RegExp(`\nNext occurrence: ${next.id} "Water plants", due 2026-12-02, repeats FREQ=DAILY$`),
      );
    },
  },
  {
    tool: "complete_task",
    label: "a retried completion",
    args: async (call) => {
      const { task } = await call("create_task", { title: "Retry me", due: "2026-12-01", repeat: "FREQ=WEEKLY" });
      await call("complete_task", { id: task.id });
      return { id: task.id };
    },
    check: ({ task, next }) => assert.deepEqual([task.completed, next?.due], [true, "2026-12-08"]),
  },
  {
    tool: "create_task",
    label: "a replay of a clientRequestId",
    args: async (call) => {
      const args = { title: "Once", clientRequestId: `once-${Math.random()}` };
      await call("create_task", args);
      return args;
    },
    check: ({ task, replayed }) => assert.deepEqual([task.title, replayed], ["Once", true]),
  },
  {
    tool: "update_task",
    label: "rename and clear the due date",
    args: async (call) => ({
      id: (await call("create_task", { title: "Draft", due: "2026-12-24" })).task.id,
      title: "Final",
      due: "",
    }),
    check: ({ task }, text) => {
      assert.deepEqual([task.title, task.due], ["Final", undefined]);
      assert.equal(text, `Updated (title, due cleared): ${task.id} "Final"`);
    },
  },
  { tool: "update_task", label: "an unknown property", args: { id: "x", owner: "me" }, error: "validation_failed" },
  {
    tool: "delete_task",
    label: "a task",
    args: async (call) => ({ id: (await call("create_task", { title: "Delete me" })).task.id }),
    check: ({ id, deleted }, text) => assert.deepEqual([deleted, text], [true, `Deleted ${id}.`]),
  },
  { tool: "delete_task", label: "an unknown id", args: { id: "does-not-exist" }, error: "task_not_found" },
  {
    tool: "list_calendar_packs",
    label: "query bayern",
    args: { query: "bayern" },
    check: ({ packs }, text) => {
      assert.ok(
        packs.some((pack) => pack.id === "de-by"),
        `packs: ${packs.map((p) => p.id)}`,
      );
      assert.match(text, /^- de-by .*\/api\/v1\/calendars\/de-by\.ics$/m);
    },
  },
  {
    tool: "list_calendar_packs",
    label: "no filter: one capped page",
    args: {},
    check: ({ packs, total, nextCursor }) =>
      assert.deepEqual([packs.length, total > 500, nextCursor], [20, true, "20"]),
  },
  {
    tool: "list_holidays",
    label: "2026-10-03 in Bavaria",
    args: { country: "DE", region: "Bavaria", from: "2026-10-03", to: "2026-10-03" },
    check: ({ pack, events }, text) => {
      assert.deepEqual([pack.id, events.map((e) => [e.type, e.dayOff])], ["de-by", [["public", true]]]);
      assert.match(text, /\n- 2026-10-03 .*, public, day off\n/);
    },
  },
  {
    tool: "list_holidays",
    label: "a misspelt region",
    args: { country: "DE", region: "Bavarria" },
    error: "validation_failed",
    field: "region",
  },
  {
    tool: "list_holidays",
    label: "a free key, an unknown pack",
    account: "free",
    args: { pack: "zz" },
    error: "pack_not_found",
  },
];

/** The two client generations; the same calls, each with its own default JSON Schema validator. */
const generations = [
  { pkg: "@modelcontextprotocol/sdk", Client: Client1, Transport: Transport1 },
  { pkg: "@modelcontextprotocol/client", Client: Client2, Transport: Transport2 },
];

/** Connects as a host does: headers through `requestInit`, then `tools/list`, after which the client validates results. */
async function connect({ Client, Transport }, url, key) {
  const client = new Client({ name: "mcp-clients-test", version: "1.0.0" });
  await client.connect(new Transport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  const { tools } = await client.listTools();
  return { client, tools };
}

const textOf = (result) =>
  (result.content ?? [])
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("\n");

/** The call must resolve (not throw) with `isError` and text that names the code and the field. */
function assertToolError(result, row, outputSchema) {
  const text = textOf(result);
  assert.equal(result.isError, true, `expected a tool error, got: ${JSON.stringify(result)}`);
  assert.ok(text.startsWith(`${row.error}:`), `the text should start with "${row.error}:", got: ${text}`);
  if (row.field) assert.match(text, new RegExp(`Fields: .*\\b${row.field}\\b`), "the text should name the field");
  // 2.x clients skip this check on errors, 1.x clients do not: structuredContent must fit the published schema.
  if (result.structuredContent !== undefined) {
    const { valid, errorMessage } = new AjvJsonSchemaValidator().getValidator(outputSchema)(result.structuredContent);
    assert.ok(valid, `the error's structuredContent does not match ${row.tool}'s outputSchema: ${errorMessage}`);
  }
}

let server;
let accounts;

before(
  async () => {
    server = await startWranglerDev({ vars: { RATE_LIMITS: "off" } }); // many calls from one key and IP
    const [max, free] = await Promise.all([
      accountWithKey(server, { prefix: "clients" }),
      accountWithKey(server, { max: false, prefix: "clients-free" }),
    ]);
    accounts = { max, free };
  },
  { timeout: 180_000 },
);

after(() => server?.stop());

for (const generation of generations) {
  describe(`${generation.pkg} ${packageJson(generation.pkg).version}`, () => {
    const sessions = {};
    before(
      async () => {
        for (const [name, { key }] of Object.entries(accounts))
          sessions[name] = await connect(generation, `${server.base}/mcp`, key);
      },
      { timeout: TIMEOUT },
    );
    after(() => Promise.all(Object.values(sessions).map(({ client }) => client.close())));

    for (const row of cases) {
      test(`${row.tool}: ${row.label} → ${row.error ?? "valid result"}`, { timeout: TIMEOUT }, async (t) => {
        const { client, tools } = sessions[row.account ?? "max"];
        const published = tools.find((tool) => tool.name === row.tool)?.inputSchema.properties ?? {};
        if (row.needs && !(row.needs in published))
          return t.skip(`${row.tool} does not take \`${row.needs}\` in this build`);
        const call = async (name, args) => {
          const result = await client.callTool({ name, arguments: args });
          assert.ok(!result.isError, `${name} failed: ${textOf(result)}`);
          return result.structuredContent;
        };
        const args = typeof row.args === "function" ? await row.args(call) : row.args;
        const result = await client.callTool({ name: row.tool, arguments: args }).catch((error) => {
          assert.fail(`the client threw instead of returning a result: ${error.message}`);
        });
        if (row.error) return assertToolError(result, row, tools.find((t) => t.name === row.tool)?.outputSchema);
        assert.ok(!result.isError, `unexpected tool error: ${textOf(result)}`);
        row.check(result.structuredContent, textOf(result));
      });
    }

    // Issue 37: the tasks MCP App, listed and read as hosts do, with list_tasks linking to it.
    test("resources/list and resources/read: the tasks MCP App", { timeout: TIMEOUT }, async () => {
      const { client, tools } = sessions.max;
      const uri = tools.find((tool) => tool.name === "list_tasks")?._meta?.ui?.resourceUri;
      assert.equal(uri, "ui://tasks/app.html");
      assert.notEqual(client.getServerCapabilities().tools?.listChanged, true, "no list_changed is ever sent");
      const { resources } = await client.listResources();
      assert.deepEqual(
        resources.map((r) => [r.uri, r.mimeType]),
        [[uri, "text/html;profile=mcp-app"]],
      );
      const { contents } = await client.readResource({ uri });
      assert.equal(contents[0].mimeType, "text/html;profile=mcp-app");
      assert.match(contents[0].text, /^<!doctype html>[\s\S]*default-src 'none'[\s\S]*<script type="module">/);
      assert.match(contents[0].text, /<meta name="tasks-access" content="write">/);
    });
  });
}

// The Inspector CLI: exit code 5 is its "tool returned isError" (0 on success, 1 on any other failure).
const inspectorCases = [
  {
    label: "tools/call complete_task id=does-not-exist prints task_not_found",
    args: ["--method", "tools/call", "--tool-name", "complete_task", "--tool-arg", "id=does-not-exist"],
    check: ({ code, output }) => {
      assert.doesNotMatch(
        output,
        /must have required property|does not match/,
        "a schema failure instead of the tool error",
      );
      assert.match(output, /task_not_found/);
      assert.equal(code, 5, "exit code 5: the tool returned isError");
    },
  },
  {
    label: "tools/call create_task with a 600-character title prints validation_failed naming title",
    args: ["--method", "tools/call", "--tool-name", "create_task", "--tool-arg", `title=${"x".repeat(600)}`],
    check: ({ code, output }) => {
      assert.match(output, /validation_failed.*Fields: title/s);
      assert.equal(code, 5, output);
    },
  },
  {
    label: "tools/call list_tasks with a key without Max prints max_required",
    account: "free",
    args: ["--method", "tools/call", "--tool-name", "list_tasks"],
    check: ({ code, output }) => {
      assert.match(output, /max_required/);
      assert.equal(code, 5, output);
    },
  },
  {
    // Before issue 18 it could only say "Interactive OAuth requires a TTY"; now the server's 401 reaches the user.
    label: "a bad key with --stored-auth-only prints the server's 401 message",
    key: "todo_live_not-a-real-key",
    args: ["--stored-auth-only", "--method", "tools/list"],
    check: ({ code, output }) => {
      assert.match(output, /A valid API key is required/);
      assert.notEqual(code, 0, output);
    },
  },
  {
    // Issue 26: `reminder: ["string", "null"]` was a type-union warning; --strict prints every finding.
    label: "tools/list --strict reports no schema portability findings",
    args: ["--method", "tools/list", "--strict"],
    check: ({ code, stderr, output }) => {
      assert.equal(code, 0, output);
      assert.doesNotMatch(stderr, /Warning|Error|portability/i, stderr);
    },
  },
  {
    label: "tools/list succeeds",
    args: ["--method", "tools/list"],
    check: ({ code, stdout, output }) => {
      assert.equal(code, 0, output);
      const names = JSON.parse(stdout).tools.map((tool) => tool.name);
      const expected = [
        "list_tasks",
        "create_task",
        "update_task",
        "complete_task",
        "delete_task",
        "list_calendar_packs",
        "list_holidays",
      ];
      assert.deepEqual(names, expected);
    },
  },
];

/**
 * The authorize page as a browser uses it: the sign-in form, then Allow with the consent cookie.
 * Resolves with the code the client's redirect URI receives.
 */
async function consentOverHttp(url, { email, password }) {
  const origin = new URL(url).origin;
  const form = (fields) => ({
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
    body: new URLSearchParams(fields),
  });
  const signedIn = await fetch(url, form({ step: "sign-in", email, password }));
  const html = await signedIn.text();
  assert.equal(signedIn.status, 200, html);
  const hidden = (name) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
  const cookie = signedIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const allowed = await fetch(url, {
    ...form({ step: "consent", handle: hidden("handle"), ticket: hidden("ticket"), decision: "allow" }),
    headers: { ...form({}).headers, Cookie: cookie },
  });
  assert.equal(allowed.status, 302, await allowed.text());
  return new URL(allowed.headers.get("location")).searchParams.get("code");
}

/** An OAuthClientProvider kept in memory, as a host keeps one per server. */
function memoryAuthProvider(redirectUrl) {
  const saved = {};
  return {
    saved,
    redirectUrl,
    clientMetadata: {
      client_name: "Node SDK 1.x Agent",
      redirect_uris: [redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    },
    clientInformation: () => saved.client,
    saveClientInformation: (client) => (saved.client = client),
    tokens: () => saved.tokens,
    saveTokens: (tokens) => (saved.tokens = tokens),
    redirectToAuthorization: (url) => (saved.authorizationUrl = url),
    saveCodeVerifier: (verifier) => (saved.verifier = verifier),
    codeVerifier: () => saved.verifier,
  };
}

describe(`OAuth with ${packageJson("@modelcontextprotocol/sdk").version}'s authProvider (no key at all)`, () => {
  test("401 → discovery → registration → sign-in and consent → token → tools/call", { timeout: TIMEOUT }, async () => {
    const url = new URL(`${server.base}/mcp`);
    const provider = memoryAuthProvider("http://localhost:9/callback");
    await assert.rejects(
      new Client1({ name: "oauth", version: "1.0.0" }).connect(new Transport1(url, { authProvider: provider })),
      UnauthorizedError,
    );
    assert.ok(provider.saved.client?.client_id, "the client registered itself");
    const code = await consentOverHttp(provider.saved.authorizationUrl.href, accounts.max);
    const transport = new Transport1(url, { authProvider: provider });
    await transport.finishAuth(code);
    const client = new Client1({ name: "oauth", version: "1.0.0" });
    await client.connect(transport);
    assert.equal((await client.listTools()).tools.length, 7);
    const created = await client.callTool({ name: "create_task", arguments: { title: "Over OAuth from Node" } });
    assert.ok(!created.isError, textOf(created));
    await client.close();
  });
});

describe(`@modelcontextprotocol/inspector ${packageJson("@modelcontextprotocol/inspector").version} CLI`, () => {
  const inspector = join(
    root,
    "node_modules/@modelcontextprotocol/inspector",
    packageJson("@modelcontextprotocol/inspector").bin["mcp-inspector"],
  );
  let home;
  // Its own HOME: the Inspector keeps a catalog and storage under ~/.mcp-inspector.
  before(async () => (home = await mkdtemp(join(tmpdir(), "todo-inspector-"))));
  after(() => rm(home, { recursive: true, force: true }));

  for (const row of inspectorCases) {
    test(row.label, { timeout: TIMEOUT }, async () => {
      const auth = `Authorization: Bearer ${row.key ?? accounts[row.account ?? "max"].key}`;
      const run = await runNode(
        [inspector, "--cli", `${server.base}/mcp`, "--transport", "http", "--header", auth, ...row.args],
        { env: { HOME: home } },
      );
      row.check({ ...run, output: run.stdout + run.stderr });
    });
  }
});
