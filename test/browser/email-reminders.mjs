// Reminders by email in a real browser (Debian chromium, playwright-core) against `wrangler dev` with its simulated
// EMAIL binding (mail read back from the files wrangler writes: test/support/wrangler-dev.mjs). The account page's
// "Reminders by email" is disabled with its reason until the address is verified; turned on from the page, a reminder
// fires from the object's alarm and is mailed once, with its one-click link; the link's page, opened without a
// session, stops the emails. axe on every state. Run: node test/browser/email-reminders.mjs.
// Screenshots: artifacts/browser/remind36-*.png (not committed).
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { axeViolations } from "../support/axe.mjs";
import { chromium } from "playwright-core";
import { accountWithKey } from "../support/accounts.mjs";
import { root, sleep, startWranglerDev, until, usePageSession } from "../support/wrangler-dev.mjs";

const shots = process.env.SHOTS_DIR ?? join(root, "artifacts", "browser");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

let server;
let browser;

async function main() {
  await mkdir(shots, { recursive: true });
  server = await startWranglerDev({ vars: { MAIL_FROM: "todo@localhost.test", RATE_LIMITS: "off" }, logLevel: "info" });
  const { base } = server;
  const user = await accountWithKey(server, { prefix: "remind" });
  const call = async (path, { token = user.session, ...init } = {}) => {
    const res = await fetch(`${base}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    });
    return res.status === 204 ? null : res.json();
  };
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "en-US", timezoneId: "UTC" });
  page.setDefaultTimeout(10_000);
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (m) => m.type() === "error" && !/status of 4\d\d/.test(m.text()) && errors.push(m.text()));
  const section = page.locator("#calendar-feed");
  const shot = (name) => section.screenshot({ path: join(shots, `remind36-${name}.png`) });
  const axe = async (state) => {
    const { found } = await axeViolations(page);
    assert(found.length === 0, `axe, ${state}: ${found.join("; ")}`);
  };
  const mailTo = (subject) =>
    until(
      async () => (await server.mails()).findLast((m) => m.to === user.email && m.subject === subject),
      `no mail "${subject}" to ${user.email}`,
      20_000,
    );
  const reminders = section.getByLabel("Mail me each reminder");

  // Unverified: disabled, with the reason.
  await usePageSession(page.context(), base, user.session);
  await page.goto(`${base}/`);
  await section.getByText("Verify your email address first").waitFor();
  assert(await reminders.isDisabled(), "the control is enabled for an unverified address");
  await section.scrollIntoViewIfNeeded();
  await axe("unverified");
  await shot("01-unverified");

  // Verified through the mailed link: the control turns reminders on.
  const verify = (await mailTo("Confirm your email address")).text.match(/https?:\/\/\S+/)[0];
  await call("/auth/verify", {
    method: "POST",
    body: JSON.stringify({ token: new URL(verify).searchParams.get("token") }),
  });
  await page.reload();
  await reminders.waitFor();
  await until(async () => !(await reminders.isDisabled()), "the control stays disabled once verified");
  await reminders.check();
  await until(async () => (await call("/account/notifications")).emailReminders === true, "not turned on");
  await axe("on");
  await shot("02-on");

  // A reminder a few seconds ahead: the object's alarm mails it, once.
  const reminder = new Date(Date.now() + 3000).toISOString();
  await call("/api/v1/tasks", {
    token: user.key,
    method: "POST",
    body: JSON.stringify({ title: "Feed the cat", reminder }),
  });
  const started = Date.now();
  const mail = await mailTo("Reminder: Feed the cat");
  console.log(`reminder mailed ${Date.now() - started} ms after the task was made (reminder at +3000 ms)`);
  await sleep(3000);
  const copies = (await server.mails()).filter((m) => m.subject === "Reminder: Feed the cat").length;
  assert(copies === 1, `the reminder was mailed ${copies} times`);

  // The link, opened in a browser with no session: a confirmation page, then stopped.
  const stop = mail.text.match(/Stop these emails: (\S+)/)[1];
  const fresh = await browser.newPage();
  await fresh.goto(stop);
  await fresh.getByRole("heading", { name: "Stop these emails" }).waitFor();
  assert((await call("/account/notifications")).emailReminders === true, "GET on the link changed the choice");
  // Every rule axe has, not only WCAG AA: a page people reach from a mail, signed out.
  const { found: unsubscribePage } = await axeViolations(fresh, { tags: null });
  assert(unsubscribePage.length === 0, `axe, unsubscribe page: ${unsubscribePage.join("; ")}`);
  await fresh.screenshot({ path: join(shots, "remind36-03-unsubscribe.png") });
  await fresh.getByRole("button", { name: "Stop these emails" }).click();
  await fresh.getByRole("heading", { name: "Done: no more reminder emails" }).waitFor();
  await fresh.screenshot({ path: join(shots, "remind36-04-stopped.png") });
  assert((await call("/account/notifications")).emailReminders === false, "the link did not stop the emails");
  await page.reload();
  await reminders.waitFor();
  assert(!(await reminders.isChecked()), "the page still shows reminders by email on");
  assert(errors.length === 0, `browser errors: ${errors.join(" | ")}`);
  console.log("ok - reminders by email in the browser");
  return true;
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
