// Renders static/favicon.svg to PNGs (16, 32 and 48 px) with Debian chromium and packs them into
// static/favicon.ico (an ICO whose entries are PNGs, which every browser since Windows Vista reads).
// Why a real file and not a redirect to the SVG: /favicon.ico is fetched by convention by feed readers,
// bookmark and link-preview tools and older browsers that never read <link rel=icon>, and many of them
// take neither a redirect nor SVG. Run after changing the SVG: node scripts/build-favicon.mjs
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = join(fileURLToPath(import.meta.url), "..", "..");
const svg = await readFile(join(root, "static/favicon.svg"), "utf8");
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu"],
});
const sizes = [16, 32, 48];
const pngs = [];
try {
  for (const size of sizes) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const body = `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`;
    await page.setContent(body);
    pngs.push(await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }));
    await page.close();
  }
} finally {
  await browser.close();
}
// ICONDIR, then one ICONDIRENTRY per image, then the PNGs themselves.
const header = Buffer.alloc(6 + 16 * sizes.length);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2);
header.writeUInt16LE(sizes.length, 4);
let offset = header.length;
for (const [i, size] of sizes.entries()) {
  const entry = 6 + 16 * i;
  header.writeUInt8(size, entry);
  header.writeUInt8(size, entry + 1);
  header.writeUInt16LE(1, entry + 4);
  header.writeUInt16LE(32, entry + 6);
  header.writeUInt32LE(pngs[i].length, entry + 8);
  header.writeUInt32LE(offset, entry + 12);
  offset += pngs[i].length;
}
const ico = Buffer.concat([header, ...pngs]);
await writeFile(join(root, "static/favicon.ico"), ico);
console.log(`build-favicon: static/favicon.ico (${sizes.join(", ")} px, ${ico.length} bytes)`);
