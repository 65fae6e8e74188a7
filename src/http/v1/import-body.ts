import type { Context } from "hono";
import { AppError } from "../../domain/errors";
import { MAX_IMPORT_BYTES, tooLarge } from "../../domain/import/plan";
import type { ImportFile } from "../../domain/import/read";
import { ListName } from "../../domain/lists/schemas";
import { authenticateCaller } from "../../transport/auth";
import { readWithin } from "../../transport/body";
import type { AppEnv } from "../../transport/env";

/**
 * The body of POST /api/v1/import, read by the route itself (the JSON body rules leave uploads alone,
 * transport/validation.ts): JSON or CSV, at most 5 MB, judged by its declared length before a byte is
 * read and counted while reading when it has none. Every refusal first judges the caller (401/403
 * before 400/413), as the JSON rules do.
 */
const FORMATS: Record<string, ImportFile["format"]> = {
  "application/json": "json",
  "text/csv": "csv",
  "application/csv": "csv",
};

const invalid = (message: string) => new AppError("validation_failed", message, [{ path: "", message }]);

/** The file's name without folders and extension, from `Content-Disposition: attachment; filename=…`. */
function fileName(disposition: string | undefined): string | undefined {
  if (!disposition) return undefined;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition)?.[1];
  let name = /filename\s*=\s*"([^"]*)"/i.exec(disposition)?.[1] ?? /filename\s*=\s*([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      name = decodeURIComponent(encoded);
    } catch {
      // A malformed encoding: the plain filename, if any, stands.
    }
  }
  return (
    name
      ?.trim()
      .replace(/^.*[\\/]/, "")
      .replace(/\.[^.]*$/, "") || undefined
  );
}

export async function readImportBody(c: Context<AppEnv>, list: string | undefined): Promise<ImportFile> {
  const refuse = async (error: AppError): Promise<never> => {
    await authenticateCaller(c);
    throw error;
  };
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const format = FORMATS[type];
  if (!format)
    return refuse(
      invalid(
        "Send the file with `Content-Type: application/json` (this service's export) or `text/csv` (a Todoist CSV).",
      ),
    );
  const declared = c.req.header("content-length");
  if (declared !== undefined && Number(declared) > MAX_IMPORT_BYTES) return refuse(tooLarge());
  const bytes = c.req.raw.body ? await readWithin(c.req.raw.body, MAX_IMPORT_BYTES) : new Uint8Array();
  if (!bytes) return refuse(tooLarge());
  if (bytes.byteLength === 0) return refuse(invalid("The body is empty: send the file."));
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return refuse(invalid("The file is not UTF-8 text."));
  }
  if (format === "json") return { format, text };
  const named = list ?? fileName(c.req.header("content-disposition"));
  const name = ListName.safeParse(named);
  if (!name.success)
    return refuse(
      invalid("Name the list the CSV's tasks go to: `?list=Work`, or the file's name in `Content-Disposition`."),
    );
  return { format, text, list: name.data };
}
