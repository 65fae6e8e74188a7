import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { callWith, faultyD1, unreachableAccounts } from "../hardening/support";
import { call } from "../helpers";
import { seededAccount } from "./seed";

/**
 * docs/security.md says the logs keep no personal data after an erasure. Our own log lines are the
 * only ones the code controls: run every account-control route, right and wrong, and while D1 or
 * the account's object fails, and find neither the email, the passwords, the tokens nor a task's text in any of them.
 */
describe("logs of the account-control routes", () => {
  it("hold no email, password, token or task text, failures included", async () => {
    const methods = ["log", "info", "warn", "error", "debug"] as const;
    const spies = methods.map((m) => vi.spyOn(console, m).mockImplementation(() => undefined));
    try {
      const user = await seededAccount("quiet-control");
      const newPassword = "a brand new passphrase";
      await call("/account/sessions", { token: user.session });
      await call("/account/export", { token: user.session }).then((r) => r.text());
      await call("/account/password", { token: user.session, body: { currentPassword: "wrong one", newPassword } });
      await call("/account/password", { token: user.session, body: { currentPassword: user.password, newPassword } });
      await call("/account", { method: "DELETE", token: user.session, body: { password: "wrong one" } });
      // Failures log something: the database failing while the password is in flight.
      const down = faultyD1(env.DB, { injected: 0, failWhen: () => true });
      for (const [path, options] of [
        ["/account/export", {}],
        ["/account/password", { body: { currentPassword: newPassword, newPassword: user.password } }],
        ["/account", { method: "DELETE", body: { password: newPassword } }],
      ] as const) {
        expect((await callWith({ DB: down }, path, { token: user.session, ...options })).status).toBe(503);
      }
      // The account's object out of reach: the export's lists and tasks, and erasure's first step.
      const unreachable = unreachableAccounts(env.ACCOUNTS, { message: "Network connection lost.", injected: 0 });
      for (const [path, options] of [
        ["/account/export", {}],
        ["/account", { method: "DELETE", body: { password: newPassword } }],
      ] as const) {
        expect((await callWith({ ACCOUNTS: unreachable }, path, { token: user.session, ...options })).status).toBe(503);
      }
      expect(
        (await call("/account", { method: "DELETE", token: user.session, body: { password: newPassword } })).status,
      ).toBe(204);

      const lines = spies.flatMap((spy) =>
        spy.mock.calls.map((args) =>
          args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(" "),
        ),
      );
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        for (const secret of [
          user.email,
          user.password,
          newPassword,
          user.session,
          user.key,
          "quiet-control open",
          "some notes",
        ]) {
          expect(line).not.toContain(secret);
        }
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
