// The bench's statistics and its comparison of two designs, shared by scripts/bench.mjs (BENCH_COMPARE)
// and this script run on its own, which prints the side-by-side table of two results files as Markdown:
//   node scripts/bench-compare.mjs bench/d1-design.json bench/object-design.json
// The first file is the earlier design, the second the one checked against it. See bench/README.md.
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";

/** The rows that make a task request (REST and MCP): each is judged against its design's floor. */
export const TASK_ROWS = [
  "list100",
  "list100Read",
  "list1000",
  "search10k",
  "search10kRead",
  "create",
  "update",
  "mcpList",
  "mcpCreate",
];
/** A task row's throughput ratio to its floor must stay at or above this share of the earlier design's. */
export const KEEP_SHARE = 0.8;

export const round = (x, digits = 2) =>
  x === null || x === undefined || !Number.isFinite(x) ? null : Number(x.toFixed(digits));
export const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null;

// How far a ratio would move if the run were repeated: a row's 1 s slices and its reference's are paired
// by round (they took turns), and the rounds are resampled with replacement. Each group (a pair of
// slice series from one run) is resampled on its own, so a ratio of two runs carries both runs' noise.
// A deterministic generator keeps a report reproducible from its results files.
const BOOTSTRAP_SAMPLES = 2000;
export function bootstrap90(groups, statistic) {
  const sizes = groups.map(([row, ref]) => Math.min(row?.length ?? 0, ref?.length ?? 0));
  if (sizes.some((n) => n < 3)) return null;
  let seed = 0x2545f491;
  const random = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  const values = [];
  for (let b = 0; b < BOOTSTRAP_SAMPLES; b++) {
    const sums = groups.map(([row, ref], g) => {
      let rowSum = 0;
      let refSum = 0;
      for (let i = 0; i < sizes[g]; i++) {
        const k = Math.floor(random() * sizes[g]);
        rowSum += row[k];
        refSum += ref[k];
      }
      return rowSum / refSum;
    });
    // A resample whose reference slices answered nothing (a loaded machine, 1 connection) has no finite
    // ratio: it counts as unbounded, and an unbounded end is null in the interval (JSON has no Infinity).
    const value = statistic(sums);
    values.push(Number.isNaN(value) ? Number.POSITIVE_INFINITY : value);
  }
  values.sort((x, y) => x - y);
  return [round(percentile(values, 5)), round(percentile(values, 95))];
}

/** Whether a 90 % interval lies wholly on one side of a threshold (null: no interval; an end of null is ∞). */
export const isClear = (interval, min) =>
  interval === null
    ? null
    : (interval[0] ?? Number.POSITIVE_INFINITY) >= min || (interval[1] ?? Number.POSITIVE_INFINITY) < min;
export const formatInterval = (interval) =>
  interval ? `[${interval.map((x) => (x === null ? "∞" : x.toFixed(2))).join("–")}]` : "";

/** The 90 % interval of one row's throughput ratio to its reference, within one run. */
export const interval90 = (rowSlices, refSlices) => bootstrap90([[rowSlices, refSlices]], ([r]) => r);

/** A run's floor for task rows: the object floor where it ran (the object design), else (b) (the D1 design). */
export const floorOf = (results) => (results.rows.find((row) => row.id === "object")?.status === "ok" ? "object" : "b");

const runOf = (results, id, c) => results.rows.find((row) => row.id === id && row.status === "ok")?.runs?.[c];

/** A row's throughput ratio to a reference row in one run, with its 90 % interval. */
export function ratioIn(results, id, ref, c) {
  const row = runOf(results, id, c);
  const floor = runOf(results, ref, c);
  if (!row || !floor?.rps) return null;
  return { ratio: round(row.rps / floor.rps), interval90: interval90(row.sliceRps, floor.sliceRps) };
}

/**
 * Every task row that ran in both: its ratio to its own design's floor now and before, and whether the new
 * ratio is at least KEEP_SHARE of the old one. Met when it is, or when the 90 % interval of new ÷ old (both
 * runs' rounds resampled) spans KEEP_SHARE: within the runs' noise (`clear: false`, printed `?`).
 */
export function compareDesigns(current, previous, connections) {
  const floors = { current: floorOf(current), previous: floorOf(previous) };
  const rows = TASK_ROWS.filter((id) => runOf(current, id, connections[0]) && runOf(previous, id, connections[0]));
  return {
    floors,
    keepShare: KEEP_SHARE,
    rows: rows.map((id) => {
      const results = {};
      for (const c of connections) {
        const now = ratioIn(current, id, floors.current, c);
        const before = ratioIn(previous, id, floors.previous, c);
        if (!now || !before) continue;
        const share = round(now.ratio / before.ratio);
        const interval = bootstrap90(
          [
            [runOf(current, id, c).sliceRps, runOf(current, floors.current, c).sliceRps],
            [runOf(previous, id, c).sliceRps, runOf(previous, floors.previous, c).sliceRps],
          ],
          ([a, b]) => a / b,
        );
        const clear = isClear(interval, KEEP_SHARE);
        const pass = share >= KEEP_SHARE;
        results[c] = { now, before, share, interval90: interval, pass, clear, met: pass || clear === false };
      }
      return { id, label: current.rows.find((row) => row.id === id).label, results };
    }),
  };
}

/** The busiest server thread's CPU per response over the reference row's, in ms: steadier than throughput. */
function threadOver(results, id, ref, c) {
  const [row, floor] = [runOf(results, id, c), runOf(results, ref, c)];
  const ms = row?.busiestThreadMsPerRequest - floor?.busiestThreadMsPerRequest;
  return Number.isFinite(ms) ? `${ms >= 0 ? "+" : ""}${ms.toFixed(1)}` : "–";
}
const cell = (r) => (r ? `${r.ratio.toFixed(2)} ${formatInterval(r.interval90)}` : "–");
const verdict = (r) => `${r.pass ? "ok" : "MISS"}${r.clear === false ? "?" : ""}`;

/** The side-by-side tables, in Markdown: task rows against each design's floor, the other rows against (b). */
export function markdownTables(current, previous, connections, names = { previous: "earlier", current: "later" }) {
  const comparison = compareDesigns(current, previous, connections);
  const floorName = { b: "(b)", object: "the object floor" };
  const lines = [
    `| Task row | conn | ${names.previous} ÷ ${floorName[comparison.floors.previous]} | ${names.current} ÷ ${floorName[comparison.floors.current]} | ${names.current} ÷ ${names.previous} | ≥ ${KEEP_SHARE} × | thr ms over the floor, ${names.previous} → ${names.current} |`,
    "|---|---|---|---|---|---|---|",
  ];
  for (const row of comparison.rows)
    for (const c of connections) {
      const r = row.results[c];
      if (!r) continue;
      const share = `${r.share.toFixed(2)} ${formatInterval(r.interval90)}`;
      lines.push(
        `| ${c === connections[0] ? row.label : ""} | ${c} | ${cell(r.before)} | ${cell(r.now)} | ${share} | ${verdict(r)} | ${threadOver(previous, row.id, comparison.floors.previous, c)} → ${threadOver(current, row.id, comparison.floors.current, c)} |`,
      );
    }
  lines.push(
    "",
    `| Other row | conn | ${names.previous} ÷ (b) | ${names.current} ÷ (b) | thr ms over (b), ${names.previous} → ${names.current} |`,
    "|---|---|---|---|---|",
  );
  const others = current.rows.filter((row) => !TASK_ROWS.includes(row.id) && row.id !== "b" && row.status === "ok");
  for (const row of others)
    for (const c of connections)
      lines.push(
        `| ${c === connections[0] ? row.label : ""} | ${c} | ${cell(ratioIn(previous, row.id, "b", c))} | ${cell(ratioIn(current, row.id, "b", c))} | ${threadOver(previous, row.id, "b", c)} → ${threadOver(current, row.id, "b", c)} |`,
      );
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [previousFile, currentFile] = process.argv.slice(2);
  if (!previousFile || !currentFile) {
    console.error("usage: node scripts/bench-compare.mjs EARLIER.json LATER.json");
    process.exit(2);
  }
  const [previous, current] = [previousFile, currentFile].map((file) => JSON.parse(readFileSync(file, "utf8")));
  const names = { previous: basename(previousFile, ".json"), current: basename(currentFile, ".json") };
  console.log(markdownTables(current, previous, current.settings.connections, names));
}
