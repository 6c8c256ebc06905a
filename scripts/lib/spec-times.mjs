// The e2e lanes from measured times: e2e/spec-times.json keeps each spec
// file's seconds on the newest pair, the mean of its last figure and the new
// run's (one run's time of a file swings by a factor of two with what the
// other lane runs beside it; the mean keeps a swing from unbalancing the
// next split), written by e2e/run.mjs after each such run and committed by
// engineers; and the newest pair's spec
// files are split between the two lanes from them, greedily, longest first,
// each to the lane with less to do; lane b also carries the oldest pair's run
// and the Playground smoke run. A file with no figure yet counts as the
// median of the known ones.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Reads the times file; an absent or unreadable one is empty (every file then counts the same). */
export function readSpecTimes(file) {
  if (!existsSync(file)) {
    return { runs: {}, specs: {} };
  }
  const data = JSON.parse(readFileSync(file, 'utf8'));
  return { ...data, runs: data.runs ?? {}, specs: data.specs ?? {} };
}

/** The seconds a spec file is expected to take: its figure, else the median of the known ones (else 60). */
export function estimator(times) {
  const known = Object.values(times.specs)
    .filter((s) => Number.isFinite(s))
    .sort((a, b) => a - b);
  const median = known.length ? known[Math.floor(known.length / 2)] : 60;
  return (file) => {
    const name = file.split('/').pop();
    return Number.isFinite(times.specs[name]) ? times.specs[name] : median;
  };
}

/**
 * Splits `files` (specs/x.spec.ts) into lanes. `lanes` lists each lane's fixed
 * seconds (runs it carries whatever the split: lane b's oldest and smoke
 * runs). Longest first, each file to the lane with the least seconds so far
 * (the first such lane on a tie); the order of the files within a lane is
 * their name order. Returns [{ files, seconds }] per lane.
 */
export function splitLanes(files, times, lanes) {
  const estimate = estimator(times);
  const out = lanes.map((fixed) => ({ files: [], seconds: fixed }));
  const ordered = [...files].sort((a, b) => estimate(b) - estimate(a) || a.localeCompare(b));
  for (const file of ordered) {
    const lane = out.reduce((best, l) => (l.seconds < best.seconds ? l : best), out[0]);
    lane.files.push(file);
    lane.seconds += estimate(file);
  }
  for (const lane of out) {
    lane.files.sort();
  }
  return out;
}

/**
 * Writes the measured figures into the times file: `specs` ([file, seconds]
 * from the newest pair's reports) and `runs` ({ oldest: seconds, ... }), each
 * the mean of the figure kept and the one measured (the measured one alone
 * when none was kept). Files not measured this time keep their figures; a spec file that no longer
 * exists (not in `existing`) is dropped. Returns whether the file changed.
 */
export function recordSpecTimes(file, { specs = [], runs = {}, existing = null }) {
  const times = readSpecTimes(file);
  const next = { ...times, runs: { ...times.runs }, specs: { ...times.specs } };
  const mean = (kept, seconds) => Math.round(Number.isFinite(kept) ? (kept + seconds) / 2 : seconds);
  for (const [name, seconds] of specs) {
    const key = name.split('/').pop();
    next.specs[key] = mean(next.specs[key], seconds);
  }
  for (const [name, seconds] of Object.entries(runs)) {
    next.runs[name] = mean(next.runs[name], seconds);
  }
  if (existing) {
    const names = new Set(existing.map((f) => f.split('/').pop()));
    for (const name of Object.keys(next.specs)) {
      if (!names.has(name)) {
        delete next.specs[name];
      }
    }
  }
  next.specs = Object.fromEntries(Object.entries(next.specs).sort(([a], [b]) => a.localeCompare(b)));
  const text = `${JSON.stringify(next, null, 2)}\n`;
  if (existsSync(file) && readFileSync(file, 'utf8') === text) {
    return false;
  }
  writeFileSync(file, text);
  return true;
}

/** The `count` slowest [file, seconds] of the reports' files, slowest first. */
export function slowest(entries, count = 10) {
  return [...entries].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, count);
}
