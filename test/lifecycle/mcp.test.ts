import { describe, expect, it } from "vitest";
import { callOk, mcpClient, toolErrorOf } from "../mcp/client";
import { listAll, nextIdFrom, patch, zonedUser } from "./support";

describe("lifecycle rules over MCP", () => {
  it("create_task with clientRequestId creates once and replays on retry", async () => {
    const user = await zonedUser();
    const client = await mcpClient(user.key);
    const args = { title: "Agent retry", clientRequestId: "agent-req-1" };
    const [a, b] = await Promise.all([callOk(client, "create_task", args), callOk(client, "create_task", args)]);
    expect(b.task).toEqual(a.task);
    expect(a.task).not.toHaveProperty("clientRequestId");
    expect((await listAll(user.key)).data).toHaveLength(1);
    const reused = await client.callTool({
      name: "create_task",
      arguments: { title: "Different", clientRequestId: "agent-req-1" },
    });
    expect(toolErrorOf(reused).code).toBe("idempotency_key_reused");
  });

  it("complete_task and PATCH spawn the same next occurrence for the same task state", async () => {
    const user = await zonedUser("Europe/Berlin");
    const client = await mcpClient(user.key);
    const fields = { title: "Standup", due: "2026-03-28T09:00:00+01:00", repeat: "FREQ=DAILY" };
    const viaMcp = await callOk(client, "complete_task", { id: (await callOk(client, "create_task", fields)).task.id });
    const restTask = (await callOk(client, "create_task", fields)).task;
    const restNextId = nextIdFrom(await patch(user.key, restTask.id, { completed: true }));
    const restNext = (await listAll(user.key)).data.find((t: { id: string }) => t.id === restNextId);
    expect(viaMcp.next.due).toBe("2026-03-29T09:00:00+02:00");
    expect(restNext.due).toBe(viaMcp.next.due);
  });
});
