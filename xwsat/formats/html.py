"""A self-contained HTML page on which a person solves the puzzle in a browser.

One file, no network: the puzzle is embedded as JSON and a small script handles typing (any
alphabet), arrows, Tab/Shift-Tab between entries, Space or a second click to turn, Backspace,
and the Check / Reveal / Clear buttons. Opening the page with ``#selftest`` runs a scripted
session in the page and writes PASS/FAIL into the title (used by the headless-Chromium test).
"""

from __future__ import annotations

import json
from html import escape

from xwsat.formats.markup import plain_text
from xwsat.formats.puzzle import Puzzle
from xwsat.grid import BLOCK, EMPTY

_PAGE = """<!DOCTYPE html>
<html lang="%(lang)s"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%(title)s</title>
<style>
body{font-family:"DejaVu Sans",Arial,sans-serif;margin:16px;color:#111;background:#fafafa}
h1{font-size:20px;margin:0 0 8px}#credits{margin:-4px 0 8px;color:#444;font-size:14px}
#notes{max-width:760px;font-size:14px;color:#333;white-space:pre-wrap}
#wrap{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
#grid{display:grid;border:2px solid #111;background:#111;gap:1px;user-select:none}
.cell{position:relative;background:#fff;width:var(--s);height:var(--s);box-sizing:border-box;
 display:flex;align-items:center;justify-content:center;font-size:calc(var(--s)*0.6);cursor:pointer}
.cell.block{background:#111;cursor:default}
.cell.circled::before{content:"";position:absolute;inset:1px;border:1px solid #777;
 border-radius:50%%}
.cell .num{position:absolute;top:1px;left:2px;font-size:calc(var(--s)*0.27);color:#333}
.cell.word{background:#d7ecff}.cell.cur{background:#ffd54f}
.cell.given{color:#555;font-weight:bold}.cell.wrong{color:#c62828}.cell.revealed{color:#1565c0}
.cell.wrong::after{content:"";position:absolute;inset:0;border:2px solid #c62828}
#clues{display:flex;gap:20px;max-width:520px;font-size:14px}#clues>div{flex:1;min-width:200px}
#clues h2{font-size:16px;margin:0 0 6px}
#clues ol{list-style:none;padding:0;margin:0;max-height:70vh;overflow:auto;position:relative}
#clues li{padding:2px 6px;cursor:pointer}#clues li.on{background:#d7ecff}
#clues li b{display:inline-block;min-width:2.2em}
#bar{margin:8px 0;display:flex;gap:6px;align-items:center}
#current{min-height:1.4em;margin:6px 0;font-weight:bold}#msg{margin-left:8px}
</style></head><body>
<h1>%(title)s</h1>%(credits)s
<div id="bar"><button id="check">%(check)s</button><button id="revealcell">%(letter)s</button>
<button id="revealword">%(word)s</button><button id="reveal">%(all)s</button>
<button id="clear">%(clear)s</button><span id="msg"></span></div>
<div id="current"></div>
<div id="wrap"><div id="grid"></div><div id="clues">
<div><h2>%(across)s</h2><ol id="A"></ol></div><div><h2>%(down)s</h2><ol id="D"></ol></div>
</div></div>%(notes)s
<script id="puzzle" type="application/json">%(data)s</script>
<script>
"use strict";
const P = JSON.parse(document.getElementById("puzzle").textContent);
const W = P.width, H = P.height, N = W * H, SOLVED = "%(solved)s";
const state = P.pattern.join("").split("").map(ch => (ch === "#" || ch === ".") ? "" : ch);
const sol = P.solution ? P.solution.join("").split("") : null;
const isBlock = i => P.pattern[Math.floor(i / W)][i %% W] === "#";
const given = i => {
  const ch = P.pattern[Math.floor(i / W)][i %% W];
  return ch !== "#" && ch !== ".";
};
const slotsOf = {};  // cell -> {A: slot, D: slot}
P.slots.forEach((s, k) => {
  s.k = k;
  s.cells.forEach(c => { (slotsOf[c] = slotsOf[c] || {})[s.dir] = s; });
});
let cur = 0, dir = "A";
const gridEl = document.getElementById("grid"), cells = [];
gridEl.style.gridTemplateColumns = `repeat(${W}, var(--s))`;
const size = Math.max(24, Math.min(44, Math.floor(560 / Math.max(W, H))));
gridEl.style.setProperty("--s", size + "px");
const numbers = {}; P.slots.forEach(s => { numbers[s.cells[0]] = s.number; });
for (let i = 0; i < N; i++) {
  const el = document.createElement("div");
  el.className = "cell" + (isBlock(i) ? " block" : "") + (given(i) ? " given" : "")
    + (P.circles.includes(i) ? " circled" : "");
  el.dataset.i = i;
  if (numbers[i]) {
    const n = document.createElement("span");
    n.className = "num"; n.textContent = numbers[i]; el.appendChild(n);
  }
  const t = document.createElement("span"); t.className = "ch"; el.appendChild(t);
  if (!isBlock(i)) el.addEventListener("click", () => {
    if (i === cur) turn(); else { cur = i; fixDir(); }
    draw();
  });
  gridEl.appendChild(el); cells.push(el);
}
for (const d of ["A", "D"]) {
  const ol = document.getElementById(d);
  P.slots.filter(s => s.dir === d).forEach(s => {
    const li = document.createElement("li"); li.id = "clue-" + s.number + d;
    li.innerHTML = "<b></b><span></span>"; li.firstChild.textContent = s.number + ".";
    li.lastChild.textContent = s.clue || "(" + s.cells.length + ")";
    li.addEventListener("click", () => { cur = firstEmpty(s); dir = d; draw(); });
    ol.appendChild(li); s.li = li;
  });
}
const other = d => (d === "A" ? "D" : "A");
function slot() { const m = slotsOf[cur]; return m ? (m[dir] || m[other(dir)]) : null; }
function fixDir() { const m = slotsOf[cur] || {}; if (!m[dir]) dir = other(dir); }
function turn() { const m = slotsOf[cur] || {}; if (m[other(dir)]) dir = other(dir); }
function firstEmpty(s) { return s.cells.find(c => !state[c]) ?? s.cells[0]; }
function draw() {
  const s = slot(); const on = new Set(s ? s.cells : []);
  for (let i = 0; i < N; i++) {
    if (isBlock(i)) continue;
    cells[i].classList.toggle("cur", i === cur);
    cells[i].classList.toggle("word", on.has(i) && i !== cur);
    cells[i].querySelector(".ch").textContent = state[i];
  }
  P.slots.forEach(x => x.li.classList.toggle("on", x === s));
  const head = s && s.dir === "A" ? " %(across)s: " : " %(down)s: ";
  const clue = s ? s.clue || "(" + s.cells.length + ")" : "";
  document.getElementById("current").textContent = s ? s.number + head + clue : "";
  if (s) {  // keep the clue in view inside its list, never scroll the page
    const ol = s.li.parentElement, top = s.li.offsetTop;
    if (top < ol.scrollTop || top + s.li.offsetHeight > ol.scrollTop + ol.clientHeight) {
      ol.scrollTop = Math.max(0, top - ol.clientHeight / 3);
    }
  }
}
function move(dr, dc) {
  let r = Math.floor(cur / W), c = cur %% W;
  for (;;) {
    r += dr; c += dc;
    if (r < 0 || r >= H || c < 0 || c >= W) return;
    const i = r * W + c;
    if (!isBlock(i) && slotsOf[i]) { cur = i; return; }
  }
}
function step(back) {
  const s = slot(); if (!s) return; const k = s.cells.indexOf(cur) + (back ? -1 : 1);
  if (k >= 0 && k < s.cells.length) cur = s.cells[k];
}
function nextSlot(back) {
  const s = slot(); const order = P.slots; const k = s ? s.k : -1; const n = order.length;
  const t = order[((k + (back ? -1 : 1)) %% n + n) %% n]; dir = t.dir; cur = firstEmpty(t);
}
function type(ch) {
  if (!given(cur)) { state[cur] = ch; cells[cur].classList.remove("wrong", "revealed"); }
  step(false); solvedCheck();
}
function solvedCheck() {
  if (!sol) return;
  const done = state.every((ch, i) => isBlock(i) || ch === sol[i]);
  document.getElementById("msg").textContent = done ? SOLVED : "";
}
document.addEventListener("keydown", e => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key;
  const here = slotsOf[cur] || {};
  if (k === "ArrowLeft" || k === "ArrowRight") {
    if (dir !== "A" && here.A) dir = "A"; else move(0, k === "ArrowLeft" ? -1 : 1);
  } else if (k === "ArrowUp" || k === "ArrowDown") {
    if (dir !== "D" && here.D) dir = "D"; else move(k === "ArrowUp" ? -1 : 1, 0);
  }
  else if (k === "Tab") nextSlot(e.shiftKey);
  else if (k === " ") turn();
  else if (k === "Backspace") {
    if (!state[cur] || given(cur)) step(true);
    if (!given(cur)) state[cur] = "";
  }
  else if (k === "Delete") { if (!given(cur)) state[cur] = ""; }
  else if (k.length === 1 && /\\p{L}/u.test(k)) type(k.toLocaleUpperCase());
  else return;
  e.preventDefault(); draw();
});
function check(list) {
  if (!sol) return;
  list.forEach(i => { cells[i].classList.toggle("wrong", !!state[i] && state[i] !== sol[i]); });
}
function reveal(list) {
  if (!sol) return;
  list.forEach(i => {
    if (state[i] === sol[i]) return;
    state[i] = sol[i]; cells[i].classList.add("revealed"); cells[i].classList.remove("wrong");
  });
  solvedCheck(); draw();
}
const white = [...Array(N).keys()].filter(i => !isBlock(i));
document.getElementById("check").onclick = () => check(white);
document.getElementById("revealcell").onclick = () => reveal([cur]);
document.getElementById("revealword").onclick = () => reveal(slot() ? slot().cells : []);
document.getElementById("reveal").onclick = () => reveal(white);
document.getElementById("clear").onclick = () => {
  white.forEach(i => {
    if (!given(i)) state[i] = "";
    cells[i].classList.remove("wrong", "revealed");
  });
  solvedCheck(); draw();
};
for (const id of ["check", "revealcell", "revealword", "reveal"]) {
  document.getElementById(id).disabled = !sol;
}
if (P.slots.length) { cur = firstEmpty(P.slots[0]); dir = P.slots[0].dir; }
fixDir(); draw();
if (location.hash === "#selftest") {
  const key = (k, shift) => document.dispatchEvent(
    new KeyboardEvent("keydown", {key: k, shiftKey: !!shift, bubbles: true}));
  const out = [];
  const ok = (name, cond) => out.push((cond ? "ok " : "FAIL ") + name);
  const s0 = P.slots[0];
  const free = s0.cells.filter(c => !given(c));
  if (sol && free.length) {
    cur = free[0]; dir = s0.dir; draw();
    const wrong = sol[free[0]] === "Q" ? "Z" : "Q";
    key(wrong.toLowerCase()); ok("typing fills a cell in upper case", state[free[0]] === wrong);
    ok("typing advances along the entry", free.length < 2 || cur !== free[0]);
    document.getElementById("check").click();
    ok("check marks a wrong letter", cells[free[0]].classList.contains("wrong"));
    cur = free[0]; draw(); key("Backspace"); ok("backspace clears", state[free[0]] === "");
    key(sol[free[0]]);
    ok("a right letter is not wrong", !cells[free[0]].classList.contains("wrong"));
    key("Tab"); ok("tab moves to the next entry", slot() === P.slots[1 %% P.slots.length]);
    key("Tab", true); ok("shift-tab moves back", slot() === s0);
    const before = cur; key(s0.dir === "A" ? "ArrowDown" : "ArrowRight");
    ok("an arrow across the entry turns first",
       dir !== s0.dir || !(slotsOf[before] || {})[other(dir)]);
    document.getElementById("reveal").click();
    ok("reveal all solves the puzzle", document.getElementById("msg").textContent === SOLVED);
    document.getElementById("clear").click();
    ok("clear empties the grid", white.every(i => given(i) || state[i] === ""));
  } else ok("page has a solution to test with", false);
  const failed = out.filter(x => x.startsWith("FAIL")).length;
  const pre = document.createElement("pre");
  pre.id = "selftest"; pre.textContent = out.join("\\n"); document.body.appendChild(pre);
  document.title = (failed ? "SELFTEST FAIL " : "SELFTEST PASS ") + out.length;
}
</script></body></html>
"""

_WORDS = {  # across, down, check, reveal letter / word / all, clear, solved
    "en": ("Across", "Down", "Check", "Reveal letter", "Reveal word", "Reveal all", "Clear",
           "Solved!"),
    "ru": ("По горизонтали", "По вертикали", "Проверить", "Открыть букву", "Открыть слово",
           "Открыть всё", "Очистить", "Решено!"),
    "es": ("Horizontales", "Verticales", "Comprobar", "Revelar letra", "Revelar palabra",
           "Revelar todo", "Borrar", "¡Resuelto!"),
}


def unchecked_note(puzzle: Puzzle) -> str | None:
    """Why the page will not check answers, when its solution leaves white cells without a
    letter (cells in no entry of a --min-length fill): said, not silently a page without
    Check and Reveal."""
    if puzzle.solution is None:
        return None
    solution = puzzle.solution
    empty = [c for c in range(solution.width * solution.height) if solution.cell(c) == EMPTY]
    if not empty:
        return None
    covered = {c for slot in puzzle.slots for c in slot.cells}
    loose = sum(c not in covered for c in empty)
    where = ("in no entry" if loose == len(empty) else
             ("in an entry" if len(empty) == 1 else "in entries") if not loose
             else f"{loose} of them in no entry")
    return (f"note: {len(empty)} white cell{'s' if len(empty) != 1 else ''} of the solution "
            f"{'have' if len(empty) != 1 else 'has'} no letter ({where}), so the page cannot "
            "check or reveal answers")


def page_language(puzzle: Puzzle) -> str:
    """The headings' language read off the puzzle's letters, for a page made without an
    embedded list to name it: Cyrillic is Russian, Ñ Spanish, anything else English."""
    letters = "".join((puzzle.solution or puzzle.pattern).rows).upper()
    if any("\u0400" <= ch <= "\u04ff" for ch in letters):
        return "ru"
    return "es" if "Ñ" in letters else "en"


def write_html(puzzle: Puzzle, lang: str | None = None) -> str:
    """The solving page for ``puzzle``; ``lang`` picks the Across/Down headings (en, ru, es;
    None: ``page_language``)."""
    lang = lang or page_language(puzzle)
    across, down, check, letter, word, everything, clear, solved = _WORDS.get(lang, _WORDS["en"])
    data = {
        "width": puzzle.pattern.width,
        "height": puzzle.pattern.height,
        "pattern": list(puzzle.pattern.rows),
        "solution": list(puzzle.solution.rows) if puzzle.solution is not None
        and not any(EMPTY in row for row in puzzle.solution.rows) else None,
        "circles": sorted(puzzle.circles),
        "slots": [
            {"number": s.number, "dir": s.direction, "cells": list(s.cells),
             "clue": plain_text(puzzle.clues.get(s.name, ""))}
            for s in puzzle.slots
        ],
    }
    assert BLOCK == "#" and EMPTY == "."  # the script relies on these two characters
    # Inside <script>, "<!--", "<script" and "</" change how HTML parses the rest of the page,
    # whatever the script's type: "<", ">" and "&" only occur in JSON strings, so escape them all.
    payload = (json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")
               .replace(">", "\\u003e").replace("&", "\\u0026"))
    credits = [plain_text(c) for c in (puzzle.author, puzzle.copyright) if c]  # as the files say
    return _PAGE % {
        "lang": escape(lang), "title": escape(plain_text(puzzle.title) or "Crossword"),
        "credits": (f'<div id="credits">{" · ".join(escape(c) for c in credits)}</div>'
                    if credits else ""),
        "notes": f'<p id="notes">{escape(plain_text(puzzle.notes))}</p>' if puzzle.notes else "",
        "across": escape(across), "down": escape(down), "data": payload,
        "check": escape(check), "letter": escape(letter), "word": escape(word),
        "all": escape(everything), "clear": escape(clear), "solved": escape(solved),
    }
