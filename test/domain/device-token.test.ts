import { describe, expect, it } from "vitest";
import { DEVICE_TOKEN_DAYS, deviceNonce, isLiveDeviceToken, issueDeviceToken } from "../../src/control/accounts/device";

const account = { id: "0193c000-0000-7000-8000-000000000001", passwordHash: "pbkdf2-sha256$100000$00$11" };
const DAY = 86_400_000;

describe("device tokens", () => {
  it("are live for their lifetime and name their nonce only to the account that issued them", async () => {
    const token = await issueDeviceToken(account);
    expect(isLiveDeviceToken(token)).toBe(true);
    expect(await deviceNonce(account, token)).toMatch(/^[0-9A-Za-z]{22}$/);
    expect(await deviceNonce({ ...account, id: "0193c000-0000-7000-8000-000000000002" }, token)).toBeUndefined();
  });

  it("expire, and a new password voids them", async () => {
    const old = await issueDeviceToken(account, Date.now() - (DEVICE_TOKEN_DAYS + 1) * DAY);
    expect(isLiveDeviceToken(old)).toBe(false);
    const token = await issueDeviceToken(account);
    expect(await deviceNonce({ ...account, passwordHash: "pbkdf2-sha256$100000$00$22" }, token)).toBeUndefined();
  });

  it("refuse anything that is not one", async () => {
    for (const token of [
      "",
      "v1",
      "v2.1.a.b",
      `v1.1.${"A".repeat(22)}.${"0".repeat(63)}`,
      `v1.99999999999.${"A".repeat(21)}.${"0".repeat(64)}`,
    ]) {
      expect(isLiveDeviceToken(token), token).toBe(false);
      expect(await deviceNonce(account, token), token).toBeUndefined();
    }
  });
});
