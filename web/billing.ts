import { type Account, api, type BillingStatus } from "./api";
import { busy, byId, formatDate, timeElement } from "./dom";
import { session } from "./session";

/**
 * The membership card's billing part (issue 29): Upgrade to Max (Stripe Checkout) while Max is not
 * active, Manage billing (Stripe's portal) once the account has a Stripe customer, and a note when a
 * payment failed or a cancellation is scheduled. Without billing set up (`enabled` false) the contact line stays.
 */

type OnError = (error: unknown) => void;

export async function refreshBilling(account: Account, onError: OnError): Promise<void> {
  const token = session.get();
  if (!token) return;
  let status: BillingStatus;
  try {
    status = await api.getBilling(token);
  } catch (error) {
    return onError(error);
  }
  byId("contact").hidden = status.enabled;
  byId("upgrade").hidden = !status.enabled || account.membership.active;
  byId("manage").hidden = !status.enabled || !status.customer;
  renderPlan(status, account);
  renderNote(status, account.membership.active);
}

/**
 * What a Max account pays and until when: a subscriber's period (and Manage billing beside it), an
 * operator's grant with its end. Without it a Max account saw no billing at all.
 */
function renderPlan(status: BillingStatus, account: Account): void {
  const plan = byId("billing-plan");
  const { active, expiresAt } = account.membership;
  const end = (prefix: string) =>
    expiresAt ? [prefix, timeElement(expiresAt, formatDate), "."] : [" It has no end date."];
  const parts: (string | Node)[] = !active
    ? []
    : status.customer && status.subscription
      ? [
          "Billing: Max through your Stripe subscription.",
          ...(status.subscription.currentPeriodEnd && !status.subscription.cancelAt
            ? [" It renews on ", timeElement(status.subscription.currentPeriodEnd, formatDate), "."]
            : []),
        ]
      : ["Billing: Max granted by the service operator, with nothing to pay.", ...end(" It ends on ")];
  plan.replaceChildren(...parts);
  plan.hidden = parts.length === 0;
}

function renderNote(status: BillingStatus, active: boolean): void {
  const note = byId("billing-note");
  const returned = new URLSearchParams(window.location.search).get("checkout") === "success";
  const parts: (string | Node)[] = [];
  let kind: "info" | "warning" = "warning";
  if (status.paymentFailedAt)
    parts.push(
      "Your last payment failed on ",
      timeElement(status.paymentFailedAt, formatDate),
      ". Update your card in Manage billing to keep Max.",
    );
  else if (status.subscription?.cancelAt && status.subscription.status !== "canceled")
    parts.push(
      "Your subscription is cancelled. Max stays active until ",
      timeElement(status.subscription.cancelAt, formatDate),
      ".",
    );
  else if (returned) {
    kind = "info";
    parts.push(
      active
        ? "Thank you: Max is active."
        : "Thank you. Max starts as soon as Stripe confirms the payment: reload in a moment.",
    );
  }
  note.className = `alert alert--${kind}`;
  note.replaceChildren(...parts);
  note.hidden = parts.length === 0;
}

/** Both buttons send the browser to a Stripe page that the server asked for; Stripe sends it back to #billing. */
export function wireBilling(onError: OnError): void {
  const go = (id: string, open: (token: string) => Promise<{ url: string }>) => {
    const button = byId<HTMLButtonElement>(id);
    button.addEventListener("click", async () => {
      const token = session.get();
      if (!token) return;
      try {
        await busy(button, "Opening Stripe…", async () => window.location.assign((await open(token)).url));
      } catch (error) {
        onError(error);
      }
    });
  };
  go("upgrade-button", api.checkout);
  go("manage-billing", api.billingPortal);
}
