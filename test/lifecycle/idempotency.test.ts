import { describe, expect, it } from "vitest";
import { runVerb } from "../../src/control/caller";
import { accountSql, call, json } from "../helpers";
import { listAll, patch, zonedUser } from "./support";

const post = (key: string, body: unknown, idempotencyKey?: string) =>
  call("/api/v1/tasks", {
    token: key,
    body,
    headers: idempotencyKey === undefined ? {} : { "Idempotency-Key": idempotencyKey },
  });

describe("Idempotency-Key on POST /api/v1/tasks", () => {
  it("replays the original 201 for the same key and body, and creates nothing", async () => {
    const user = await zonedUser();
    const first = await post(user.key, { title: "Once", due: "2026-06-01" }, "retry-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const created = await json(first);
    // The task changes afterwards; the replay still answers with the original body.
    await patch(user.key, created.id, { title: "Renamed" });
    const again = await post(user.key, { due: "2026-06-01", title: "Once" }, "retry-1");
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(again.headers.get("ETag")).toBe(first.headers.get("ETag"));
    expect(await json(again)).toEqual(created);
    expect((await listAll(user.key)).data).toHaveLength(1);
  });

  it("refuses the same key with a different body: 422 idempotency_key_reused", async () => {
    const user = await zonedUser();
    expect((await post(user.key, { title: "A" }, "k")).status).toBe(201);
    const res = await post(user.key, { title: "B" }, "k");
    expect(res.status).toBe(422);
    expect((await json(res)).code).toBe("idempotency_key_reused");
    expect((await listAll(user.key)).data).toHaveLength(1);
  });

  it("10 parallel POSTs with one key create exactly one task", async () => {
    const user = await zonedUser();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => post(user.key, { title: "Parallel" }, "burst")),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(201));
    const bodies = await Promise.all(responses.map((r) => json(r)));
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
    expect(responses.filter((r) => r.headers.get("Idempotent-Replayed") === "true")).toHaveLength(9);
    expect((await listAll(user.key)).data).toHaveLength(1);
  });

  it("scopes keys per account", async () => {
    const [alice, bob] = await Promise.all([zonedUser(), zonedUser()]);
    const a = await json(await post(alice.key, { title: "Shared key" }, "same"));
    const bRes = await post(bob.key, { title: "Shared key" }, "same");
    expect(bRes.headers.get("Idempotent-Replayed")).toBeNull();
    expect((await json(bRes)).id).not.toBe(a.id);
  });

  it("forgets a key after 24 hours", async () => {
    const user = await zonedUser();
    const first = await json(await post(user.key, { title: "Day one" }, "daily"));
    await accountSql(
      user.accountId,
      "UPDATE idempotency_keys SET expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 second')",
    );
    const res = await post(user.key, { title: "Day two" }, "daily");
    expect(res.status).toBe(201);
    expect(res.headers.get("Idempotent-Replayed")).toBeNull();
    expect((await json(res)).id).not.toBe(first.id);
  });

  it("validates the header: 1 to 255 printable characters", async () => {
    const user = await zonedUser();
    for (const bad of ["x".repeat(256), "tab\there"]) {
      const res = await post(user.key, { title: "x" }, bad);
      expect(res.status).toBe(400);
      const problem = await json(res);
      expect(problem.code).toBe("validation_failed");
      expect(problem.detail).toMatch(/idempotency-key/i);
    }
    expect((await post(user.key, { title: "x" }, "x".repeat(255))).status).toBe(201);
    expect((await listAll(user.key)).data).toHaveLength(1);
  });

  it("an MCP-style clientRequestId passed to createTask replays the same way", async () => {
    const user = await zonedUser();
    const a = (
      await runVerb(user.caller, "createTask", { input: { title: "From an agent" }, idempotencyKey: "req-42" })
    ).task;
    const b = (
      await runVerb(user.caller, "createTask", { input: { title: "From an agent" }, idempotencyKey: "req-42" })
    ).task;
    expect(b).toEqual(a);
    await expect(
      runVerb(user.caller, "createTask", { input: { title: "Other" }, idempotencyKey: "req-42" }),
    ).rejects.toMatchObject({
      code: "idempotency_key_reused",
    });
  });
});
