import { afterEach, describe, expect, it, vi } from "vitest";
import { call, json } from "../helpers";
import { deliver, event, sign, subscription } from "./support";

afterEach(() => vi.restoreAllMocks());

const valid = () => event("customer.subscription.updated", subscription());
const now = () => Math.floor(Date.now() / 1000);

/** Signed as Stripe signs, so only the event's shape can be wrong. */
function postSigned(payload: string, signature = sign(payload)) {
  return call("/billing/stripe/webhook", {
    method: "POST",
    body: payload,
    headers: { "Content-Type": "application/json; charset=utf-8", "Stripe-Signature": signature },
  });
}

// Issue 35: the probe's eight 500s all came from events like these. Stripe retries a 500 for three days.
describe("POST /billing/stripe/webhook: signed but malformed events", () => {
  const { data: _data, ...withoutData } = valid();
  it.each([
    ["without data", withoutData, "data"],
    ["with data but no object", { ...valid(), data: {} }, "data.object"],
    ["with data.object a string", { ...valid(), data: { object: "sub_1" } }, "data.object"],
    ["with data.object null", { ...valid(), data: { object: null } }, "data.object"],
    ['with created "yesterday"', { ...valid(), created: "yesterday" }, "created"],
    ["with created a fraction", { ...valid(), created: 1.5 }, "created"],
    ["with an id that is an object", { ...valid(), id: { evt: 1 } }, "id"],
    ["with an empty id", { ...valid(), id: "" }, "id"],
    ["with a type that is a number", { ...valid(), type: 7 }, "type"],
    ["that is an array", [valid()], "body"],
    ["that is null", null, "body"],
    ["created an hour from now", { ...valid(), created: now() + 3600 }, "created"],
  ])("refuses one %s: 400 problem naming the field, logged", async (_name, body, path) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const res = await postSigned(JSON.stringify(body));
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const problem = await json(res);
    expect([problem.code, problem.errors[0].path]).toEqual(["validation_failed", path]);
    expect(warn).toHaveBeenCalledWith("stripe event refused", expect.any(String), problem.detail);
  });

  it("refuses a signed body that is not JSON: 400, not a signature error", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const res = await postSigned("{not json");
    const problem = await json(res);
    expect([res.status, problem.errors[0].path, problem.detail]).toEqual([400, "body", "The event is not JSON."]);
  });

  it("refuses a signature timestamped beyond the 5-minute tolerance in the future, accepts one within it", async () => {
    const payload = JSON.stringify(event("customer.created", { id: "cus_future" }), null, 2);
    const ahead = await postSigned(payload, sign(payload, { timestamp: now() + 600 }));
    const problem = await json(ahead);
    expect([ahead.status, problem.errors[0].path]).toEqual([400, "Stripe-Signature"]);
    expect(problem.detail).toMatch(/future/);
    const close = await postSigned(payload, sign(payload, { timestamp: now() + 60 }));
    expect([close.status, await json(close)]).toEqual([200, { received: true, outcome: "ignored" }]);
  });

  it("still applies a well-formed event with fields it does not know", async () => {
    const res = await deliver({ ...event("customer.created", { id: "cus_x" }), extra: { nested: true } });
    expect([res.status, await json(res)]).toEqual([200, { received: true, outcome: "ignored" }]);
  });
});
