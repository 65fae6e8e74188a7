// `npm run dev` (predev, through scripts/migrate-local.mjs): carries a local D1 database and OAuth KV namespace that
// an earlier release's config left behind. wrangler keys a local D1 database or KV namespace by the id wrangler.toml
// gives it, and by its binding's name when it gives none. The release before the account objects (e0c5c75) named
// placeholder ids; this one names none, so `wrangler dev` would open new, empty stores beside the old ones and every
// local account would answer 401. Deployed databases are not affected: their ids come from Cloudflare.
import { createHash, createHmac } from "node:crypto";
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join, relative } from "node:path";

/** The stores an earlier config named by a placeholder id, and what the same data is called now. */
export const LEGACY_STORES = [
  {
    label: "Local D1",
    plugin: "d1",
    objectClass: "miniflare-D1DatabaseObject",
    from: "00000000-0000-0000-0000-000000000000",
    to: "DB",
    holdsData: "SELECT count(*) AS n FROM accounts",
  },
  {
    label: "Local OAuth KV",
    plugin: "kv",
    objectClass: "miniflare-KVNamespaceObject",
    from: "00000000000000000000000000000000",
    to: "OAUTH_KV",
    holdsData: "SELECT count(*) AS n FROM _mf_entries",
    blobs: true,
  },
];

/**
 * The file name workerd gives the object `idFromName(name)` of a namespace: the first 16 bytes of
 * HMAC-SHA256(SHA256(uniqueKey), name), then 16 bytes of that HMAC'd again, in hex. Miniflare stores each local D1
 * database and KV namespace as such an object, under the unique key `miniflare-<class>`.
 */
export function objectFileName(objectClass, name) {
  const key = createHash("sha256").update(objectClass).digest();
  const base = createHmac("sha256", key).update(name).digest().subarray(0, 16);
  const mac = createHmac("sha256", key).update(base).digest().subarray(0, 16);
  return `${Buffer.concat([base, mac]).toString("hex")}.sqlite`;
}

/** Rows in a local store, or null when this Node cannot read SQLite (node:sqlite needs Node 22.13+). */
async function rowCount(file, query) {
  if (!existsSync(file)) return 0;
  try {
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      return Number(db.prepare(query).get()?.n ?? 0);
    } catch {
      return 0; // no such table: a store the migrations have not reached yet holds nothing
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

/** Moves each legacy store to the name this release uses, unless that name already holds data. One line each. */
export async function carryLocalState(persistRoot, root = process.cwd()) {
  const lines = [];
  for (const store of LEGACY_STORES) {
    const dir = join(persistRoot, "v3", store.plugin, store.objectClass);
    const legacy = join(dir, objectFileName(store.objectClass, store.from));
    if (!existsSync(legacy)) continue;
    const current = join(dir, objectFileName(store.objectClass, store.to));
    const held = await rowCount(current, store.holdsData);
    if (held !== 0) {
      lines.push(
        `${store.label}: kept the current store (${relative(root, current)}); an earlier release's store is still at ` +
          `${relative(root, legacy)}. To use it instead, stop wrangler and move it (with its -wal and -shm files) to ` +
          "the current name.",
      );
      continue;
    }
    for (const suffix of ["", "-wal", "-shm"]) {
      rmSync(current + suffix, { force: true });
      if (existsSync(legacy + suffix)) renameSync(legacy + suffix, current + suffix);
    }
    if (store.blobs) moveBlobs(join(persistRoot, "v3", store.plugin), store.from, store.to);
    lines.push(`${store.label}: carried over the store an earlier release kept under id ${store.from}.`);
  }
  return lines;
}

/** KV keeps large values as files in a folder named after the namespace's id. */
function moveBlobs(pluginDir, from, to) {
  const source = join(pluginDir, from);
  if (!existsSync(source)) return;
  const target = join(pluginDir, to);
  const targetBlobs = join(target, "blobs");
  if (existsSync(target) && (!existsSync(targetBlobs) || readdirSync(targetBlobs).length === 0)) {
    rmSync(target, { recursive: true });
  }
  if (!existsSync(target)) renameSync(source, target);
}
