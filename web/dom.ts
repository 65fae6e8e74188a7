/** Small DOM helpers: typed lookups, element building, dates, copying, announcements. */

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from the page`);
  return element as T;
}

type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) if (child) element.append(child);
  return element;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: "long" });

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateOnly.format(date);
}

/** A `<time>` element with the machine-readable value and the local, human-readable text. */
export function timeElement(iso: string, format: (iso: string) => string = formatDateTime): HTMLTimeElement {
  const element = h("time", { datetime: iso }, format(iso));
  element.title = iso;
  return element;
}

/** Polite screen-reader announcement for things that happen without a focus change. */
export function announce(message: string): void {
  const region = byId("live-status");
  region.textContent = "";
  // A fresh text node after a tick makes repeated messages ("Copied") announce again.
  window.setTimeout(() => {
    region.textContent = message;
  }, 50);
}

/** Copies a field's value; falls back to selecting it so the person can press Ctrl+C / ⌘C. */
export async function copyText(
  text: string,
  source: HTMLInputElement | HTMLElement,
  button: HTMLButtonElement,
): Promise<void> {
  const label = button.dataset.label ?? button.textContent ?? "Copy";
  button.dataset.label = label;
  let copied = false;
  try {
    await navigator.clipboard.writeText(text);
    copied = true;
  } catch {
    selectContents(source);
    try {
      copied = document.execCommand("copy");
    } catch {
      copied = false;
    }
  }
  if (copied) {
    button.textContent = "Copied";
    announce("Copied to the clipboard.");
  } else {
    selectContents(source);
    button.textContent = "Press Ctrl+C";
    announce("Copying is blocked by the browser. The text is selected: press Control+C or Command+C.");
  }
  window.setTimeout(() => {
    button.textContent = label;
  }, 2500);
}

function selectContents(source: HTMLElement): void {
  if (source instanceof HTMLInputElement || source instanceof HTMLTextAreaElement) {
    source.focus();
    source.select();
    return;
  }
  const range = document.createRange();
  range.selectNodeContents(source);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

/**
 * Marks a button busy while a request runs. It stays focusable (aria-disabled, not disabled)
 * so keyboard focus is not lost; a second activation while busy is ignored.
 */
export async function busy<T>(
  button: HTMLButtonElement,
  label: string,
  work: () => Promise<T>,
): Promise<T | undefined> {
  if (button.getAttribute("aria-busy") === "true") return undefined;
  const original = button.textContent ?? "";
  button.setAttribute("aria-busy", "true");
  button.setAttribute("aria-disabled", "true");
  button.textContent = label;
  try {
    return await work();
  } finally {
    button.removeAttribute("aria-busy");
    button.removeAttribute("aria-disabled");
    button.textContent = original;
  }
}

/**
 * A modal confirmation: opens the `<dialog>` with Cancel focused (the safe choice), and resolves true when its
 * confirm button closed it; Cancel, Escape or anything else is false.
 */
export function confirmInDialog(dialogId: string, confirmId: string, cancelId: string): Promise<boolean> {
  const dialog = byId<HTMLDialogElement>(dialogId);
  const confirm = byId<HTMLButtonElement>(confirmId);
  const cancel = byId<HTMLButtonElement>(cancelId);
  return new Promise((resolve) => {
    const onConfirm = () => dialog.close("confirm");
    const onCancel = () => dialog.close("cancel");
    confirm.addEventListener("click", onConfirm);
    cancel.addEventListener("click", onCancel);
    dialog.addEventListener(
      "close",
      () => {
        confirm.removeEventListener("click", onConfirm);
        cancel.removeEventListener("click", onCancel);
        resolve(dialog.returnValue === "confirm");
      },
      { once: true },
    );
    dialog.returnValue = "";
    dialog.showModal();
    cancel.focus();
  });
}
