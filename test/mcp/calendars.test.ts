import { describe, expect, it } from "vitest";
import { call, createKey, json, signUp } from "../helpers";
import { callOk, mcpClient, toolErrorOf } from "./client";

/** A key of an account without Max: calendar packs need no membership. */
async function freeClient() {
  const account = await signUp("free");
  return mcpClient((await createKey(account.session)).key);
}

describe("list_calendar_packs", () => {
  it("works without Max and lists the same packs as GET /api/v1/calendars", async () => {
    const client = await freeClient();
    const { packs } = await callOk(client, "list_calendar_packs");
    const rest = await json(await call("/api/v1/calendars"));
    expect(packs.length).toBeGreaterThan(0);
    expect(packs.map((p: { id: string }) => p.id)).toEqual(rest.data.map((p: { id: string }) => p.id));
    expect(packs[0]).toEqual(rest.data[0]);
  });

  it("narrows by country code in any case", async () => {
    const client = await freeClient();
    const { packs } = await callOk(client, "list_calendar_packs", { country: "de" });
    expect(packs.length).toBeGreaterThan(1);
    expect(packs.every((p: { country: string }) => p.country === "DE")).toBe(true);
    expect(packs.map((p: { id: string }) => p.id)).toContain("de-by");
  });

  it("narrows by a name query, case-insensitively", async () => {
    const client = await freeClient();
    const { packs } = await callOk(client, "list_calendar_packs", { query: "Bayern" });
    expect(packs.map((p: { id: string }) => p.id)).toEqual(["de-by"]);
  });

  it("returns an empty list when nothing matches", async () => {
    const client = await freeClient();
    expect(await callOk(client, "list_calendar_packs", { country: "ZZ" })).toEqual({ packs: [] });
  });

  it("refuses a country that is not a two-letter code with a tool error naming the field", async () => {
    const client = await freeClient();
    const result = await client.callTool({ name: "list_calendar_packs", arguments: { country: "Germany" } });
    expect(toolErrorOf(result).fields).toEqual(["country"]);
  });
});
