// Browser test of the account page's billing (issue 29): a free account sees "Upgrade to Max", which opens
// Stripe Checkout; after signed webhook events the subscribed account sees Max and "Manage billing", which
// opens the Billing Portal. Real `wrangler dev` and Debian chromium; Stripe's API is a local stand-in (a small
// Node HTTP server at STRIPE_API_BASE) that records what the Worker sent, and Stripe's hosted pages are
// intercepted in the browser. Run: npm run test:browser. Screenshots: artifacts/browser/billing-*.png.
import { createServer } from "node:http";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { chromium } from "playwright-core";
import Stripe from "stripe";
import { newCredentials } from "../support/accounts.mjs";
import { root, startWranglerDev, until, usePageSession } from "../support/wrangler-dev.mjs";

const artifacts = join(root, "artifacts", "browser");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const WEBHOOK_SECRET = "whsec_browser_test";
const CHECKOUT_URL = "https://checkout.stripe.test/c/pay/cs_test_browser";
const PORTAL_URL = "https://billing.stripe.test/p/session/bps_browser";

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** Stripe's API as far as the Worker uses it: two POSTs, form-encoded, answered as Stripe would. */
function startStandIn() {
  const requests = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      requests.push({ path: req.url, params: Object.fromEntries(new URLSearchParams(body)) });
      const reply = {
        "/v1/checkout/sessions": { id: "cs_test_browser", object: "checkout.session", url: CHECKOUT_URL },
        "/v1/billing_portal/sessions": { id: "bps_browser", object: "billing_portal.session", url: PORTAL_URL },
      }[req.url];
      res.writeHead(reply ? 200 : 404, { "Content-Type": "application/json", "Request-Id": "req_stand_in" });
      res.end(JSON.stringify(reply ?? { error: { type: "invalid_request_error", message: "unknown path" } }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ requests, port: server.address().port, server })),
  );
}

/** A webhook delivery signed with the SDK's own test signer, as `stripe listen` would forward it. */
async function deliver(base, type, object) {
  const payload = JSON.stringify({
    id: `evt_browser_${type}_${Date.now()}`,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  const header = new Stripe("sk_test_unused").webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  const res = await fetch(`${base}/billing/stripe/webhook`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": header },
    body: payload,
  });
  assert(res.status === 200, `${type} answered ${res.status}: ${await res.text()}`);
}

const visible = (page, selector) => page.locator(selector).isVisible();

let standIn;
let server;
let browser;

async function main() {
  await mkdir(artifacts, { recursive: true });
  standIn = await startStandIn();
  server = await startWranglerDev({
    vars: {
      RATE_LIMITS: "off",
      STRIPE_SECRET_KEY: "sk_test_browser",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PRICE_ID: "price_browser_max",
      STRIPE_API_BASE: `http://127.0.0.1:${standIn.port}`,
    },
  });
  const { base } = server;
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "en-US", timezoneId: "UTC" });
  page.setDefaultTimeout(10_000);
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  // Stripe's hosted pages: the browser arrives there, and this stands in for them.
  await page.route("https://*.stripe.test/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<title>Stripe (stand-in)</title>" }),
  );

  const credentials = newCredentials("billing");
  const signup = await fetch(`${base}/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(credentials),
  });
  const { token, account } = await signup.json();
  await page.goto(`${base}/`);
  await usePageSession(page.context(), base, token);
  // Signed in, arriving as a max_required error sends people: at #billing (a new document, not a hash change).
  await page.goto(`${base}/#billing`);
  await page.reload();

  // Free: Upgrade to Max, no contact line, no Manage billing.
  const upgrade = page.getByRole("button", { name: "Upgrade to Max" });
  await upgrade.waitFor();
  assert((await page.locator("#plan-badge").textContent()) === "Free", "a new account should be Free");
  assert(!(await visible(page, "#contact")), "the contact line shows although billing is set up");
  assert(!(await visible(page, "#manage-billing")), "Manage billing shows for an account without a customer");
  // The page focuses the section once every section has loaded (web/main.ts `enter`), which may be after billing's.
  await until(
    async () => (await page.evaluate(() => document.activeElement?.id)) === "membership-title",
    "#billing did not focus",
  );
  await page.screenshot({ path: join(artifacts, "billing-01-free.png"), fullPage: true });
  await upgrade.click();
  await page.waitForURL(CHECKOUT_URL);
  const checkout = standIn.requests.find((r) => r.path === "/v1/checkout/sessions");
  assert(checkout, "the Worker did not create a Checkout Session");
  for (const [name, value] of Object.entries({
    mode: "subscription",
    "line_items[0][price]": "price_browser_max",
    client_reference_id: account.id,
    "subscription_data[metadata][accountId]": account.id,
    customer_email: credentials.email,
    success_url: `${base}/?checkout=success#billing`,
    cancel_url: `${base}/#billing`,
  }))
    assert(checkout.params[name] === value, `Checkout ${name}: ${checkout.params[name]}, expected ${value}`);

  // Stripe confirms: the session completes and the subscription is active.
  const customer = "cus_browser";
  await deliver(base, "checkout.session.completed", {
    id: "cs_test_browser",
    client_reference_id: account.id,
    customer,
  });
  const periodEnd = Math.floor(Date.now() / 1000) + 30 * 86_400;
  await deliver(base, "customer.subscription.updated", {
    id: "sub_browser",
    customer,
    status: "active",
    metadata: { accountId: account.id },
    items: { data: [{ current_period_end: periodEnd }] },
  });

  // Back from Checkout: Max, and Manage billing instead of Upgrade.
  await page.goto(`${base}/?checkout=success#billing`);
  const manage = page.getByRole("button", { name: "Manage billing" });
  await manage.waitFor();
  await until(async () => (await page.locator("#plan-badge").textContent()) === "Max", "the badge should say Max");
  assert(!(await visible(page, "#upgrade-button")), "Upgrade to Max still shows for a subscribed account");
  await page.screenshot({ path: join(artifacts, "billing-02-subscribed.png"), fullPage: true });
  await manage.click();
  await page.waitForURL(PORTAL_URL);
  const portal = standIn.requests.find((r) => r.path === "/v1/billing_portal/sessions");
  assert(portal?.params.customer === customer, `portal customer: ${portal?.params.customer}`);
  assert(portal.params.return_url === `${base}/#billing`, `portal return_url: ${portal.params.return_url}`);
  assert(errors.length === 0, `browser console errors: ${errors.join(" | ")}`);
  console.log("ok - free shows Upgrade to Max (opens Checkout); subscribed shows Manage billing (opens the portal)");
  return true;
}

let ok = false;
try {
  ok = await main();
} catch (error) {
  await browser
    ?.contexts()[0]
    ?.pages()[0]
    ?.screenshot({ path: join(artifacts, "billing-FAILED.png"), fullPage: true })
    .catch(() => undefined);
  console.error(`not ok - billing page\n  ${String(error?.stack ?? error).replaceAll("\n", "\n  ")}`);
} finally {
  await browser?.close().catch(() => undefined);
  await server?.stop();
  standIn?.server.close();
}
process.exit(ok ? 0 : 1);
