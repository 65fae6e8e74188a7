import { api } from "./api";
import { announce, busy, byId } from "./dom";
import { clearErrors, showErrors } from "./forms";
import { session } from "./session";

/**
 * The Your data section's import: the file chosen is sent as it is to POST /account/import (the same
 * verb as /api/v1/import), its tasks going to a list named after the file when it is a CSV.
 */
const MAX_BYTES = 5 * 1024 * 1024;

export function wireImport(handleError: (error: unknown, form?: HTMLFormElement) => void, signedOut: () => void) {
  const form = byId<HTMLFormElement>("import-form");
  const input = byId<HTMLInputElement>("import-file");
  const status = byId("import-status");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    status.hidden = true;
    const file = input.files?.[0];
    if (!file) return showErrors(form, { file: "Choose a file to import." });
    if (file.size > MAX_BYTES) return showErrors(form, { file: "The file is larger than 5 MB: split it." });
    const token = session.get();
    if (!token) return signedOut();
    try {
      await busy(form.querySelector<HTMLButtonElement>("button[type=submit]")!, "Importing…", async () => {
        const { imported, skipped } = await api.importFile(token, file, file.name.replace(/\.[^.]*$/, ""));
        const lines = skipped.slice(0, 5).map((s) => `line ${s.line}: ${s.reason}`);
        status.textContent =
          `Imported ${imported.tasks} tasks, ${imported.lists} lists and ${imported.labels} labels.` +
          (skipped.length ? ` Skipped ${skipped.length}: ${lines.join("; ")}${skipped.length > 5 ? "; …" : ""}.` : "");
        status.hidden = false;
        form.reset();
        announce(status.textContent);
      });
    } catch (error) {
      handleError(error, form);
    }
  });
}
