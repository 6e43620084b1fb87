// The side panels: the selected entry, its candidates, the pattern's figures, clues.
const MARK = { fillable: "✓", unfillable: "✗", unknown: "…" };
const MARK_TITLE = { fillable: "keeps the grid fillable", unfillable: "makes the grid unfillable",
  unknown: "not yet known" };

function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// ban(word, refill): ban the word for this puzzle; refill: and autofill again without it.
export function drawEntry(box, view, slot, act, suggested, ban) {
  const locks = view.doc.locks.map((l) => `${l.cells[0]}:${l.word}`).join(",");
  const key = slot ? `${view.asked}|${slot.name}|${slot.pattern}|${locks}|${suggested || ""}` : "";
  if (box.dataset.key === key) return; // unchanged: keep what is being typed there
  box.dataset.key = key;
  box.replaceChildren();
  if (!slot) {
    box.append(h("div", { class: "muted" }, "Click a cell to select an entry."));
    return;
  }
  const locked = view.doc.locks.find((l) => l.cells[0] === slot.cells[0] &&
    l.cells.length === slot.cells.length && l.cells.every((c, i) => c === slot.cells[i]));
  const dead = (view.insight.dead || {})[slot.name];
  box.append(h("div", { class: "title" }, `${slot.name} · ${slot.cells.length} letters `,
    h("span", { class: "pattern" }, slot.pattern)));
  const count = slot.candidates === undefined ? "words not counted: the grid cannot be checked (see the verdict)"
    : slot.pattern.includes(".")
    ? `${slot.candidates.toLocaleString()} words fit after arc consistency (${slot.matching.toLocaleString()} match its letters)`
    : (dead ? "" : "complete");
  box.append(h("div", { class: dead ? "dead" : "muted", id: "entry-info" }, dead || count));
  const input = h("input", { id: "theme-word", placeholder: "theme entry to lock", maxlength: "30" });
  const row = h("div", { class: "row" });
  if (locked) {
    row.append(h("button", { id: "unlock", onclick: () => act({ type: "unlock", slot: slot.name }) },
      `Unlock ${locked.word}`));
  } else {
    const lock = () => {
      const word = input.value.trim();
      act(word ? { type: "lock", slot: slot.name, word } : { type: "lock", slot: slot.name });
    };
    input.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); lock(); } });
    row.append(input, h("button", { id: "lock", onclick: lock }, "Lock"));
  }
  const word = suggested || (slot.pattern.includes(".") ? null : slot.pattern);
  // a typed entry no word matches (not in the list, or below the minimum) has nothing to ban
  if (word && !locked && (suggested || !dead) && !(view.dictionary.bans || []).includes(word)) {
    const title = suggested ? `Leave ${word} out of every fill of this puzzle, and autofill again`
      : `Leave ${word} out of every fill of this puzzle (the entry is then shown as banned)`;
    row.append(h("button", { id: "ban-entry", title, onclick: () => ban(word, !!suggested) },
      suggested ? `Ban ${word} and refill` : `Ban ${word}`));
  }
  box.append(row);
}

export function drawBans(box, bans, ban) {
  box.replaceChildren();
  box.hidden = !bans.length;
  if (!bans.length) return;
  box.append("Banned for this puzzle: ");
  for (const word of bans) {
    box.append(h("button", { class: "unban", title: `Lift the ban on ${word}`,
      onclick: () => ban(word, false, true) }, `${word} ×`), " ");
  }
}

export function drawCandidates(list, counter, result, pick, ban) {
  // the list is drawn again as its words are decided: a word or × the keyboard is on keeps it
  const active = document.activeElement;
  const held = active && list.contains(active)
    ? { word: active.closest("li").dataset.word, ban: active.classList.contains("ban"),
      at: [...list.children].indexOf(active.closest("li")) } : null;
  list.replaceChildren();
  if (!result || !result.candidates) { counter.textContent = ""; return; } // stopped before any word
  const decided = result.candidates.filter((c) => c.verdict !== "unknown").length;
  counter.textContent = `${result.total.toLocaleString()} match its letters · ${decided} of the best marked`;
  for (const c of result.candidates) {
    // a word is picked with Enter or Space too: reached by Tab before its ban ×
    list.append(h("li", { class: c.verdict, title: `${MARK_TITLE[c.verdict]}${c.how ? ` (${c.how})` : ""}`,
      tabindex: "0", role: "button", "aria-label": `Put ${c.word} in the entry`, dataset: { word: c.word },
      onclick: () => pick(c.word),
      onkeydown: (event) => {
        if (event.target === event.currentTarget && (event.key === "Enter" || event.key === " ")) {
          event.preventDefault(); pick(c.word);
        }
      } },
    h("span", { class: "m" }, MARK[c.verdict]), h("span", { class: "w" }, c.word),
    h("span", { class: "s" }, String(c.score)),
    h("button", { class: "ban", title: `Ban ${c.word} for this puzzle`, "aria-label": `Ban ${c.word}`,
      onclick: (event) => { event.stopPropagation(); ban(c.word, false); } }, "×")));
  }
  if (held) { // the same word; one banned from the keyboard: the word that took its place
    const items = [...list.children];
    const again = items.find((li) => li.dataset.word === held.word);
    const next = again || items[Math.min(held.at, items.length - 1)];
    if (next) (again && held.ban ? next.querySelector(".ban") : next).focus();
  }
}

export function drawStats(box, stats, size) {
  const rows = [
    ["Words", `${stats.words}${size === 15 && stats.words > 78 ? " (over 78)" : ""}`, size === 15 && stats.words > 78],
    ["Blocks", String(stats.blocks)],
    ["Mean length", stats.mean_length.toFixed(2)],
    ["3-letter", String(stats.three_letter)],
    ["2-letter", stats.two_letter.length ? stats.two_letter.join(", ") : "none", stats.two_letter.length > 0],
    ["Cheaters", String(stats.cheaters.length)],
    ["Symmetry", stats.asymmetric.length ? `${stats.symmetry}: broken at ${stats.asymmetric.length} cells` : (stats.symmetry === "none" ? "not checked" : `${stats.symmetry}: kept`), stats.asymmetric.length > 0],
    ["Connected", stats.regions > 1 ? `no: ${stats.regions} regions` : "yes", stats.regions > 1],
    ["Repeats", stats.repeated.length ? stats.repeated.map((r) => r.join("=")).join("; ") : "none", stats.repeated.length > 0],
    ["Shared", stats.shared.length ? stats.shared.map(([a, b, p]) => `${a}/${b}: ${p}`).join("; ") : "none", stats.shared.length > 0],
  ];
  box.replaceChildren(...rows.flatMap(([k, v, warn]) => [h("dt", {}, k), h("dd", { class: warn ? "warn" : "" }, v)]));
}

export function drawClues(box, view, selected, setClue) {
  const focused = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.slot : null;
  if (focused) return; // do not redraw under the constructor's typing
  box.replaceChildren();
  const clues = view.doc.clues, hints = view.clue_hints || {};
  for (const [dir, title] of [["A", "Across"], ["D", "Down"]]) {
    box.append(h("h3", {}, title));
    for (const s of (view.insight.slots || []).filter((t) => t.name.endsWith(dir))) {
      const input = h("input", { dataset: { slot: s.name }, value: clues[s.name] || "",
        placeholder: hints[s.name] || "" });
      input.addEventListener("input", () => setClue(s.name, input.value, true));
      input.addEventListener("change", () => setClue(s.name, input.value, false));
      box.append(h("div", { class: `clue${s.name === selected ? " on" : ""}` },
        h("span", {}, s.name), h("div", {}, input, h("div", { class: "ans" }, s.pattern))));
    }
  }
}
