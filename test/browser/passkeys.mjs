// Passkeys on the account page, in a real browser (Debian chromium, playwright-core) against `wrangler dev`, with
// the DevTools protocol's virtual authenticators (WebAuthn.addVirtualAuthenticator: CTAP2, internal, resident keys,
// user verification) standing in for a laptop's and a phone's. Register a passkey on each, sign out, sign in with
// one (the button; the email field offers passkeys in its autofill), confirm a password change with it, rename
// and remove them, and see a removed passkey refused. axe on every state.
// The page is opened at http://localhost:<port>: a passkey's RP ID must be a domain, never an IP address.
// Run: node test/browser/passkeys.mjs. Screenshots: artifacts/browser/passkeys-*.png (SHOTS_DIR to change; not committed).
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { axeViolations } from "../support/axe.mjs";
import { runSteps } from "../support/steps.mjs";
import { chromium } from "playwright-core";
import { newCredentials } from "../support/accounts.mjs";
import { root, startWranglerDev, until } from "../support/wrangler-dev.mjs";

const shots = process.env.SHOTS_DIR ?? join(root, "artifacts", "browser");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const { email, password } = newCredentials("passkey");

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

let server;
let browser;

async function main() {
  await mkdir(shots, { recursive: true });
  server = await startWranglerDev();
  const base = server.base.replace("127.0.0.1", "localhost");
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const consoleErrors = [];
  page.on("pageerror", (error) => consoleErrors.push(error.message));
  page.on(
    "console",
    (m) => m.type() === "error" && !/status of (4\d\d)/.test(m.text()) && consoleErrors.push(m.text()),
  );
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const authenticator = async () =>
    (
      await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: {
          protocol: "ctap2",
          transport: "internal",
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      })
    ).authenticatorId;
  const credentialsOf = async (authenticatorId) =>
    (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials;

  const shot = (name) => page.screenshot({ path: join(shots, `passkeys-${name}.png`), fullPage: true });
  /** The Security section alone, where the passkeys are: a full page is too tall to look at. */
  const securityShot = (name) =>
    page.locator("#security").screenshot({ path: join(shots, `passkeys-${name}-security.png`) });
  const axe = async (label) => {
    const { found } = await axeViolations(page);
    assert(found.length === 0, `axe, ${label}: ${found.join("; ")}`);
  };
  const button = (name) => page.getByRole("button", { name, exact: true });
  const passkeyNames = () => page.locator("#passkey-list .key__name").allTextContents();
  const addPasskey = async (name) => {
    await page.getByRole("textbox", { name: "Name for a new passkey" }).fill(name);
    await button("Add a passkey").click();
    await until(async () => (await passkeyNames()).includes(name), `passkey "${name}" not listed`);
  };
  let laptop;
  let phone;

  const steps = [
    [
      "the sign-in form offers passkeys: a button, and autofill in the email field",
      "sign-in-form",
      async () => {
        await page.goto(`${base}/`);
        await button("Sign in with a passkey").waitFor();
        const autocomplete = await page.locator("#sign-in-email").getAttribute("autocomplete");
        assert(autocomplete === "username webauthn", `email autocomplete: ${autocomplete}`);
        await axe("sign-in with passkeys");
      },
    ],
    [
      "register two passkeys, each named, on two devices",
      "registered",
      async () => {
        await page.getByRole("textbox", { name: "Email" }).nth(1).fill(email);
        await page.locator("#sign-up-password").fill(password);
        await button("Create account").click();
        await page.locator("#signed-in").waitFor();
        assert((await passkeyNames()).length === 0, "no passkeys yet");
        laptop = await authenticator();
        await addPasskey("Laptop");
        assert((await credentialsOf(laptop)).length === 1, "the laptop holds a resident credential");
        // The second device: the laptop leaves (its credential would be excluded), the phone joins.
        await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: laptop });
        phone = await authenticator();
        await addPasskey("Phone");
        assert((await credentialsOf(phone)).length === 1, "the phone holds its own credential");
        assert((await passkeyNames()).join() === "Laptop,Phone", `listed: ${await passkeyNames()}`);
        assert((await page.locator("#passkeys-count").textContent()) === "2 passkeys", "the count says two passkeys");
        assert(await page.locator("#password-passkey").isVisible(), "password change offers a passkey");
        // With an authenticator present, chromium offers passkeys in autofill (conditional mediation).
        assert(
          await page.evaluate(() => PublicKeyCredential.isConditionalMediationAvailable()),
          "conditional mediation is available",
        );
        await axe("two passkeys");
        await securityShot("registered");
      },
    ],
    [
      "sign out: the email field's autofill offers the phone's passkey and signs in (conditional UI)",
      "signed-in-autofill",
      async () => {
        const signIns = [];
        const seen = (r) => r.url().endsWith("/auth/passkey") && signIns.push(r.status());
        page.on("response", seen);
        // No click: the virtual phone answers the page's conditional request as a person picking it would.
        const signedIn = page.waitForResponse((r) => r.url().endsWith("/auth/passkey"));
        await button("Sign out").click();
        await signedIn;
        await page.locator("#signed-in").waitFor();
        page.off("response", seen);
        assert(signIns.join() === "200", `one passkey sign-in through autofill: ${signIns}`);
        assert((await page.locator("#session-email").textContent()) === email, "signed in to the account");
        const phoneRow = page.locator("#passkey-list li").filter({ hasText: "Phone" });
        await until(async () => !(await phoneRow.textContent()).includes("Never"), "the phone's last use not shown");
        assert(
          (await page.locator("#passkey-list li").filter({ hasText: "Laptop" }).textContent()).includes("Never"),
          "the laptop was not used",
        );
      },
    ],
    [
      'without autofill, sign out, then "Sign in with a passkey" (no password)',
      "signed-in-button",
      async () => {
        // A browser without conditional UI, from the next load on: the page arms no autofill, the button does it all.
        await page.addInitScript(() => {
          PublicKeyCredential.isConditionalMediationAvailable = async () => false;
        });
        await page.reload();
        await page.locator("#signed-in").waitFor();
        await button("Sign out").click();
        await page.locator("#signed-out").waitFor();
        await shot("sign-in");
        await button("Sign in with a passkey").click();
        await page.locator("#signed-in").waitFor();
        assert((await page.locator("#session-email").textContent()) === email, "signed in to the account");
      },
    ],
    [
      "a passkey confirms a password change instead of the current password",
      "password-changed",
      async () => {
        await page.locator("#new-password").fill("a new password by passkey");
        await button("Confirm with a passkey instead").click();
        await until(
          async () => /Password changed/.test(await page.locator("#password-status").textContent()),
          "the password was not changed",
        );
        await axe("password changed by passkey");
        await securityShot("password-changed");
      },
    ],
    [
      "rename a passkey",
      "renamed",
      async () => {
        await button("Rename passkey Phone").click();
        const dialog = page.getByRole("dialog", { name: "Rename this passkey" });
        await dialog.waitFor();
        await axe("rename dialog");
        await shot("rename-dialog");
        await dialog.getByRole("textbox", { name: "Name" }).fill("Work phone");
        await button("Save name").click();
        await until(async () => (await passkeyNames()).join() === "Laptop,Work phone", "not renamed");
      },
    ],
    [
      "remove both passkeys",
      "removed",
      async () => {
        for (const name of ["Laptop", "Work phone"]) {
          await button(`Remove passkey ${name}`).click();
          const dialog = page.getByRole("dialog", { name: "Remove this passkey?" });
          await dialog.waitFor();
          if (name === "Laptop") {
            await axe("remove dialog");
            await shot("remove-dialog");
          }
          await button("Remove passkey").click();
          await until(async () => !(await passkeyNames()).includes(name), `"${name}" still listed`);
        }
        assert((await page.locator("#passkeys-count").textContent()) === "0 passkeys", "none left");
        assert(!(await page.locator("#password-passkey").isVisible()), "no passkey to confirm with");
        await axe("no passkeys");
        await securityShot("removed");
      },
    ],
    [
      "a removed passkey no longer signs in",
      "refused",
      async () => {
        await button("Sign out").click();
        await button("Sign in with a passkey").click();
        const alert = page.locator("#sign-in-form .form-error");
        await until(
          async () => /could not be verified/.test(await alert.textContent()),
          "the removed passkey was let in",
        );
        assert(await page.locator("#signed-out").isVisible(), "still signed out");
        await axe("passkey refused");
      },
    ],
  ];
  return runSteps(steps, { consoleErrors, shot });
}

let ok = false;
try {
  ok = await main();
} catch (error) {
  console.error(error?.stack ?? error);
} finally {
  await browser?.close().catch(() => undefined);
  await server?.stop();
}
process.exit(ok ? 0 : 1);
