// The page: one WebSocket to the server, which owns the document (its reducer and undo) and
// computes everything shown; here live the cursor, the selection and drawing, the letters just
// typed (shown before the server's state holds them) and the tab's kept copy of the grid.
import { drawGrid, slotAt, slotsOf, cellSize } from "./grid.js";
import { drawEntry, drawBans, drawCandidates, drawStats, drawClues } from "./panels.js";

const $ = (id) => document.getElementById(id);
const ui = { cell: null, dir: "A", region: null, dragFrom: null, suggestion: null, core: [],
  candidates: null, selectedSlot: null, autofill: null, decide: null };
let view = null;
let serverRows = null; // the grid as the server last sent it (the page shows its own edits at once)
let socket = null;
let selectTimer = null;

let offline = false;

let sent = 0; // messages sent; the server says up to which one it has handled ("acked")
let pending = []; // letters typed and shown, not yet in a state from the server

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    message.seq = ++sent;
    socket.send(JSON.stringify(message));
    return true;
  }
  say("The server is not running: nothing was changed. Your grid is kept in this browser and comes back when the server runs again.");
  return false;
}
const act = (action) => send({ type: "action", action });

// One message box: refusals and errors in red, news that is not a problem ("notice") in blue.
function say(text, notice = false) {
  const box = $("message");
  box.hidden = !text;
  box.textContent = text || "";
  box.classList.toggle("notice", notice);
  say.refusedAt = text && !notice ? sent : null; // a later edit the server takes clears a refusal
  if (text) { clearTimeout(say.timer); say.timer = setTimeout(() => { box.hidden = true; }, 6000); }
}

// A server that stops leaves the page offline (every edit refused, said once per try); the
// page tries again every few seconds, and a new server restores the grid this tab kept.
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.onopen = () => { if (offline) { offline = false; restoring = null; say(""); } };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    if (!offline && view) { offline = true; ui.autofill = null; ui.autofillSent = false; ui.patterns = null; render(); }
    offline = true;
    setTimeout(connect, 3000);
  };
}

// The document is also kept in the browser, so a reload or a restarted server loses nothing:
// a new page whose grid is still the blank one asks the server to restore the kept one.
// Each tab keeps its own grid (a tab's id lives in sessionStorage, which a reload keeps and a
// new tab does not), so two tabs never write over each other's. A new tab takes the latest
// grid of a tab that is gone (closed, or the browser restarted), never one still open.
const KEPT = "xwsat-document:";
const ALIVE = "xwsat-alive:";
const GONE_MS = 90000; // a tab silent this long is gone (a closed one says so as it goes; a
// hidden tab's timers may run only once a minute)
const KEEP_AT_MOST = 30; // kept grids of tabs that are gone, newest first
let restoring = null; // null: not yet decided for this page; then true or false
const newId = () => Math.random().toString(36).slice(2, 12);
let tab = sessionStorage.getItem("xwsat-tab");
if (tab && alive(tab)) { // a duplicated tab carries its original's id: it takes a copy, own id
  const copy = localStorage.getItem(KEPT + tab);
  tab = newId();
  if (copy) localStorage.setItem(KEPT + tab, copy);
}
tab = tab || newId();
sessionStorage.setItem("xwsat-tab", tab);
window.addEventListener("pagehide", () => localStorage.removeItem(ALIVE + tab)); // closed or reloaded

function alive(id) {
  return Date.now() - Number(localStorage.getItem(ALIVE + id) || 0) < GONE_MS;
}

function stored(key) {
  try { return JSON.parse(localStorage.getItem(key) || "null"); } catch { return null; }
}

function heartbeat() {
  try { localStorage.setItem(ALIVE + tab, String(Date.now())); } catch { /* storage off */ }
}

// This tab's kept grid; for a new tab, the newest grid a gone tab kept and no tab took yet,
// copied (never moved: the gone tab may come back, a discarded tab reloads with its own id).
function keptDocument() {
  const own = stored(KEPT + tab);
  if (own) return own;
  const gone = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const owner = key && key.startsWith(KEPT) ? key.slice(KEPT.length) : null;
    if (key !== "xwsat-document" && owner === null) continue; // the one key of earlier pages too
    if (owner && alive(owner)) continue;
    const doc = stored(key);
    if (doc && doc.rows) gone.push({ key, doc });
  }
  gone.sort((a, b) => (b.doc.saved || 0) - (a.doc.saved || 0));
  for (const old of gone.slice(KEEP_AT_MOST)) localStorage.removeItem(old.key);
  const best = gone.find((g) => !g.doc.taken && !isBlank(g.doc));
  if (!best) return null;
  try {
    if (best.key === "xwsat-document") localStorage.removeItem(best.key);
    else localStorage.setItem(best.key, JSON.stringify({ ...best.doc, taken: true }));
  } catch { /* storage full: it may be offered again */ }
  return best.doc;
}
heartbeat();
setInterval(heartbeat, 2000);
setInterval(() => { if (ui.autofill && ui.autofill.status === "searching") renderFill(); }, 1000);

// A clue or credit as the server keeps it (document.MAX_TEXT): a pasted megabyte kept whole
// would make the restore message larger than the server takes, and the page would retry forever.
const MAX_TEXT = 2000;
function cut(text) { return typeof text === "string" ? text.slice(0, MAX_TEXT) : ""; }
function cutTexts(doc) {
  const clues = Object.fromEntries(Object.entries(doc.clues || {}).map(([k, v]) => [k, cut(v)]));
  return { ...doc, clues, title: cut(doc.title), author: cut(doc.author), copyright: cut(doc.copyright), notes: cut(doc.notes) };
}

function isBlank(doc) { // the grid a new page opens with: nothing to bring back
  return doc.rows.length === 15 && doc.rows[0].length === 15
    && doc.rows.every((row) => /^\.*$/.test(row)) && !(doc.locks || []).length
    && !Object.keys(doc.clues || {}).length && !doc.title && !doc.author && !doc.notes;
}

// The grid a New or Open replaced, kept with the tab's grid: a reload brings it back as the
// state before the current one, so Undo still finds it (the page says Undo brings it back).
let before = null;
const DOC_FIELDS = ["rows", "locks", "clues", "circles", "title", "author", "copyright", "notes"];
function sameDoc(a, b) {
  return DOC_FIELDS.every((field) => JSON.stringify(a[field] ?? null) === JSON.stringify(b[field] ?? null));
}
function replacedBy(doc) {
  before = Object.fromEntries(DOC_FIELDS.filter((field) => field in doc).map((field) => [field, doc[field]]));
  before.bans = [...((view && view.dictionary.bans) || [])]; // its bans come back with it
}

function keep(msg) {
  if (restoring === null) {
    const kept = keptDocument();
    restoring = msg.rev === 0 && isBlank(msg.doc) && !!kept && !isBlank(kept);
    if (restoring) {
      const prior = kept.before && kept.before.rows && !isBlank(kept.before) && !sameDoc(kept.before, kept) ? kept.before : null;
      before = prior;
      const list = kept.dictionary;
      // the list and its minimum score come back when the server has that list: an embedded
      // one, or the one it was started with (serve --dict), which the new page already uses;
      // first, so that the grids and their bans are read with it
      const known = list && (["en", "ru", "es"].includes(list.name) || list.name === msg.dictionary.name);
      if (known && (list.name !== msg.dictionary.name || list.min_score !== msg.dictionary.min_score)) {
        send({ type: "dictionary", name: list.name, min_score: list.min_score });
      }
      // each grid comes back with its own bans, in one undo step (Undo then gives the grid
      // before it, not the same grid without its bans)
      if (prior) act({ type: "restore", doc: cutTexts(prior), bans: prior.bans || [] });
      act({ type: "restore", doc: cutTexts(kept), bans: (list && list.bans) || [] });
      if (kept.symmetry && kept.symmetry !== msg.symmetry) send({ type: "symmetry", symmetry: kept.symmetry });
      // the suggested fill, shown again when it still fills the grid with the list in use
      if (kept.suggestion && kept.suggestion.letters) send({ type: "suggestion", suggestion: { letters: kept.suggestion.letters } });
      const lost = list && list.name && !known;
      say(`Your last grid is back (Undo gives ${prior ? "the grid you had before it" : "a blank one"}).` + (lost ? ` Your uploaded word list is not kept: upload it again (${msg.dictionary.label} is in use).` : ""), true);
      return;
    }
  }
  if (restoring && msg.rev === 0) return; // the blank page before the restore: keep the old one
  restoring = false;
  try {
    localStorage.setItem(KEPT + tab, JSON.stringify({ ...msg.doc, dictionary: msg.dictionary, symmetry: msg.symmetry, suggestion: msg.suggestion, before, saved: Date.now() }));
  } catch { /* storage full or off: the server still holds the page's document */ }
}

// A suggested fill arrives as a job, not in a state: kept at once, so a reload shows it again.
function keepSuggestion(suggestion) {
  const kept = stored(KEPT + tab);
  if (!kept || restoring) return;
  try { localStorage.setItem(KEPT + tab, JSON.stringify({ ...kept, suggestion })); } catch { /* storage full */ }
}

function receive(msg) {
  if (msg.type === "state") {
    ui.accepting = false;
    serverRows = msg.doc.rows;
    keep(msg);
    const fresh = !view || view.asked !== msg.asked; // a clue or a title leaves the searches be
    // the New fields show the grid's size when it changes (a reload, Open, Undo past a New)
    if (!view || view.doc.rows.length !== msg.doc.rows.length || view.doc.rows[0].length !== msg.doc.rows[0].length) {
      for (const [id, n] of [["new-width", msg.doc.rows[0].length], ["new-height", msg.doc.rows.length]]) {
        if (document.activeElement !== $(id)) $(id).value = n;
      }
    }
    view = msg;
    ahead(msg.acked);
    if (fresh) { ui.decide = null; ui.core = []; ui.certificate = null; }
    if (say.refusedAt != null && msg.acked > say.refusedAt) say(""); // the refusal no longer applies
    // an edit stops the server's autofill: a search in progress is gone, an improving fill stays
    if (fresh && ui.autofill && !ui.autofillSent) {
      if (!msg.suggestion) ui.autofill = null;
      else if (!ui.autofill.final) ui.autofill = { ...ui.autofill, final: true };
    }
    ui.suggestion = msg.suggestion ? msg.suggestion.letters : null;
    // a suggestion the page has no word of (one a reloaded page kept, shown again)
    if (msg.suggestion && !ui.autofill) ui.autofill = { ...msg.suggestion, final: msg.suggestion.status !== "improving" };
    const size = msg.doc.rows.length * msg.doc.rows[0].length;
    if (ui.cell !== null && ui.cell >= size) ui.cell = null;
    render();
    reselect(true);
  } else if (msg.type === "job") {
    if (!view || msg.rev !== view.asked) return; // an answer for a grid that is gone (a job names the question it is about)
    onJob(msg);
  } else if (msg.type === "error") {
    ui.accepting = false;
    const refused = pending.find((p) => p.seq === msg.acked && p.letter);
    if (refused) ui.cell = refused.cell; // the cursor goes back to the letter to type again
    if (view && serverRows) { view.doc = { ...view.doc, rows: serverRows }; ahead(msg.acked ?? sent); } // a refused letter is not shown as typed
    if (ui.autofillSent) { ui.autofillSent = false; ui.autofill = null; } // refused: no search runs
    if (ui.patterns && !ui.patterns.final) ui.patterns = null; // a refused pattern search is not running
    if (view) $("min-score").value = view.dictionary.min_score; // a refused score shows the one in use
    say(msg.message);
    render();
  } else if (msg.type === "symmetry") {
    $("symmetry").value = msg.symmetry;
  } else if (msg.type === "notice") {
    say(msg.message, true);
  }
}

function onJob(msg) {
  const r = msg.result || {};
  if (msg.kind === "decide") {
    ui.decide = { ...r, final: msg.final };
    ui.core = r.core_cells || [];
  } else if (msg.kind === "candidates") {
    if (msg.slot !== ui.selectedSlot) return;
    ui.candidates = { ...r, rev: msg.rev }; // the grid revision it answers
  } else if (msg.kind === "autofill") {
    ui.autofillSent = false;
    ui.autofill = { ...r, final: msg.final, region: msg.region, since: (ui.autofill && ui.autofill.since) || Date.now() };
    if (r.letters) ui.suggestion = r.letters;
    if (r.status === "rejected") ui.suggestion = null;
    if (r.letters || r.status === "rejected") keepSuggestion(r.letters ? { letters: r.letters } : null);
  } else if (msg.kind === "certificate") {
    ui.certificate = { ...r, final: msg.final };
  } else if (msg.kind === "patterns") {
    ui.patterns = { ...(ui.patterns || {}), ...r, final: msg.final };
  }
  render();
}

const SHOWN_DEAD = 3; // reasons written out in the verdict
const SHOWN_CORE = 12; // entries to blame named in it

// An open grid (no block at all) larger than the words: say what a constructor does next.
function noBlocks() {
  const rows = view.doc.rows;
  if (rows.length < 8 || rows.some((row) => row.includes("#"))) return "";
  return " A grid this size needs blocks: double-click a square, or Suggest patterns.";
}

// Text typed in a clue or a puzzle field is sent a moment after the typing pauses, not only
// when the field is left: a reload or a closed tab keeps what was typed.
const SOON_MS = 600;
const waiting = new Map(); // key -> [timer, commit]
const waitingText = new Map(); // key -> the text waiting
function soon(key, commit, text) {
  waitingText.set(key, text);
  if (waiting.has(key)) clearTimeout(waiting.get(key)[0]);
  waiting.set(key, [setTimeout(() => now(key, commit), SOON_MS), commit]);
}
function now(key, commit) {
  if (waiting.has(key)) { clearTimeout(waiting.get(key)[0]); waiting.delete(key); }
  commit();
}
// The page is going (a reload, a closed tab): send the text that waits, and put it, with the
// letters typed that no state from the server holds yet, in the kept grid the next page opens.
function goingAway() {
  const kept = stored(KEPT + tab);
  for (const [key, [, commit]] of [...waiting]) {
    now(key, commit);
    const [kind, name] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
    if (kept && kind === "clue") kept.clues = { ...(kept.clues || {}), [name]: cut(waitingText.get(key)) };
    if (kept && kind === "meta") kept[name] = cut(waitingText.get(key));
  }
  if (!kept || !kept.rows) return;
  const w = kept.rows[0].length, size = kept.rows.length * w;
  const locked = new Set((kept.locks || []).flatMap((lock) => lock.cells || []));
  let rows = kept.rows;
  for (const p of pending) {
    if (p.cell >= size || locked.has(p.cell) || rows[Math.floor(p.cell / w)][p.cell % w] === "#") continue;
    rows = withLetter(rows, w, p.cell, p.letter);
  }
  kept.rows = rows;
  try { localStorage.setItem(KEPT + tab, JSON.stringify(kept)); } catch { /* storage full */ }
}

function setVerdict(kind, badge, why) {
  const box = $("verdict");
  box.className = `verdict ${kind}`;
  box.querySelector(".badge").textContent = badge;
  box.querySelector(".why").textContent = why || "";
}

// "these 3 entries cannot be filled together", or "this entry cannot be filled" for one
function blamed(d) {
  if (d.core.length === 1) return "this entry cannot be filled";
  return `these ${d.core.length} entries cannot be filled together${d.minimal ? " (none can be left out)" : ""}`;
}

function coreNames(core) {
  return core.length > SHOWN_CORE ? `${core.slice(0, SHOWN_CORE).join(", ")} and ${core.length - SHOWN_CORE} more (marked in the grid)` : core.join(", ");
}

// the locked entries the blamed ones run through: what a constructor would change first
function throughLocks(cells) {
  const shaded = new Set(cells || []);
  const hit = view.doc.locks.filter((l) => l.cells.some((c) => shaded.has(c)));
  if (!hit.length) return "";
  return ` They run through your locked ${hit.length === 1 ? "entry" : "entries"} ${hit.map((l) => l.word).join(", ")}.`;
}

function renderVerdict() {
  if (offline) return setVerdict("unknown", "Offline", "The server stopped: edits are refused until it runs again (the page reconnects by itself).");
  const ins = view.insight;
  if (ins.error) return setVerdict("unknown", "Check the grid", ins.error);
  if (ins.unfillable) {
    const dead = Object.entries(ins.dead || {});
    // a few reasons, not fifty: the rest are outlined in the grid
    const more = dead.length > SHOWN_DEAD ? `; and ${dead.length - SHOWN_DEAD} more entries, outlined in red` : "";
    const why = dead.length ? dead.slice(0, SHOWN_DEAD).map(([, w]) => w).join("; ") + more : ins.conflict.why;
    // the search's entries to blame, when it found them, are shaded too: said here as well
    const d = ui.decide;
    const also = d && d.status === "unfillable" && d.core ? ` Also, ${blamed(d)}: ${coreNames(d.core)}.${throughLocks(d.core_cells)}` : "";
    return setVerdict("unfillable", "Unfillable", (why.endsWith(".") ? why : `${why}.`) + also + noBlocks());
  }
  const d = ui.decide;
  if (!d) return setVerdict("checking", "Checking…", "searching in the background");
  if (d.status === "fillable") return setVerdict("fillable", "Fillable", `a fill exists (found by ${d.method} in ${d.seconds} s)`);
  if (d.status === "unfillable") {
    const core = d.core ? ` ${blamed(d).replace(/^./, (c) => c.toUpperCase())}: ${coreNames(d.core)}.${throughLocks(d.core_cells)}` : " Finding the entries to blame…";
    return setVerdict("unfillable", "Unfillable", `${d.why || ""}.${core}${noBlocks()}`);
  }
  if (d.stopped && !d.status) return setVerdict("unknown", "Not yet known", `stopped at ${d.stopped}`);
  return setVerdict("unknown", "Not yet known", d.why || "");
}

function renderFill() {
  const a = ui.autofill;
  const has = !!ui.suggestion;
  const running = !!a && !a.final && a.status !== "rejected";
  for (const id of ["accept-all", "another"]) $(id).disabled = !has || (id === "accept-all" && ui.accepting);
  $("reject").disabled = !has && !running; // without a fill yet, it stops the search
  $("reject").textContent = running && !has ? "Stop" : "Reject";
  $("accept-one").disabled = !has || !ui.selectedSlot || ui.accepting;
  let text = "Autofill keeps your letters and locked entries.";
  if (a) {
    if (a.status === "searching") {
      const spent = a.since ? Math.floor((Date.now() - a.since) / 1000) : 0;
      text = `Searching for a fill… ${spent} s`;
    }
    else if (a.letters) {
      const weak = (a.weakest || []).slice(0, 3).map((w) => `${w.word} (${w.score})`).join(", ");
      const level = `every entry scores ${a.level} or more${a.proven ? " (proven the highest level)" : ""}`;
      // "done" only when nothing better is left: the level proven, and at it the fewest
      // entries and the best total proven too (the page's search may stop before that)
      const state = !a.final ? "improving…" : a.proven && a.optimal ? "done"
        : a.proven ? "the best found in the time; not shown the fewest at this level" : "best found";
      const found = a.kept ? "Fill kept from before the reload" : `Fill found in ${a.first_s} s`;
      text = `${a.note ? `${a.note}. The fill shown stays: ` : ""}${found} · ${level} · total score ${a.total} (${state})${weak ? ` · weakest: ${weak}` : ""}`;
      const w = a.why_not;
      if (w) text += ` · Why not ${w.level}: ${w.slots.length === 1 ? "this entry cannot score" : `these ${w.slots.length} entries cannot all score`} ${w.level} or more${w.minimal ? " (none can be left out)" : ""}: ${w.slots.join(", ")}`;
    } else if (a.status === "unfillable") {
      text = a.region ? "No other fill of this selection: its entries are the only ones that fit (proven)."
        : "No fill: the grid cannot be filled at this minimum score (proven; the verdict names the entries to blame).";
    }
    else if (a.status === "rejected") text = ui.stopped ? "Autofill stopped." : "Suggestion rejected.";
    else if (a.final) text = `No fill found: ${a.why || a.stopped || a.status}`;
  }
  $("fill-status").textContent = text;
  $("fill-status").title = a && a.why ? a.why : ""; // the method's own words, for the curious
}

function renderPatterns() {
  const p = ui.patterns;
  const list = $("patterns");
  list.replaceChildren();
  if (!p) { $("patterns-status").textContent = ""; return; }
  const found = p.suggestions || [];
  $("patterns-status").textContent = p.final
    ? (p.status === "done" ? `${found.length} fillable of ${p.tried} tried (${p.unfillable} unfillable, ${p.undecided} undecided)` : `stopped: ${p.why || p.stopped || p.status}`)
    : `Searching… ${found.length} found${p.said ? ` · ${p.said}` : ""}`;
  found.forEach((s, i) => {
    const item = document.createElement("div");
    item.className = "pattern";
    const pre = document.createElement("pre");
    pre.textContent = s.fill.map((row) => row.replace(/#/g, "\u25a0")).join("\n");
    const use = document.createElement("button");
    use.textContent = `Use #${i + 1}`;
    use.onclick = () => act({ type: "pattern", rows: s.pattern });
    const about = document.createElement("span");
    about.className = "muted";
    about.textContent = `${s.words} words · ${s.blocks} blocks · ${s.cheaters} cheaters · filled in ${s.seconds} s`;
    item.append(use, about, pre);
    list.append(item);
  });
}

function render() {
  if (!view) return;
  renderPatterns();
  drawGrid($("grid"), view, ui);
  renderVerdict();
  renderFill();
  const slot = ui.cell !== null ? slotAt(view, ui.cell, ui.dir) : null;
  drawEntry($("entry"), view, slot, act, suggestedWord(slot), ban);
  drawCandidates($("candidates"), $("cand-count"), ui.candidates, pick, ban);
  drawBans($("bans"), view.dictionary.bans || [], ban);
  // the 78-word cap is a 15x15's: the size passed only when the grid is square
  drawStats($("stats"), view.stats, view.doc.rows.length === view.doc.rows[0].length ? view.doc.rows.length : 0);
  drawClues($("clues"), view, ui.selectedSlot, (slotName, text, typing) => {
    const commit = () => act({ type: "clue", slot: slotName, text });
    if (typing) soon(`clue:${slotName}`, commit, text); else now(`clue:${slotName}`, commit);
  });
  $("undo").disabled = !view.can_undo;
  $("redo").disabled = !view.can_redo;
  const dict = view.dictionary.name.startsWith("upload:") ? "upload" : view.dictionary.name;
  if (dict === "upload") ui.upload = view.dictionary.name; // kept, to switch back to it
  $("dictionary").value = dict;
  if (document.activeElement !== $("symmetry")) $("symmetry").value = view.symmetry;
  const uploaded = $("dictionary").querySelector("option[value=upload]");
  uploaded.hidden = !ui.upload;
  if (dict === "upload") uploaded.textContent = `${view.dictionary.label} (${view.dictionary.words.toLocaleString("en")} words)`;
  if (document.activeElement !== $("min-score")) $("min-score").value = view.dictionary.min_score;
  for (const input of document.querySelectorAll("[data-meta]")) {
    if (document.activeElement !== input) input.value = view.doc[input.dataset.meta] || "";
  }
  const cert = $("certificate");
  const unfillable = (ui.decide && ui.decide.status === "unfillable") || view.insight.unfillable;
  cert.hidden = !unfillable;
  if (ui.certificate && ui.certificate.final) {
    cert.textContent = ui.certificate.checked ? "Certificate checked: download" : `Certificate: ${ui.certificate.status}`;
  }
}

// The word the suggested fill puts in the slot, when it puts at least one letter there.
function suggestedWord(slot) {
  if (!slot || !ui.suggestion) return null;
  const letters = slot.cells.map((c) => ui.suggestion[String(c)] || charAt(c));
  if (letters.some((l) => l === "." || l === "#")) return null;
  return slot.cells.some((c) => ui.suggestion[String(c)]) ? letters.join("") : null;
}

// Ban a word for this puzzle (every search leaves it out), or lift the ban (lift); refill:
// autofill again at once, as the fill shown used it.
function ban(word, refill, lift) {
  const bans = new Set(view.dictionary.bans || []);
  if (lift) bans.delete(word); else bans.add(word);
  if (!send({ type: "bans", words: [...bans] })) return;
  const kept = stored(KEPT + tab); // kept at once: a reload before the server's answer keeps it
  if (kept && kept.dictionary) {
    try { localStorage.setItem(KEPT + tab, JSON.stringify({ ...kept, dictionary: { ...kept.dictionary, bans: [...bans] } })); } catch { /* storage full */ }
  }
  if (refill) autofill(ui.lastRegion || null, false);
}

function pick(word) {
  const slot = ui.cell !== null ? slotAt(view, ui.cell, ui.dir) : null;
  if (!slot) return;
  const cells = {};
  slot.cells.forEach((c, i) => { cells[String(c)] = word[i]; });
  act({ type: "letters", cells });
}

// Tell the server which entry is selected, so it ranks that entry's candidates.
function reselect(force) {
  const slot = ui.cell !== null && view ? slotAt(view, ui.cell, ui.dir) : null;
  const name = slot ? slot.name : null;
  if (!force && name === ui.selectedSlot) return;
  if (name !== ui.selectedSlot) ui.candidates = null;
  ui.selectedSlot = name;
  clearTimeout(selectTimer);
  selectTimer = setTimeout(() => send({ type: "select", slot: name }), force ? 0 : 80);
}

// An edit shown at once, before the server's state comes back with it, so the keys that
// follow (Backspace after a letter) see the grid as typed; the server's next state replaces it.
function typed(cell, letter) {
  view.doc = { ...view.doc, rows: withLetter(view.doc.rows, width(), cell, letter) };
}

function withLetter(rows, w, cell, letter) { // a copy with the cell's letter ("" empties it)
  const r = Math.floor(cell / w), c = cell % w, out = [...rows];
  out[r] = rows[r].slice(0, c) + (letter || ".") + rows[r].slice(c + 1);
  return out;
}

function setLetter(cell, letter) {
  const message = { type: "action", action: { type: "letter", cell, letter } };
  if (!send(message)) return;
  pending.push({ seq: message.seq, cell, letter });
  typed(cell, letter);
}

// The server's grid plus the letters typed after the last message it has handled (a state
// for earlier edits must not take back a letter typed since).
function ahead(acked) {
  pending = pending.filter((p) => p.seq > acked);
  const size = view.doc.rows.length * view.doc.rows[0].length;
  for (const p of pending) if (p.cell < size) typed(p.cell, p.letter);
}

function width() { return view.doc.rows[0].length; }
function height() { return view.doc.rows.length; }
function charAt(cell) { return view.doc.rows[Math.floor(cell / width())][cell % width()]; }

function moveTo(cell) {
  ui.cell = cell;
  if (!slotAt(view, cell, ui.dir) && slotAt(view, cell, ui.dir === "A" ? "D" : "A")) {
    ui.dir = ui.dir === "A" ? "D" : "A";
  }
  render();
  reselect(false);
}

function step(cell, dr, dc) {
  let r = Math.floor(cell / width()) + dr, c = (cell % width()) + dc;
  while (r >= 0 && r < height() && c >= 0 && c < width()) {
    const next = r * width() + c;
    if (charAt(next) !== "#") return next;
    r += dr; c += dc;
  }
  return cell;
}

function advance(back) {
  const [dr, dc] = ui.dir === "A" ? [0, 1] : [1, 0];
  const next = back ? step(ui.cell, -dr, -dc) : step(ui.cell, dr, dc);
  const slot = slotAt(view, ui.cell, ui.dir);
  if (slot && slot.cells.includes(next)) ui.cell = next;
}

function nextSlot(back) { // false at the last entry (the first, going back): Tab leaves the grid
  const slots = slotsOf(view);
  if (!slots.length) return false;
  const current = slotAt(view, ui.cell ?? -1, ui.dir);
  let index = current ? slots.findIndex((s) => s.name === current.name) : -1;
  if (current && index === (back ? 0 : slots.length - 1)) return false;
  index = (index + (back ? -1 : 1) + slots.length) % slots.length;
  const target = slots[index];
  ui.dir = target.name.slice(-1);
  const empty = target.cells.find((c) => charAt(c) === ".");
  moveTo(empty ?? target.cells[0]);
  return true;
}

function onKey(event) {
  const target = event.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
  if (!view) return;
  const key = event.key;
  if ((event.ctrlKey || event.metaKey) && (key === "z" || key === "Z")) {
    event.preventDefault(); send({ type: event.shiftKey ? "redo" : "undo" }); return;
  }
  if ((event.ctrlKey || event.metaKey) && key === "y") { event.preventDefault(); send({ type: "redo" }); return; }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  // On a button or a link, Tab, Enter and Space do what they do everywhere (move on, press);
  // letters, arrows and Backspace still go to the grid, which takes the focus back.
  const svg = $("grid");
  if (target !== svg && target !== document.body && target !== document.documentElement) {
    if (["Tab", "Enter", " ", "Escape"].includes(key) || ui.cell === null) return;
    svg.focus();
  }
  if (key === "Escape" && target === svg) { // out of the grid, to the first control
    event.preventDefault();
    const first = document.querySelector("header button, header select");
    if (first) first.focus();
    return;
  }
  if (ui.cell === null) {
    if (key.startsWith("Arrow") || key.length === 1) { moveTo(0); event.preventDefault(); }
    return;
  }
  const arrows = { ArrowLeft: [0, -1, "A"], ArrowRight: [0, 1, "A"], ArrowUp: [-1, 0, "D"], ArrowDown: [1, 0, "D"] };
  if (arrows[key]) {
    event.preventDefault();
    const [dr, dc, dir] = arrows[key];
    if (ui.dir !== dir && slotAt(view, ui.cell, dir)) { ui.dir = dir; render(); reselect(false); return; }
    moveTo(step(ui.cell, dr, dc));
    return;
  }
  if (key === "Enter" || key === " ") { event.preventDefault(); ui.dir = ui.dir === "A" ? "D" : "A"; render(); reselect(false); return; }
  if (key === "Tab") { if (nextSlot(event.shiftKey)) event.preventDefault(); return; }
  if (key === "." || key === "#") { event.preventDefault(); act({ type: "block", cell: ui.cell }); return; }
  if ((key === "Backspace" || key === "Delete") && ui.region) { // clear the selected rectangle
    event.preventDefault();
    const [top, left, bottom, right] = ui.region;
    const locked = new Set(view.doc.locks.flatMap((l) => l.cells));
    const cells = {};
    for (let r = top; r <= bottom; r++) {
      for (let c = left; c <= right; c++) {
        const cell = r * width() + c;
        if (!locked.has(cell) && !".#".includes(charAt(cell))) cells[String(cell)] = "";
      }
    }
    if (Object.keys(cells).length) act({ type: "letters", cells });
    return;
  }
  if (key === "Backspace" || key === "Delete") {
    event.preventDefault();
    if (charAt(ui.cell) !== "#" && charAt(ui.cell) !== ".") setLetter(ui.cell, "");
    else if (key === "Backspace") { advance(true); if (charAt(ui.cell) !== ".") setLetter(ui.cell, ""); }
    render();
    return;
  }
  if (key.length === 1 && /\p{L}/u.test(key)) {
    event.preventDefault();
    if (charAt(ui.cell) === "#") return;
    if (view.doc.locks.some((l) => l.cells.includes(ui.cell))) {
      if (charAt(ui.cell) === key.toUpperCase()) { advance(false); render(); return; } // its own letter
      say("That cell is in a locked entry; unlock it first.");
      return;
    }
    setLetter(ui.cell, key.toUpperCase());
    advance(false);
    render();
  }
}

function cellOf(event) {
  const node = event.target.closest("[data-cell]");
  return node ? Number(node.dataset.cell) : null;
}

function regionOf(a, b) {
  const w = width();
  const [r1, c1, r2, c2] = [Math.floor(a / w), a % w, Math.floor(b / w), b % w];
  return [Math.min(r1, r2), Math.min(c1, c2), Math.max(r1, r2), Math.max(c1, c2)];
}

function wireGrid() {
  const svg = $("grid");
  svg.addEventListener("mousedown", (event) => {
    const cell = cellOf(event);
    if (cell === null) return;
    svg.focus();
    if (event.shiftKey && ui.cell !== null) { ui.region = regionOf(ui.cell, cell); render(); return; }
    ui.dragFrom = cell;
    ui.region = null;
    const now = Date.now();
    if (ui.lastDown && ui.lastDown.cell === cell && now - ui.lastDown.at < 400) { // a double click
      ui.lastDown = null;
      clearTimeout(selectTimer); // the first click's selection, not sent yet, names an entry the block ends
      act({ type: "block", cell });
      return;
    }
    ui.lastDown = { cell, at: now };
    if (cell === ui.cell) { ui.dir = ui.dir === "A" ? "D" : "A"; render(); reselect(false); }
    else moveTo(cell);
  });
  svg.addEventListener("mousemove", (event) => {
    if (ui.dragFrom === null || !(event.buttons & 1)) return;
    const cell = cellOf(event);
    if (cell !== null && cell !== ui.dragFrom) { ui.lastDown = null; ui.region = regionOf(ui.dragFrom, cell); render(); }
  });
  window.addEventListener("mouseup", () => { ui.dragFrom = null; });
}

const UNREACHABLE = "The server is not running; try again when it runs.";

async function upload(path, file, after = "") { // after: said too when the file is taken
  if (!view) return;
  const response = await fetch(`/api/${view.session}/${path}?name=${encodeURIComponent(file.name)}`,
    { method: "POST", body: file }).catch(() => null);
  if (!response) { say(UNREACHABLE); return; }
  if (!response.ok) {
    const body = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    say(body.error);
  } else { // an earlier refusal no longer applies; what the list left out is said
    const body = await response.json().catch(() => ({}));
    const said = [body.note, after].filter(Boolean).join(". ");
    say(said, Boolean(said));
  }
}

async function download(url) {
  const response = await fetch(url).catch(() => null);
  if (!response) { say(UNREACHABLE); return; }
  if (!response.ok) {
    const body = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    say(body.error);
    return;
  }
  const disposition = response.headers.get("Content-Disposition") || "";
  const full = disposition.match(/filename\*=UTF-8''([^;]+)/); // the name itself (RFC 6266)
  const plain = disposition.match(/filename="([^"]+)"/); // its ASCII stand-in
  let name = null;
  try { name = full ? [null, decodeURIComponent(full[1])] : plain; } catch { name = plain; }
  const note = response.headers.get("X-Xwsat-Note");  // what the file lacks: said, not hidden
  if (note) say(`Saved; ${decodeURIComponent(note)}`, true);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = name ? name[1] : "puzzle";
  document.body.append(link);
  link.click();
  link.remove();
}

function autofill(region, another) {
  if (!send({ type: "autofill", region, another })) return;
  ui.lastRegion = region; ui.autofill = { status: "searching", since: Date.now() }; ui.autofillSent = true; render();
}

function wireControls() {
  // New and Open replace the grid without asking: Undo brings it back, and the page says so
  const replacing = () => view && (view.doc.rows.some((row) => /[^.]/.test(row))
    || Object.keys(view.doc.clues || {}).length > 0
    || ["title", "author", "copyright", "notes"].some((field) => !!view.doc[field]));
  const undoable = "Undo brings your last grid back.";
  $("new").onclick = () => {
    const had = replacing();
    if (had) replacedBy(view.doc);
    if (act({ type: "new", width: Number($("new-width").value), height: Number($("new-height").value) }) && had) say(`A new grid. ${undoable}`, true);
  };
  $("open").onclick = () => $("open-file").click();
  $("open-file").onchange = (e) => {
    if (e.target.files[0]) {
      const had = replacing();
      if (had) replacedBy(view.doc);
      upload("open", e.target.files[0], had ? undoable : "");
    }
    e.target.value = "";
  };
  $("upload").onclick = () => $("upload-file").click();
  $("upload-file").onchange = (e) => { if (e.target.files[0]) upload("dictionary", e.target.files[0]); e.target.value = ""; };
  $("save").onchange = (e) => { const fmt = e.target.value; e.target.value = ""; if (fmt && view) download(`/api/${view.session}/save/${fmt}`); };
  $("undo").onclick = () => send({ type: "undo" });
  $("redo").onclick = () => send({ type: "redo" });
  $("symmetry").onchange = (e) => { if (!send({ type: "symmetry", symmetry: e.target.value })) render(); };
  // a choice the server did not get (offline) is put back to the one in effect
  $("dictionary").onchange = (e) => { if (!send({ type: "dictionary", name: e.target.value === "upload" ? ui.upload : e.target.value, min_score: Number($("min-score").value) })) render(); };
  $("min-score").onchange = (e) => { if (!send({ type: "dictionary", name: view.dictionary.name, min_score: Number(e.target.value) })) { e.target.blur(); render(); } };
  $("fill-all").onclick = () => autofill(null, false);
  $("fill-region").onclick = () => {
    if (!ui.region) { say("Drag over the grid (or Shift+click) to select a rectangle first.", true); return; }
    autofill(ui.region, false);
  };
  $("suggest").onclick = () => { if (send({ type: "patterns" })) { ui.patterns = { status: "searching" }; render(); } };
  // once sent, an accept is not sent again before the server answers (a double click)
  const accept = (slot) => { if (!ui.accepting && send({ type: "accept", slot })) { ui.accepting = true; renderFill(); } };
  $("accept-all").onclick = () => accept(null);
  $("accept-one").onclick = () => accept(ui.selectedSlot);
  $("reject").onclick = () => { ui.stopped = !ui.suggestion; ui.suggestion = null; send({ type: "reject" }); };
  $("another").onclick = () => autofill(ui.lastRegion || null, true);
  $("certificate").onclick = () => {
    if (ui.certificate && ui.certificate.final && ui.certificate.checked) { download(`/api/${view.session}/certificate.zip`); return; }
    if (send({ type: "certificate" })) $("certificate").textContent = "Writing and checking the certificate…";
  };
  for (const input of document.querySelectorAll("[data-meta]")) {
    const commit = () => act({ type: "meta", field: input.dataset.meta, value: input.value });
    input.addEventListener("input", () => soon(`meta:${input.dataset.meta}`, commit, input.value));
    input.addEventListener("change", () => now(`meta:${input.dataset.meta}`, commit));
  }
  window.addEventListener("pagehide", goingAway);
  for (const tab of document.querySelectorAll(".tabs button")) {
    tab.onclick = () => {
      for (const other of document.querySelectorAll(".tabs button")) other.classList.toggle("on", other === tab);
      $("clues").hidden = tab.dataset.tab !== "clues";
      $("puzzle").hidden = tab.dataset.tab !== "puzzle";
    };
  }
  document.addEventListener("keydown", onKey);
}

wireGrid();
wireControls();
connect();
window.xwsat = { ui, get view() { return view; } }; // for tests and the curious
export { cellSize };
