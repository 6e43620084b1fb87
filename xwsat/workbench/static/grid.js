// The grid as SVG, drawn from the server's state and the page's cursor; computes nothing.
const NS = "http://www.w3.org/2000/svg";

function el(name, attrs, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

export function cellSize(width, height) {
  return Math.max(20, Math.min(38, Math.floor(600 / Math.max(width, height))));
}

// The slot through a cell in a direction, from the insight's slot list.
// The insight's slots; when the server could not build them (letters the chosen list lacks),
// the runs of two or more white cells, so typing and Tab still move along the entries.
export function slotsOf(view) {
  if (view.insight.slots && view.insight.slots.length) return view.insight.slots;
  const rows = view.doc.rows, h = rows.length, w = rows[0].length;
  const white = (r, c) => r >= 0 && c >= 0 && r < h && c < w && rows[r][c] !== "#";
  const runs = { A: [], D: [] };
  let number = 0;
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      if (!white(r, c)) continue;
      const across = !white(r, c - 1) && white(r, c + 1), down = !white(r - 1, c) && white(r + 1, c);
      if (!across && !down) continue;
      number += 1;
      for (const [dir, go, dr, dc] of [["A", across, 0, 1], ["D", down, 1, 0]]) {
        if (!go) continue;
        const cells = [];
        for (let rr = r, cc = c; white(rr, cc); rr += dr, cc += dc) cells.push(rr * w + cc);
        const pattern = cells.map((x) => rows[Math.floor(x / w)][x % w]).join("");
        runs[dir].push({ name: `${number}${dir}`, cells, pattern });
      }
    }
  }
  return [...runs.A, ...runs.D];
}

export function slotAt(view, cell, dir) {
  const slots = slotsOf(view);
  return slots.find((s) => s.name.endsWith(dir) && s.cells.includes(cell)) || null;
}

function outline(svg, cells, width, size, cls) {
  const rows = cells.map((c) => Math.floor(c / width));
  const cols = cells.map((c) => c % width);
  const top = Math.min(...rows), left = Math.min(...cols);
  const bottom = Math.max(...rows), right = Math.max(...cols);
  svg.appendChild(el("rect", { class: cls, x: left * size + 1.5, y: top * size + 1.5,
    width: (right - left + 1) * size - 3, height: (bottom - top + 1) * size - 3 }));
}

export function drawGrid(svg, view, ui) {
  const rows = view.doc.rows;
  const height = rows.length, width = rows[0].length;
  const size = cellSize(width, height);
  svg.setAttribute("width", width * size + 1);
  svg.setAttribute("height", height * size + 1);
  svg.replaceChildren();
  const insight = view.insight;
  const slots = insight.slots || [];
  const fewest = new Map(); // cell -> fewest candidates of the slots through it
  for (const s of slots) {
    if (!s.pattern.includes(".")) continue;
    for (const c of s.cells) fewest.set(c, Math.min(fewest.get(c) ?? Infinity, s.candidates));
  }
  const locked = new Set(view.doc.locks.flatMap((l) => l.cells));
  const current = ui.cell !== null ? slotAt(view, ui.cell, ui.dir) : null;
  const inSlot = new Set(current ? current.cells : []);
  const asym = new Set(view.stats.asymmetric);
  const cheaters = new Set(view.stats.cheaters);
  const circled = new Set(view.doc.circles || []);
  const suggestion = ui.suggestion || {};
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const cell = r * width + c;
      const ch = rows[r][c];
      const x = c * size, y = r * size;
      let fill = "#fff";
      if (ch === "#") fill = "#1d2330";
      else if (cell === ui.cell) fill = "#8fbaff";
      else if (inSlot.has(cell)) fill = "#d6e6ff";
      else if (locked.has(cell)) fill = "#ece8fb";
      else if (fewest.has(cell)) {
        const n = fewest.get(cell);
        if (n === 0) fill = "#f9d0d0";
        else if (n <= 3) fill = "#fde2c4";
        else if (n <= 20) fill = "#fdf3d2";
      }
      svg.appendChild(el("rect", { class: ch === "#" ? "cell block" : "cell", x, y,
        width: size, height: size, fill, "data-cell": cell }));
      if (ch === "#" && cheaters.has(cell)) {
        svg.appendChild(el("circle", { class: "cheater", cx: x + size / 2, cy: y + size / 2, r: size / 9 }));
      }
      if (ch !== "#" && circled.has(cell)) { // a theme's circled square, as the file had it
        svg.appendChild(el("circle", { class: "circled", cx: x + size / 2, cy: y + size / 2, r: size / 2 - 1.5 }));
      }
      if (asym.has(cell)) {
        svg.appendChild(el("path", { class: "asym", d: `M${x + size} ${y}h-${size / 3.2}l${size / 3.2} ${size / 3.2}z` }));
      }
      const number = view.numbers[String(cell)];
      if (number) svg.appendChild(el("text", { class: "num", x: x + 2, y: y + 10 }, number));
      const letterSize = Math.round(size * 0.58);
      let text = "", cls = "letter";
      if (ch !== "#" && suggestion[String(cell)]) { // a suggested fill shows over the old letters
        text = suggestion[String(cell)]; cls += " suggested";
      } else if (ch !== "#" && ch !== ".") {
        text = ch; if (locked.has(cell)) cls += " locked";
      } else if (ch === "." && insight.forced && insight.forced[String(cell)]) {
        text = insight.forced[String(cell)]; cls += " forced";
      }
      if (text) {
        svg.appendChild(el("text", { class: cls, x: x + size / 2, y: y + size * 0.58,
          "font-size": letterSize }, text));
      }
    }
  }
  // an unfillable grid's core, else the slots that keep autofill's fill from the level above
  const whyNot = ui.autofill && ui.autofill.why_not ? ui.autofill.why_not.cells : [];
  const core = ui.core && ui.core.length ? ui.core : whyNot;
  for (const cell of core) {
    const x = (cell % width) * size, y = Math.floor(cell / width) * size;
    svg.appendChild(el("rect", { class: "core-cell", x: x + 1, y: y + 1, width: size - 2, height: size - 2 }));
  }
  for (const name of Object.keys(insight.dead || {})) {
    const s = slots.find((t) => t.name === name);
    if (s) outline(svg, s.cells, width, size, "dead-outline");
  }
  if (insight.conflict) {
    for (const name of insight.conflict.slots) {
      const s = slots.find((t) => t.name === name);
      if (s) outline(svg, s.cells, width, size, "conflict-outline");
    }
  }
  if (ui.region) {
    const [top, left, bottom, right] = ui.region;
    svg.appendChild(el("rect", { class: "region", x: left * size + 1, y: top * size + 1,
      width: (right - left + 1) * size - 2, height: (bottom - top + 1) * size - 2 }));
  }
}
