import { html } from "./html";

/** What the page says instead of tasks: signed out (lead to sign-in), no Max (what it gives, where to get it), or a failed load. */

export function SignedOut({ message }: { message: string | null }) {
  return html`
    <section class="gate" aria-labelledby="gate-title">
      <h1 id="gate-title" tabindex="-1">Your tasks</h1>
      ${message && html`<p class="alert alert--info" role="status">${message}</p>`}
      <div class="card">
        <p>Sign in to see and change your tasks.</p>
        <p><a class="button" href="/?next=/tasks#sign-in-title">Sign in</a></p>
        <p class="hint">After signing in you come back here. No account yet? You can create one there too.</p>
      </div>
    </section>
  `;
}

export function NeedsMax({
  contact,
  plan,
  expiresAt,
}: {
  contact: string | null;
  plan: string;
  expiresAt: string | null;
}) {
  const ended = plan === "max" && expiresAt;
  return html`
    <section class="gate" aria-labelledby="gate-title">
      <h1 id="gate-title" tabindex="-1">Your tasks</h1>
      <div class="card">
        <h2>Tasks come with Max</h2>
        <p>${ended ? "Your Max membership has ended. " : "Your account is on Free. "}With Max:</p>
        <ul>
          <li>this page shows your tasks and lists, on your phone and on your desktop;</li>
          <li>your AI agents can add, plan and complete tasks for you (over MCP), and your scripts too (over REST);</li>
          <li>what they change shows up here within seconds.</li>
        </ul>
        <p>
          To get Max, ${contact ? html`write to <a href=${`mailto:${contact}`}>${contact}</a>` : "contact the operator of this site"}.
          Your <a href="/">account page</a> shows your membership.
        </p>
      </div>
    </section>
  `;
}

export function LoadFailed({ message }: { message: string }) {
  return html`
    <section class="gate" aria-labelledby="gate-title">
      <h1 id="gate-title" tabindex="-1">Your tasks</h1>
      <p class="alert alert--error" role="alert">Could not load your tasks. ${message} Reload the page to try again.</p>
    </section>
  `;
}
