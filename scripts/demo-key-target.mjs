// Where `npm run demo-key` finds the running `npm run dev`: pure functions, held by test/scripts/demo-key.test.mjs.
// wrangler dev writes its HTTP port nowhere a script can read (its dev registry under ~/.config holds only an
// internal debug address), so without an argument or BASE_URL the answer is wrangler's default port, and the
// error when nothing answers there says how to name another one.

export const DEFAULT_DEV_URL = "http://localhost:8787";
export const USAGE = "npm run demo-key -- 8801  (a port on localhost) or  npm run demo-key -- http://localhost:8801";

/**
 * The dev server's origin from the first argument (a port or an http(s) URL), else BASE_URL, else the default.
 * Returns `{ base, how }` (`how`: "argument", "BASE_URL" or "default"), or `{ error }` for an argument that is
 * neither a port nor a URL.
 */
export function demoKeyTarget(args, env) {
  const [arg] = args;
  if (arg !== undefined) {
    if (/^\d+$/.test(arg)) {
      const port = Number(arg);
      if (port >= 1 && port <= 65535) return { base: `http://localhost:${port}`, how: "argument" };
      return { error: `${arg} is not a port (1–65535). Usage: ${USAGE}` };
    }
    const url = URL.canParse(arg) ? new URL(arg) : undefined;
    if (url && (url.protocol === "http:" || url.protocol === "https:")) {
      return { base: arg.replace(/\/+$/, ""), how: "argument" };
    }
    return { error: `"${arg}" is neither a port nor an http(s) URL. Usage: ${USAGE}` };
  }
  if (env.BASE_URL) return { base: env.BASE_URL.replace(/\/+$/, ""), how: "BASE_URL" };
  return { base: DEFAULT_DEV_URL, how: "default" };
}

/** What to say when nothing answers at `base`: with the default, how to name the port `npm run dev` uses. */
export function unreachableMessage({ base, how }, code) {
  const first = `Cannot reach ${base}: ${code}.`;
  if (how !== "default") return `${first} Is \`npm run dev\` running there?`;
  return (
    `${first} Is \`npm run dev\` running? It prints its address ("Ready on http://localhost:…"); ` +
    `on a port other than 8787, name it: ${USAGE} (or set BASE_URL).`
  );
}
