// The step runner of the browser suites that run named steps in order (test/browser/passkeys.mjs, recovery.mjs).

/**
 * Runs `[name, screenshot, body]` steps in order: a step passes when its body resolves and the page logged no
 * console error meanwhile; each passed step is photographed, a failed one too (`<screenshot>-FAILED`), and the run
 * stops at the first failure. Prints `ok N - name` / `not ok N - name` lines; resolves true when every step passed.
 */
export async function runSteps(steps, { consoleErrors, shot }) {
  let passed = 0;
  for (const [index, [name, file, body]] of steps.entries()) {
    try {
      await body();
      if (consoleErrors.length) throw new Error(`browser console errors: ${consoleErrors.join(" | ")}`);
      await shot(file);
      passed++;
      console.log(`ok ${index + 1} - ${name}`);
    } catch (error) {
      console.log(`not ok ${index + 1} - ${name}\n  ${String(error?.stack ?? error).replaceAll("\n", "\n  ")}`);
      await shot(`${file}-FAILED`).catch(() => undefined);
      break;
    }
  }
  console.log(`${passed} passed of ${steps.length}`);
  return passed === steps.length;
}
