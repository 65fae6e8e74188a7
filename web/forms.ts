import { ApiError } from "./api";
import { byId } from "./dom";

/**
 * Error display for a form. Every input may have a `<p class="field-error" id="{input id}-error">`;
 * a problem's `errors[].path` is matched to an input by its `name`. Anything else goes into the
 * form's `.form-error` alert.
 */

export function clearErrors(form: HTMLFormElement): void {
  for (const input of form.querySelectorAll<HTMLInputElement>("input[aria-invalid]")) {
    input.removeAttribute("aria-invalid");
    describe(input, null);
  }
  for (const message of form.querySelectorAll<HTMLElement>(".field-error")) {
    message.textContent = "";
    message.hidden = true;
  }
  const alert = formAlert(form);
  alert.textContent = "";
  alert.hidden = true;
}

/** Shows field messages and a summary; moves focus to the first invalid field. */
export function showErrors(form: HTMLFormElement, fields: Record<string, string>, summary?: string): void {
  let first: HTMLInputElement | undefined;
  for (const [name, message] of Object.entries(fields)) {
    const input = form.elements.namedItem(name);
    if (!(input instanceof HTMLInputElement)) {
      summary = summary ? `${summary} ${message}` : message;
      continue;
    }
    const target = byId(`${input.id}-error`);
    target.textContent = message;
    target.hidden = false;
    input.setAttribute("aria-invalid", "true");
    describe(input, target.id);
    first ??= input;
  }
  if (summary) {
    const alert = formAlert(form);
    alert.textContent = summary;
    alert.hidden = false;
  }
  first?.focus();
}

/** Maps a failed request onto the form: field errors by name, the detail as the summary. */
export function showApiError(form: HTMLFormElement, error: unknown, labels: Record<string, string> = {}): void {
  if (!(error instanceof ApiError)) {
    showErrors(form, {}, "Something went wrong. Reload the page and try again.");
    return;
  }
  const fields: Record<string, string> = {};
  for (const { path, message } of error.errors) {
    const label = labels[path] ?? path;
    if (path) fields[path] = `${label} ${message}.`.replace(/\.\.$/, ".");
  }
  // A validation detail only lists field names; other errors (email taken, rate limit) explain themselves.
  const generic = error.code === "validation_failed" && Object.keys(fields).length > 0;
  showErrors(form, fields, generic ? "Please correct the marked fields." : error.detail);
}

function formAlert(form: HTMLFormElement): HTMLElement {
  const alert = form.querySelector<HTMLElement>(".form-error");
  if (!alert) throw new Error(`form #${form.id} has no .form-error`);
  return alert;
}

/** Keeps a field's static hint in aria-describedby and adds or removes its error message. */
function describe(input: HTMLInputElement, errorId: string | null): void {
  const ids = (input.getAttribute("aria-describedby") ?? "").split(/\s+/).filter((id) => id && !id.endsWith("-error"));
  if (errorId) ids.push(errorId);
  if (ids.length) input.setAttribute("aria-describedby", ids.join(" "));
  else input.removeAttribute("aria-describedby");
}
