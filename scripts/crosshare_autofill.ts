// Runs Crosshare's autofiller outside its web app, for scripts/quality_bench.py: the folder this
// file is copied into holds Crosshare's own app/lib/*.ts files, unchanged, under lib/, and the
// npm packages they import (see results/quality/README.md).
// node --import tsx crosshare_autofill.ts GRID LIST MIN_SCORE SECONDS [CUTS]
// prints {"rows": the best fill found (or null), "completed": search over, times}. A list's
// scores become Crosshare's four tiers 0-3 at CUTS (default 30,40,50: how Crosshare's own
// word-list builder maps Spread the Wordlist). The word database is built before the clock
// starts (the web app keeps it built).
import fs from 'fs';
import { Autofiller } from './lib/Autofiller.js';
import { rawBuild, setDb } from './lib/WordDB.js';

const [gridPath, listPath, minArg, secArg, tierArg] = process.argv.slice(2);
const min = Number(minArg), seconds = Number(secArg);
const cuts = (tierArg ?? '30,40,50').split(',').map(Number); // Crosshare's Spread the Wordlist map
const rows = fs.readFileSync(gridPath, 'utf8').split('\n').map((r) => r.trim()).filter((r) => r);
const words: [string, number][] = [];
for (const line of fs.readFileSync(listPath, 'utf8').split('\n')) {
  const [w, s] = line.split(';');
  if (!w) continue;
  const score = Number(s ?? 50);
  if (score < min || w.length > 21 || !/^[A-Z]+$/.test(w)) continue;
  const tier = cuts.filter((c) => score >= c).length as 0 | 1 | 2 | 3;
  words.push([w, tier]);
}
const t0 = Date.now();
setDb(rawBuild(words));
const built = Date.now();
const cells = rows.join('').split('').map((c) => (c === '#' ? '.' : ' '));
let best: string[] | null = null;
const filler = new Autofiller(cells, rows[0]!.length, rows.length, new Set(), new Set(),
  (_input, result) => { best = result; }, () => {});
const stop = built + seconds * 1000;
while (!filler.completed && Date.now() < stop) filler.step();
const width = rows[0]!.length;
const out = best === null ? null
  : rows.map((_, r) => (best as string[]).slice(r * width, (r + 1) * width).map((c) => (c === '.' ? '#' : c)).join(''));
console.log(JSON.stringify({ rows: out, completed: filler.completed, build_s: (built - t0) / 1000,
  search_s: (Date.now() - built) / 1000 }));
