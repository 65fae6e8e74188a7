// The pages mail reaches, in a real browser (Debian chromium, playwright-core) against `wrangler dev` with its
// simulated EMAIL binding: mail is read back from the files wrangler writes (test/support/wrangler-dev.mjs).
// Sign-up shows "verify your address"; the mailed link verifies it; "Forgot your password?" mails a reset link that
// sets a new password; the change of address applies when the new address's link is opened. axe on every state.
// Then two-step sign-in: codes turned on from the page's QR key (codes computed here with otpauth, as an app would),
// recovery codes shown once, sign-in asking for a code, and codes turned off.
// Run: node test/browser/recovery.mjs. Screenshots: artifacts/browser/mail-*.png (not committed).
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { axeViolations } from "../support/axe.mjs";
import { runSteps } from "../support/steps.mjs";
import { Secret, TOTP } from "otpauth";
import { chromium } from "playwright-core";
import { newCredentials } from "../support/accounts.mjs";
import { root, startWranglerDev, until } from "../support/wrangler-dev.mjs";

const artifacts = join(root, "artifacts", "browser");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const { email, password } = newCredentials("mail");
const newPassword = "a fresh password for mail";
const movedEmail = email.replace("@", "+moved@");

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

let server;
let browser;

async function main() {
  await mkdir(artifacts, { recursive: true });
  server = await startWranglerDev({ vars: { MAIL_FROM: "todo@localhost.test" }, logLevel: "info" });
  const { base } = server;
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
  const shot = (name) => page.screenshot({ path: join(artifacts, `mail-${name}.png`), fullPage: true });
  const axe = async (label) => {
    const { found } = await axeViolations(page);
    assert(found.length === 0, `axe, ${label}: ${found.join("; ")}`);
  };
  /** The link of the newest mail to `to` whose subject is `subject`, as the person would click it. */
  const linkIn = async (to, subject) => {
    const mail = await until(
      async () => (await server.mails()).findLast((m) => m.to === to && m.subject === subject),
      `no mail "${subject}" to ${to}`,
    );
    assert(
      mail.text.includes(to) && mail.text.includes("If this was not you"),
      "the mail names the address and what to do",
    );
    return mail.text.match(/https?:\/\/\S+/)?.[0];
  };
  const button = (name) => page.getByRole("button", { name, exact: true });

  const steps = [
    [
      "sign-up shows the verification prompt; send again is paced",
      "verify-banner",
      async () => {
        await page.goto(`${base}/`);
        await page.getByRole("textbox", { name: "Email" }).nth(1).fill(email);
        await page.locator("#sign-up-password").fill(password);
        await button("Create account").click();
        const banner = page.getByRole("region", { name: "Verify your email address" });
        await banner.waitFor();
        assert((await banner.textContent()).includes(email), "the prompt names the address");
        await button("Send the link again").click();
        await until(
          async () => /less than a minute ago/.test(await page.locator("#verify-status").textContent()),
          "resend was not paced",
        );
        await axe("verification prompt");
      },
    ],
    [
      "the mailed link verifies the address",
      "verified",
      async () => {
        const link = await linkIn(email, "Confirm your email address");
        assert(new URL(link).pathname === "/verify", `a /verify link: ${link}`);
        await page.goto(link);
        await until(async () => /is verified/.test(await page.locator("#verify-result").textContent()), "not verified");
        assert(!page.url().includes("token="), "the token left the address bar");
        await axe("/verify");
        await page.getByRole("link", { name: "Go to your account" }).click();
        await page.getByRole("heading", { name: "Your account", level: 1 }).waitFor();
        await until(
          async () => !(await page.locator("#verify-banner").isVisible()),
          "the prompt stayed after verifying",
        );
      },
    ],
    [
      "the change of address applies when the new address's link is opened",
      "email-changed",
      async () => {
        await page.getByRole("textbox", { name: "New email address" }).fill(movedEmail);
        await page.locator("#email-password").fill(password);
        await button("Send a confirmation link").click();
        await until(
          async () => (await page.locator("#email-status").textContent()).includes(movedEmail),
          "no confirmation",
        );
        await linkIn(email, "Your email address is about to change");
        await page.goto(await linkIn(movedEmail, "Confirm your new email address"));
        await until(
          async () => /is verified/.test(await page.locator("#verify-result").textContent()),
          "change not applied",
        );
        await page.goto(`${base}/`);
        await until(
          async () => (await page.locator("#session-email").textContent()) === movedEmail,
          "the page shows the old address",
        );
      },
    ],
    [
      "forgot password: a reset link sets a new password and signs every session out",
      "reset",
      async () => {
        await button("Sign out").click();
        await page.getByRole("link", { name: "Forgot your password?" }).click();
        await page.getByRole("heading", { name: "Reset your password" }).waitFor();
        await page.getByRole("textbox", { name: "Email" }).fill(movedEmail);
        await button("Send the link").click();
        await until(
          async () => /a link is on its way/.test(await page.locator("#reset-result").textContent()),
          "no answer",
        );
        await axe("/reset, request");
        await page.goto(await linkIn(movedEmail, "Reset your password"));
        await page.getByRole("textbox", { name: "New password" }).fill(newPassword);
        await axe("/reset, new password");
        await button("Set the new password").click();
        await until(async () => /password is set/.test(await page.locator("#reset-result").textContent()), "not set");
        await linkIn(movedEmail, "Your password was reset");
        await page.goto(`${base}/`);
        await page.locator("#sign-in-email").fill(movedEmail);
        await page.locator("#sign-in-password").fill(newPassword);
        await button("Sign in").click();
        await page.getByRole("heading", { name: "Your account", level: 1 }).waitFor();
      },
    ],
    [
      "a used reset link says to ask again",
      "reset-used",
      async () => {
        await page.goto(await linkIn(movedEmail, "Reset your password"));
        await page.getByRole("textbox", { name: "New password" }).fill("another new password");
        await button("Set the new password").click();
        await page.getByRole("link", { name: "Ask for a new link" }).waitFor();
        await axe("/reset, used link");
      },
    ],
    [
      "one-time codes: turn on from the QR key, recovery codes once, sign-in asks for a code, turn off",
      "totp",
      async () => {
        await page.goto(`${base}/#security`);
        await page.getByRole("heading", { name: "Your account", level: 1 }).waitFor();
        await button("Turn on one-time codes").click();
        await page.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
        assert((await page.locator("#totp-qr svg").count()) === 1, "the QR code is drawn");
        const key = (await page.locator("#totp-secret").textContent()).replaceAll(" ", "");
        const app = new TOTP({ secret: Secret.fromBase32(key), algorithm: "SHA1", digits: 6, period: 30 });
        await axe("two-step setup");
        await page
          .getByRole("textbox", { name: "Code from the app" })
          .fill(app.generate({ timestamp: Date.now() - 30_000 }));
        await button("Turn on").click();
        await page.locator("#totp-recovery-list li").nth(9).waitFor();
        assert((await page.locator("#totp-recovery-list li").count()) === 10, "ten recovery codes");
        await shot("totp-recovery");
        await axe("recovery codes");
        await button("I have stored them").click();
        assert(!(await page.locator("#totp-recovery").isVisible()), "the codes are gone from the page");

        await button("Sign out").click();
        await page.locator("#sign-in-email").fill(movedEmail);
        await page.locator("#sign-in-password").fill(newPassword);
        await button("Sign in").click();
        const codeBox = page.getByRole("textbox", { name: "One-time code" });
        await codeBox.waitFor();
        await axe("sign-in asking for a code");
        await codeBox.fill(app.generate());
        await page.locator("#sign-in-password").fill(newPassword);
        await button("Sign in").click();
        await page.getByRole("heading", { name: "Your account", level: 1 }).waitFor();

        await page.getByRole("textbox", { name: "Code from the app, or a recovery code" }).fill("000000");
        await button("Turn off one-time codes").click();
        await until(
          async () => /wrong/.test(await page.locator("#totp-off-form").textContent()),
          "a wrong code was not refused",
        );
        // The next step's code: the sign-in used this step's, and a step is accepted once.
        await page
          .getByRole("textbox", { name: "Code from the app, or a recovery code" })
          .fill(app.generate({ timestamp: Date.now() + 30_000 }));
        await button("Turn off one-time codes").click();
        await until(async () => /Off:/.test(await page.locator("#totp-state").textContent()), "codes stayed on");
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
