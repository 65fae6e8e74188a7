import { describe, expect, it } from "vitest";
import { call, json, maxUser } from "../helpers";
import { rpc, rpcResult } from "../mcp/client";

/**
 * Lone surrogates (valid in a JSON string, not in UTF-8) are replaced by U+FFFD before a text
 * is counted, as a UTF-8 round trip would replace them anyway: what is stored is what was
 * counted, and every value the API returns can be sent back.
 */
const LONE = "\ud800";
const REPLACED = "\ufffd";

describe("lone surrogates in task text", () => {
  it("REST: 500 lone surrogates are a 500-character title that comes back as 500 U+FFFD and can be sent back", async () => {
    const user = await maxUser("surrogates");
    const created = await call("/api/v1/tasks", {
      token: user.key,
      body: { title: LONE.repeat(500), notes: `a${"\udfff".repeat(19_999)}` },
    });
    expect(created.status).toBe(201);
    const task = await json(created);
    expect(task.title).toBe(REPLACED.repeat(500));
    expect(task.notes).toBe(`a${REPLACED.repeat(19_999)}`);

    const read = await json(await call(`/api/v1/tasks/${task.id}`, { token: user.key }));
    expect(read.title).toBe(task.title);
    expect(read.notes).toBe(task.notes);
    const listed = (await json(await call("/api/v1/tasks", { token: user.key }))).data;
    expect(listed[0].title).toBe(task.title);

    // What came back is valid input as it is.
    const sentBack = await call(`/api/v1/tasks/${task.id}`, {
      method: "PATCH",
      token: user.key,
      body: { title: read.title, notes: read.notes },
    });
    expect(sentBack.status).toBe(200);
    expect((await json(sentBack)).title).toBe(REPLACED.repeat(500));
  });

  it("REST: a surrogate pair is one code point and is kept; 501 lone surrogates are too long", async () => {
    const user = await maxUser("surrogates");
    const pair = await json(await call("/api/v1/tasks", { token: user.key, body: { title: "😀".repeat(500) } }));
    expect(pair.title).toBe("😀".repeat(500));
    const tooLong = await call("/api/v1/tasks", { token: user.key, body: { title: LONE.repeat(501) } });
    expect(tooLong.status).toBe(400);
    expect((await json(tooLong)).errors).toEqual([expect.objectContaining({ path: "title" })]);
  });

  it("idempotent replay: the same request, and the same text with U+FFFD already in place, replay the first task", async () => {
    const user = await maxUser("surrogates");
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const first = await call("/api/v1/tasks", { token: user.key, headers, body: { title: `x${LONE}y` } });
    expect(first.status).toBe(201);
    const firstTask = await json(first);
    expect(firstTask.title).toBe(`x${REPLACED}y`);
    for (const title of [`x${LONE}y`, `x${REPLACED}y`]) {
      const again = await call("/api/v1/tasks", { token: user.key, headers, body: { title } });
      expect(again.status).toBe(201);
      expect(await json(again)).toEqual(firstTask);
    }
  });

  it("MCP create_task stores and returns the same text as REST", async () => {
    const user = await maxUser("surrogates");
    // A low surrogate first, then high ones with no low one after them: 500 lone surrogates.
    const title = `\udc00${LONE.repeat(499)}`;
    const body = await rpcResult(
      await rpc(
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "create_task", arguments: { title } } },
        { token: user.key },
      ),
    );
    const task = body.result.structuredContent.task;
    expect(task.title).toBe(REPLACED.repeat(500));
    const read = await json(await call(`/api/v1/tasks/${task.id}`, { token: user.key }));
    expect(read.title).toBe(REPLACED.repeat(500));
  });
});

describe("lone surrogates in an API key's name", () => {
  it("are stored as U+FFFD, so the listed name is what was counted", async () => {
    const user = await maxUser("surrogates");
    const created = await call("/account/api-keys", { token: user.session, body: { name: `k${LONE.repeat(99)}` } });
    expect(created.status).toBe(201);
    expect((await json(created)).name).toBe(`k${REPLACED.repeat(99)}`);
    const listed = (await json(await call("/account/api-keys", { token: user.session }))).data;
    expect(listed.map((k: { name: string }) => k.name)).toContain(`k${REPLACED.repeat(99)}`);
  });
});
