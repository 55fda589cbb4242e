// "Your box": paint a set of Layers layers (or OTLO tiles), see each card in
// its 8 orientations and any stacking as the LEDs show them, build the deck,
// play it on the device of this page, download the set and the deck.
//
// The page keeps the set as a model (kind, name, size, colours, cards as rows
// of colour characters) and paints characters into it; nothing here knows how
// a card turns, flips or stacks. The server (web/box.py) writes the model as
// the set file `layerlight cards build` reads, checks it with the same loader
// (the same one-line messages), and answers the orientations and stacks from
// the firmware's geometry. The model is kept in localStorage at every change.
//
// Every change to the set (and the stack) is a step Undo takes back: changed() keeps the
// state before it. A stroke of the brush, or typing in one field until it loses focus, is one
// step. The builder's limits come from the server (/box/limits.json): no copy here.

const KEY = "layerlight.box.v1";
const CHARS = "RBYGOPCWKMNTVXZ";   // the characters new colours get, in order
const NEW_COLOURS = { layers: ["#e03a3e", "#1f6fd1", "#f2c12e", "#2fa84f"], otlo: ["#d1495b", "#1d70b8", "#f2c14e"] };
const EXTRA = ["#8e44ad", "#e67e22", "#16a085", "#ecf0f1", "#34495e", "#c0392b", "#7f8c8d", "#f39c12"];
const OTLO_TILES = ["1x2", "2x1", "2x2", "2x3", "3x2", "3x3", "2x4", "4x2", "3x4", "4x3", "4x4", "1x3", "1x4"];
const BOARD = "#050506";
const LED_RIM = "#1f2026";
const CHECK_MS = 120;

const $ = (id) => document.getElementById(id);

const box = {
  model: null,
  file: "my-box.toml",
  colour: 1,            // the colour painted: its index (1..), 0 = a hole
  stack: [],            // Layers: {card, o}; OTLO: {card, layer, side, rot, x, y}
  perLevel: "",
  maxLevel: "",
  checked: null,        // the server's last answer to /box/check
  checkTimer: 0,
  checkSeq: 0,
  tables: null,         // the colour model (the server's led-colours.json)
  built: null,          // the last deck built: {result, bytes}
  building: false,
  painting: null,       // {card, side, value} while a pointer is down on a grid
  kept: null,           // the set file's text as opened or last downloaded: what is in a file
  keptPending: false,   // the next check's TOML is that text (a set just opened)
  limits: null,         // the builders' limits (the server's /box/limits.json), by kind
  history: [],          // Undo: the states before each change (JSON of model, file, stack)
  future: [],           // Redo: the states Undo took back
  snap: null,           // the state now, as the history keeps it
  lastTag: null,        // what the last change was part of (a stroke, typing in a field)
  seq: 0,               // numbers strokes and focused fields
  zoomed: -1,           // the card shown large, or -1
  buildMsgToml: null,   // the set the message under Build is about (it goes once the set changes)
  photo: null,          // a layer read from a photo, shown to correct before it is added (box_photo.py's answer)
};

// What tests read: the model, the last check, the built deck, the stack's picture.
window.layerlightBox = {
  ready: false,
  get model() { return box.model; },
  get checked() { return box.checked; },
  get built() { return box.built ? box.built.result : null; },
  get building() { return box.building; },
  get stackRows() { return box.stackRows || null; },
  get undoSteps() { return box.history.length; },
  get photo() { return box.photo; },
  get redoSteps() { return box.future.length; },
  settled: () => settled(),
};

// --- the model ------------------------------------------------------------------

function blankRows(w, h) {
  return Array.from({ length: h }, () => ".".repeat(w));
}

function dims(m = box.model) {
  return m.kind === "otlo" ? [m.tile[0], m.tile[1]] : [m.size, m.size];
}

function newModel(kind, sizeText) {
  const colours = NEW_COLOURS[kind].map((c, i) => [CHARS[i], c]);
  if (kind === "otlo") {
    const [w, h] = (sizeText && sizeText.includes("x") ? sizeText : "2x2").split("x").map(Number);
    return { kind, name: "My tiles", tile: [w, h], table: "#303030", colors: colours, stars: {},
      cards: [1, 2].map((k) => ({ id: "t" + k, front: blankRows(w, h), back: blankRows(w, h) })) };
  }
  const n = Number(sizeText) || 6;
  return { kind, name: "My layers", size: n, background: "#f5f0e6", colors: colours,
    cards: [1, 2].map((k) => ({ id: "layer" + k, front: blankRows(n, n), back: blankRows(n, n) })) };
}

function charOf(index) {
  return index === 0 ? "." : box.model.colors[index - 1][0];
}

function setCell(card, side, x, y, value) {
  const rows = box.model.cards[card][side];
  const ch = charOf(value);
  if (rows[y][x] === ch) return false;
  rows[y] = rows[y].slice(0, x) + ch + rows[y].slice(x + 1);
  return true;
}

function save() {
  try {
    localStorage.setItem(KEY, JSON.stringify({ model: box.model, file: box.file, stack: box.stack,
      colour: box.colour, perLevel: box.perLevel, maxLevel: box.maxLevel, kept: box.kept }));
  } catch (e) {
    // a full or disabled storage: the page still works, the set is not kept across a reload
  }
}

function restore() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "null");
    if (kept && kept.model && Array.isArray(kept.model.cards)) {
      Object.assign(box, { model: kept.model, file: kept.file || box.file, stack: kept.stack || [],
        colour: kept.colour ?? 1, perLevel: kept.perLevel || "", maxLevel: kept.maxLevel || "",
        kept: kept.kept ?? null });
      return true;
    }
  } catch (e) {
    // an unreadable kept set: start a new one
  }
  return false;
}

// A change of the model: remember the state before it (Undo), keep it, draw it, and have the
// server check it. `tag` names what the change is part of: changes with the same tag one after
// the other are one step (a stroke, typing in one field).
function changed(redraw = true, tag = null) {
  commit(tag);
  save();
  if (redraw) render();
  scheduleCheck();
}

// --- undo and redo ----------------------------------------------------------------------

function snapshot() {
  return JSON.stringify({ model: box.model, file: box.file, stack: box.stack });
}

function commit(tag) {
  const now = snapshot();
  if (now === box.snap) return;
  if (box.snap !== null && !(tag && tag === box.lastTag)) {
    box.history.push(box.snap);
    if (box.history.length > 500) box.history.shift();
  }
  box.future = [];
  box.snap = now;
  box.lastTag = tag;
  showUndo();
}

// A new set (opened, new, restored): nothing to undo yet.
function forget() {
  box.history = [];
  box.future = [];
  box.snap = snapshot();
  box.lastTag = null;
  showUndo();
}

function travel(from, to) {
  if (!from.length) return;
  to.push(snapshot());
  const state = JSON.parse(from.pop());
  box.model = state.model;
  box.file = state.file;
  box.stack = state.stack;
  box.snap = snapshot();
  box.lastTag = null;
  if (box.zoomed >= box.model.cards.length) box.zoomed = -1;
  save();
  render();
  showUndo();
  scheduleCheck();
}

const undo = () => travel(box.history, box.future);
const redo = () => travel(box.future, box.history);

function showUndo() {
  $("undo").disabled = !box.history.length;
  $("redo").disabled = !box.future.length;
}

// --- talking to the server -----------------------------------------------------------

async function post(url, body, raw) {
  const r = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": raw ? "application/octet-stream" : "application/json" },
    body: raw ? body : JSON.stringify(body),
  });
  let data;
  try {
    data = await r.json();
  } catch (e) {
    data = { error: `${url}: HTTP ${r.status}` };
  }
  return { status: r.status, data };
}

function matrix() {
  const ll = window.layerlight;
  return ll && ll.ready ? [ll.width, ll.height] : [16, 16];
}

function scheduleCheck() {
  clearTimeout(box.checkTimer);
  box.pendingCheck = true;
  box.checkTimer = setTimeout(() => check().catch(lost), CHECK_MS);
}

// The build's options as `cards build` takes them (null: its default; the server says what is wrong)
function levels() {
  const num = (text) => (text === "" ? null : Number(text));
  return { per_level: num(box.perLevel), max_level: box.model.kind === "otlo" ? null : num(box.maxLevel) };
}

async function check() {
  const seq = ++box.checkSeq;
  const { data } = await post("/box/check", { model: box.model, file: box.file, matrix: matrix(), ...levels() });
  if (seq !== box.checkSeq) return;
  box.checked = data;
  box.pendingCheck = false;
  if (box.keptPending && data.toml) {
    box.kept = data.toml;
    box.keptPending = false;
    save();
  }
  showCheck();
  await drawStack();
}

// The check brought up to date now (before a download, a replace or playing the deck).
async function flush() {
  while (box.pendingCheck || !box.checked) {
    clearTimeout(box.checkTimer);
    box.pendingCheck = true;
    await check();
  }
}

// The server went away (the command stopped): say so where the set's messages go; the set is kept.
function lost(e) {
  box.pendingCheck = false;
  box.stackPending = false;
  say("set-msg", "the page's server does not answer (is `layerlight sim --web` still running?): " + (e.message || e));
}

// true when the last change has been checked and drawn (tests wait for it)
function settled() {
  return !box.pendingCheck && !box.stackPending && box.checked !== null;
}

// --- messages next to what they are about ----------------------------------------------

function say(id, text) {
  const el = $(id);
  if (!el) return;
  el.textContent = text || "";
  el.hidden = !text;
}

// A set loader's message as `cards build` prints it, its "file:LINE" a link to that line of the
// set file (the TOML under the page, opened and the line marked): the painter sees the file too.
function sayAtLine(id, text) {
  const el = $(id);
  if (!el) return;
  const m = /^([^:]+):(\d+): /.exec(text || "");
  if (!m) {
    say(id, text);
    return;
  }
  el.textContent = "";
  const a = document.createElement("a");
  a.href = "#toml";
  a.className = "toml-line";
  a.dataset.line = m[2];
  a.title = "show this line of the set file";
  a.textContent = `${m[1]}:${m[2]}`;
  a.addEventListener("click", (e) => {
    e.preventDefault();
    showTomlLine(Number(m[2]));
  });
  el.append(a, text.slice(m[1].length + m[2].length + 1));
  el.hidden = false;
}

function showToml(text) {
  const pre = $("toml");
  pre.textContent = "";
  text.split("\n").forEach((line, i, all) => {
    if (i === all.length - 1 && line === "") return;
    const span = document.createElement("span");
    span.className = "ln";
    span.dataset.line = i + 1;
    span.textContent = line + "\n";
    pre.append(span);
  });
}

function showTomlLine(n) {
  const box_ = document.querySelector(".toml-box");
  box_.open = true;
  for (const el of document.querySelectorAll("#toml .ln.hl")) el.classList.remove("hl");
  const line = document.querySelector(`#toml .ln[data-line="${n}"]`);
  if (line) {
    line.classList.add("hl");
    line.scrollIntoView({ block: "center" });
  }
}

function showCheck() {
  const c = box.checked;
  for (const el of document.querySelectorAll(".card .msg")) say(el.id, "");
  for (const el of document.querySelectorAll(".cell.bad")) el.classList.remove("bad");
  for (const el of document.querySelectorAll(".card.has-error")) el.classList.remove("has-error");
  say("set-msg", "");
  say("colours-msg", "");
  say("levels-msg", "");
  if (c.error) {
    const w = c.where || {};
    if (w.card !== undefined && $("card-msg-" + w.card)) {
      sayAtLine("card-msg-" + w.card, c.error);
      const card = document.querySelector(`.card[data-card="${w.card}"]`);
      card.classList.add("has-error");
      if (w.side && w.row) {
        const sel = `.card[data-card="${w.card}"] .side[data-side="${w.side}"] .cell[data-y="${w.row - 1}"]` +
          (w.col ? `[data-x="${w.col - 1}"]` : "");
        for (const el of document.querySelectorAll(sel)) el.classList.add("bad");
      }
    } else if (w.part === "colours") {
      sayAtLine("colours-msg", c.error);
    } else if (w.part === "levels") {
      say("levels-msg", c.error);
    } else {
      sayAtLine("set-msg", c.error);
    }
  }
  say("size-msg", c.matrix_error ? `${c.file}: ${c.matrix_error}` : "");
  // what the last build said is about the set as it was then: once the set changes, it goes
  if (box.buildMsgToml !== null && box.buildMsgToml !== c.toml) {
    say("build-msg", "");
    box.buildMsgToml = null;
  }
  showToml(c.toml);
  showSetStatus();
  (c.views || []).forEach((v, k) => drawOrientations(k, v));
  showStale();
}

// The set as it is now, with the builder's limits beside each count (the server's numbers).
function showSetStatus() {
  const lim = limitsNow();
  if (!lim || !box.model) return;
  const m = box.model;
  const n = m.cards.length;
  const noun = m.kind === "otlo" ? "tiles" : "layers";
  const [w, h] = dims();
  const parts = [`${n} ${noun} (${lim.min_layers} to ${lim.layers})`,
    `${m.colors.length} colours (at most ${lim.colours})`];
  if (m.kind === "otlo") parts.push(`tiles ${w} × ${h} (1 × 1 to ${lim.tile[1]} × ${lim.tile[1]})`);
  else parts.push(`grid ${w} × ${h} (${lim.size[0]} to ${lim.size[1]} a side)`);
  $("set-status").textContent = parts.join(", ");
  const full = n >= lim.layers;
  $("card-add").disabled = full;
  $("photo-add").disabled = full;
  $("card-add").title = full ? `the builder takes at most ${lim.layers} ${noun}` : "another blank card";
  $("colour-add").disabled = m.colors.length >= lim.colours;
}

function limitsNow() {
  return box.limits && box.model ? box.limits[box.model.kind] : null;
}

// A deck built from an earlier state of the set is not played nor downloaded as this set's:
// the set file downloaded now would not give it. Painted back as it was, it is again.
function isStale() {
  const c = box.checked;
  return !!box.built && !!c && (c.toml !== box.built.result.toml || c.file !== box.built.file);
}

function showStale() {
  if (!box.built) return;
  const stale = isStale();
  const r = box.built.result;
  const empty = !r.counts.length;
  $("play").disabled = stale || !!r.nobody;
  $("download-deck").disabled = stale || empty;
  $("print").disabled = stale || empty;
  say("built-stale", stale ? `the set has changed since ${box.built.result.deck_file} was built: ` +
    "build again to play it or download its deck" : "");
}

function showRefusal(data, fallback) {
  const w = data.where || {};
  if (w.card !== undefined && $("card-msg-" + w.card)) sayAtLine("card-msg-" + w.card, data.error);
  else if (w.part === "size") say("size-msg", data.error);
  else if (w.part === "colours") sayAtLine("colours-msg", data.error);
  else if (w.part === "levels") say("levels-msg", data.error);
  else if (w.part === "set") sayAtLine("set-msg", data.error);
  else say(fallback, data.error);
  if (w.card !== undefined || w.part === "set" || w.part === "colours") say("build-msg", data.error);
}

// --- the LEDs --------------------------------------------------------------------

// Cell characters of a picture -> the LED value the firmware writes (the server's palette)
function ledValue(ch) {
  const c = box.checked;
  if (!c) return 0;
  const pal = c.palette;
  if (ch === ".") return pal[0];
  if (ch === "_") return pal[15] ?? 0;
  const i = box.model.colors.findIndex((p) => p[0] === ch);
  return i < 0 ? 0 : pal[i + 1] ?? 0;
}

// Draw rows of cell characters as LEDs: one LED a cell, the light through the colour model.
function drawLeds(canvas, rows, px = 14) {
  const h = rows.length;
  const w = h ? rows[0].length : 0;
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(w * px * dpr);
  canvas.height = Math.round(h * px * dpr);
  canvas.style.width = w * px + "px";
  canvas.style.height = h * px + "px";
  const ctx = canvas.getContext("2d");
  const p = px * dpr;
  ctx.fillStyle = BOARD;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const t = (window.layerlight && window.layerlight.screenTable) || (box.tables && box.tables.tables[box.tables.default]);
  ctx.lineWidth = Math.max(1, p * 0.06);
  ctx.strokeStyle = LED_RIM;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const v = ledValue(rows[y][x]);
      const rgb = [(v >> 16) & 255, (v >> 8) & 255, v & 255].map((c) => (t ? t[c] : c));
      ctx.beginPath();
      ctx.arc((x + 0.5) * p, (y + 0.5) * p, p * 0.4, 0, 2 * Math.PI);
      ctx.fillStyle = `rgb(${rgb[0]},${rgb[1]},${rgb[2]})`;
      ctx.fill();
      ctx.stroke();
    }
  }
}

const ORIENT_LABELS = ["front", "90°", "180°", "270°", "back", "90°", "180°", "270°"];

function drawOrientations(k, view) {
  const strip = document.querySelector(`.card[data-card="${k}"] .orient`);
  if (!strip) return;
  strip.textContent = "";
  if (!view) return;
  const [w, h] = dims();
  // about 96 px a picture, two rows of four: 6 px an LED at 16x16, 24 at 2x2 (never less than 6)
  const px = Math.max(6, Math.min(24, Math.floor(96 / Math.max(w, h))));
  view.orientations.forEach((rows, o) => {
    const fig = document.createElement("figure");
    fig.dataset.o = o;
    fig.title = `${o < 4 ? "front" : "back"} up, turned ${(o & 3) * 90}° clockwise`;
    const cv = document.createElement("canvas");
    cv.className = "leds";
    drawLeds(cv, rows, px);
    const cap = document.createElement("figcaption");
    cap.textContent = ORIENT_LABELS[o];
    fig.append(cv, cap);
    strip.append(fig);
  });
}

// --- drawing the set -----------------------------------------------------------------

function hexOf(index) {
  return index === 0 ? null : box.model.colors[index - 1][1];
}

function renderPalette() {
  const pal = $("palette");
  pal.textContent = "";
  const items = [[0, ".", null], ...box.model.colors.map(([ch, hex], i) => [i + 1, ch, hex])];
  if (box.colour > box.model.colors.length) box.colour = 1;
  for (const [i, ch, hex] of items) {
    const b = document.createElement("button");
    b.className = "swatch" + (i === box.colour ? " chosen" : "") + (i === 0 ? " hole" : "");
    b.dataset.colour = i;
    b.title = i === 0 ? "a hole (erase)" : `${ch} ${hex}`;
    if (hex) b.style.background = hex;
    b.textContent = i === 0 ? "hole" : ch;
    b.addEventListener("click", () => {
      box.colour = i;
      save();
      renderPalette();
    });
    pal.append(b);
  }
  const chosen = box.colour > 0 ? box.model.colors[box.colour - 1] : null;
  $("colour-edit").disabled = !chosen;
  $("colour-remove").disabled = !chosen;
  if (chosen && /^#[0-9a-fA-F]{6}$/.test(chosen[1])) $("colour-edit").value = chosen[1].toLowerCase();
  const lim = limitsNow();
  $("colour-add").disabled = !!lim && box.model.colors.length >= lim.colours;
}

function renderBar() {
  const m = box.model;
  $("box-name").value = m.name;
  $("box-file").value = box.file;
  const size = $("box-size");
  size.textContent = "";
  if (m.kind === "otlo") {
    const now = `${m.tile[0]}x${m.tile[1]}`;
    for (const t of OTLO_TILES.includes(now) ? OTLO_TILES : [...OTLO_TILES, now]) size.add(new Option(`tiles ${t.replace("x", " × ")}`, t, false, t === now));
  } else {
    const [lo, hi] = limitsNow() ? limitsNow().size : [2, 16];
    for (let n = lo; n <= hi; n++) size.add(new Option(`${n} × ${n}`, String(n), false, n === m.size));
  }
  $("box-bg-label").firstChild.textContent = m.kind === "otlo" ? "Table " : "Background ";
  $("card-from-photo").hidden = m.kind === "otlo";   // the reader reads Layers layers
  const bg = m.kind === "otlo" ? m.table : m.background;
  if (/^#[0-9a-fA-F]{6}$/.test(bg)) $("box-background").value = bg.toLowerCase();
  const lim = limitsNow();
  if (lim) {
    $("per-level").placeholder = String(lim.per_level_default);
    $("per-level").min = lim.per_level[0];
    $("per-level").max = lim.per_level[1];
    if (lim.max_level) {
      $("max-level").placeholder = String(lim.max_level_default);
      $("max-level").min = lim.max_level[0];
      $("max-level").max = lim.max_level[1];
    }
  }
  $("per-level").value = box.perLevel;
  $("max-level").value = box.maxLevel;
  $("max-level-label").hidden = m.kind === "otlo";
  $("per-level").previousSibling.textContent = m.kind === "otlo" ? "Challenges per star level " : "Missions per level ";
}

function cellStyle(el, ch) {
  const i = box.model.colors.findIndex((p) => p[0] === ch);
  if (ch === "." || i < 0) {
    // a hole shows what is under the card: the set's background (the table, for tiles)
    const bg = box.model.kind === "otlo" ? box.model.table : box.model.background;
    el.style.background = "";
    el.style.backgroundColor = /^#[0-9a-fA-F]{6}$/.test(bg || "") ? bg : "";
    el.classList.add("hole");
  } else {
    el.style.background = box.model.colors[i][1];
    el.classList.remove("hole");
  }
}

function renderCards() {
  const host = $("cards");
  host.textContent = "";
  const [w, h] = dims();
  box.model.cards.forEach((card, k) => {
    const zoomed = k === box.zoomed;
    // both sides side by side inside the card; zoomed, each side as large as the row allows
    const cellPx = zoomed ? Math.max(14, Math.min(56, Math.floor(400 / Math.max(w, h))))
      : Math.max(9, Math.min(36, Math.floor(170 / Math.max(w, h))));
    const el = document.createElement("article");
    el.className = "card" + (zoomed ? " zoomed" : "");
    el.dataset.card = k;
    const head = document.createElement("header");
    head.draggable = true;
    head.title = "drag onto the stack";
    head.addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", String(k)));
    const id = document.createElement("input");
    id.className = "card-id";
    id.type = "text";
    id.value = card.id;
    id.spellcheck = false;
    id.addEventListener("input", () => {
      card.id = id.value;
      changed(false, "field" + box.seq);
    });
    head.append(id);
    for (const [cls, text, title, fn] of [
      ["card-mirror", "front → back", "copy the front to the back, left and right swapped (the card turned over)", () => mirrorCard(k).catch(lost)],
      ["card-clear", "clear", "make every cell of both sides a hole", () => clearCard(k)],
      ["card-stack", "stack", "put this card on top of the stack", () => addToStack(k)],
      ["card-zoom", zoomed ? "smaller" : "zoom", zoomed ? "back to its size" : "this card large, the width of the page", () => {
        box.zoomed = zoomed ? -1 : k;
        render();
      }],
      ["card-remove", "×", "remove this card", () => removeCard(k)],
    ]) {
      const b = document.createElement("button");
      b.className = "btn small " + cls;
      b.textContent = text;
      b.title = title;
      b.addEventListener("click", fn);
      head.append(b);
    }
    el.append(head);
    const sides = document.createElement("div");
    sides.className = "sides";
    for (const side of ["front", "back"]) {
      const wrap = document.createElement("div");
      wrap.className = "side";
      wrap.dataset.side = side;
      const label = document.createElement("div");
      label.className = "side-label";
      label.textContent = side === "front" ? "front" : "back, turned over as the table sees it";
      const grid = document.createElement("div");
      grid.className = "grid";
      grid.style.gridTemplateColumns = `repeat(${w}, ${cellPx}px)`;
      grid.style.gridAutoRows = `${cellPx}px`;
      const rows = card[side];
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const c = document.createElement("div");
          c.className = "cell";
          c.dataset.x = x;
          c.dataset.y = y;
          cellStyle(c, (rows[y] || "")[x] || ".");
          grid.append(c);
        }
      }
      wirePainting(grid, () => box.model.cards[k][side], (x, y, value, tag) => {
        if (!setCell(k, side, x, y, value)) return false;
        changed(false, tag);
        return true;
      });
      wrap.append(label, grid);
      sides.append(wrap);
    }
    el.append(sides);
    const msg = document.createElement("div");
    msg.className = "msg";
    msg.id = "card-msg-" + k;
    msg.setAttribute("role", "alert");
    msg.hidden = true;
    el.append(msg);
    const orient = document.createElement("div");
    orient.className = "orient";
    orient.title = "the card in its 8 orientations, as the LEDs show it";
    el.append(orient);
    host.append(el);
  });
}

// The brush on a grid of cells: rowsOf() gives the rows painted, paint(x, y, value, tag) paints
// one cell (true when it changed). `where` keeps a stroke on the kind of grid it started on: a
// stroke on the cards does not run on into a photo's cells, nor one there onto the cards.
function wirePainting(grid, rowsOf, paint, where = "cards") {
  const paintAt = (target) => {
    if (!box.painting || box.painting.where !== where) return;
    if (!target || !target.classList || !target.classList.contains("cell")) return;
    if (target.parentElement !== grid) return;
    const x = Number(target.dataset.x);
    const y = Number(target.dataset.y);
    if (paint(x, y, box.painting.value, box.painting.tag)) cellStyle(target, charOf(box.painting.value));
  };
  grid.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || !e.target.classList.contains("cell")) return;
    e.preventDefault();
    const x = Number(e.target.dataset.x);
    const y = Number(e.target.dataset.y);
    // a click on a cell already in the chosen colour makes it a hole again
    const here = rowsOf()[y][x];
    const value = here === charOf(box.colour) && box.colour !== 0 ? 0 : box.colour;
    box.painting = { value, where, tag: "stroke" + ++box.seq };   // one stroke, one undo step
    // a touch captures the pointer to its first cell: let a drag reach the others
    if (e.target.hasPointerCapture(e.pointerId)) e.target.releasePointerCapture(e.pointerId);
    paintAt(e.target);
  });
  grid.addEventListener("pointerover", (e) => paintAt(e.target));
}

function render() {
  renderBar();
  renderPalette();
  renderCards();
  renderStack();
  if (box.photo) showPhoto();   // its cells in the colours as they are now
  if (box.checked) showCheck();
}

// --- card actions --------------------------------------------------------------------

// The back becomes the front turned over: the server mirrors the front as it is now
// (geometry.mirror), so the check runs first on the current model.
async function mirrorCard(k) {
  clearTimeout(box.checkTimer);
  box.pendingCheck = true;
  await check();
  const now = box.checked.views && box.checked.views[k];
  if (!now) return;
  box.model.cards[k].back = now.mirrored.slice();
  changed();
}

function clearCard(k) {
  const [w, h] = dims();
  box.model.cards[k].front = blankRows(w, h);
  box.model.cards[k].back = blankRows(w, h);
  changed();
}

function removeCard(k) {
  box.model.cards.splice(k, 1);
  box.stack = box.stack.filter((s) => s.card !== k).map((s) => ({ ...s, card: s.card > k ? s.card - 1 : s.card }));
  changed();
}

// the id a new card gets: layerN (tN for a tile), N one more than the cards, or the next free
function newId() {
  const stem = box.model.kind === "otlo" ? "t" : "layer";
  const ids = new Set(box.model.cards.map((c) => c.id));
  let n = box.model.cards.length + 1;
  while (ids.has(stem + n)) n++;
  return stem + n;
}

function addCard() {
  const [w, h] = dims();
  box.model.cards.push({ id: newId(), front: blankRows(w, h), back: blankRows(w, h) });
  changed();
}

// --- a layer from a photo --------------------------------------------------------------------
// The server reads the photo with the set's size and colours as painted now (layers/photo.py);
// the page shows the card straightened beside the cells read, the doubtful ones ringed on
// both, lets the player paint corrections with the palette (not undo steps: nothing is in the
// set yet), and adds the layer as one step.

function fileBase64(file) {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).split(",", 2)[1] || "");
    r.onerror = () => reject(r.error);
    r.readAsDataURL(file);
  });
}

async function readPhoto(file) {
  say("cards-msg", "");
  $("photo-label").classList.add("busy");
  // the reading is of the set's size and colours as they were sent: changed meanwhile, it is not shown
  const readAs = () => JSON.stringify([box.model.kind, box.model.size, box.model.colors]);
  const asked = readAs();
  let data;
  try {
    const image = await fileBase64(file);
    ({ data } = await post("/box/photo?name=" + encodeURIComponent(file.name), { model: box.model, image }));
  } finally {
    $("photo-input").value = "";
    $("photo-label").classList.remove("busy");
  }
  if (data.error) {
    // a photo not read: its line, and no reading of an earlier photo left beside it
    closePhoto();
    say("cards-msg", data.error);
    return;
  }
  if (readAs() !== asked) {
    closePhoto();
    say("cards-msg", `${data.name}: the set's grid or colours changed while it was read: read it again`);
    return;
  }
  box.photo = { ...data, rows: data.rows.slice() };
  showPhoto();
  $("photo-read").scrollIntoView({ block: "nearest" });
}

function showPhoto() {
  const p = box.photo;
  $("photo-read").hidden = false;
  $("photo-img").src = "data:image/png;base64," + p.preview;
  const doubt = new Set(p.doubts.map(([r, c]) => `${c - 1},${r - 1}`));
  // the doubtful cells ringed on the picture too: the grid lies at grid_box of its preview_size px
  const marks = $("photo-marks");
  marks.textContent = "";
  const [g0, g1] = p.grid_box;
  const cellPc = (100 * (g1 - g0)) / p.size / p.preview_size;
  for (const [r, c] of p.doubts) {
    const m = document.createElement("div");
    m.className = "photo-mark";
    m.style.left = `${(100 * g0) / p.preview_size + (c - 1) * cellPc}%`;
    m.style.top = `${(100 * g0) / p.preview_size + (r - 1) * cellPc}%`;
    m.style.width = m.style.height = `${cellPc}%`;
    marks.append(m);
  }
  const grid = $("photo-grid");
  const old = grid;
  const fresh = old.cloneNode(false);   // a new element: the brush wired once
  old.replaceWith(fresh);
  const cellPx = Math.max(14, Math.min(40, Math.floor(300 / p.size)));
  fresh.style.gridTemplateColumns = `repeat(${p.size}, ${cellPx}px)`;
  fresh.style.gridAutoRows = `${cellPx}px`;
  for (let y = 0; y < p.size; y++) {
    for (let x = 0; x < p.size; x++) {
      const c = document.createElement("div");
      c.className = "cell" + (doubt.has(`${x},${y}`) ? " doubt" : "");
      c.dataset.x = x;
      c.dataset.y = y;
      cellStyle(c, p.rows[y][x]);
      fresh.append(c);
    }
  }
  wirePainting(fresh, () => box.photo.rows, (x, y, value) => {
    const rows = box.photo.rows;
    const ch = charOf(value);
    if (rows[y][x] === ch) return false;
    rows[y] = rows[y].slice(0, x) + ch + rows[y].slice(x + 1);
    return true;
  }, "photo");
  $("photo-how").textContent = `${p.name}: ${p.how}`;
  const n = p.doubts.length;
  $("photo-doubts").textContent = n ? `${n} cell${n === 1 ? "" : "s"} in doubt (ringed): look at ${n === 1 ? "it" : "them"} on the card first` : "no cell in doubt";
  const same = $("photo-same");
  same.textContent = p.same ? (p.same.differ ? p.same.line : `${p.same.line}: this layer is in the set already`) : "";
  same.classList.toggle("warn", !!p.same && !p.same.differ);
  $("photo-add").disabled = $("card-add").disabled;
}

function closePhoto() {
  box.photo = null;
  $("photo-read").hidden = true;
  $("photo-img").removeAttribute("src");
}

// The layer added as read and corrected, its back the front turned over (the server's mirror,
// asked with the card in the set), in one change: one Undo takes it off again.
async function addPhoto() {
  const p = box.photo;
  if (!p) return;
  const [w, h] = dims();
  if (box.model.kind !== "layers" || w !== p.size || h !== p.size) {
    say("cards-msg", `${p.name}: read as ${p.size} × ${p.size}, and the set's grid is ${w} × ${h} now: read it again`);
    return;
  }
  const card = { id: newId(), front: p.rows.slice(), back: p.rows.slice() };
  const { data } = await post("/box/check", { model: { ...box.model, cards: [...box.model.cards, card] }, file: box.file });
  const view = data.views && data.views[box.model.cards.length];
  if (!view) {
    say("cards-msg", data.error || `${p.name}: the layer could not be turned over`);
    return;
  }
  card.back = view.mirrored.slice();
  box.model.cards.push(card);
  closePhoto();
  say("cards-msg", "");
  changed();
}

// --- the stack ---------------------------------------------------------------------------

function addToStack(k) {
  if (box.stack.some((s) => s.card === k)) return;
  box.stack.push(box.model.kind === "otlo" ? { card: k, layer: 0, side: 0, rot: 0, x: 0, y: 0 } : { card: k, o: 0 });
  changed();
}

function stackLabel(s) {
  const card = box.model.cards[s.card];
  const id = card ? card.id : "?";
  if (box.model.kind === "otlo") {
    return `${id}: ${s.layer ? "top" : "bottom"}, ${s.side ? "back" : "front"} ${s.rot * 90}°, at ${s.x + 1},${s.y + 1}`;
  }
  return `${id}: ${s.o >= 4 ? "back" : "front"} ${(s.o & 3) * 90}°`;
}

function renderStack() {
  const list = $("stack");
  list.textContent = "";
  const otlo = box.model.kind === "otlo";
  box.stack.forEach((s, i) => {
    const li = document.createElement("li");
    li.className = "stack-item";
    li.dataset.k = i;
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = stackLabel(s);
    li.append(label);
    const buttons = [
      ["st-turn", "↻", "turn a quarter clockwise", () => (otlo ? (s.rot = (s.rot + 1) & 3) : (s.o = (s.o & 4) | ((s.o + 1) & 3)))],
      ["st-flip", "flip", "the other side up", () => (otlo ? (s.side ^= 1) : (s.o ^= 4))],
    ];
    if (otlo) {
      buttons.push(["st-layer", "top/bottom", "lay it in the top or the bottom layer", () => (s.layer ^= 1)]);
      buttons.push(["st-left", "←", "one cell left", () => (s.x = Math.max(0, s.x - 1))]);
      buttons.push(["st-right", "→", "one cell right", () => (s.x += 1)]);
      buttons.push(["st-up", "↑", "one cell up", () => (s.y = Math.max(0, s.y - 1))]);
      buttons.push(["st-down", "↓", "one cell down", () => (s.y += 1)]);
    } else {
      buttons.push(["st-lower", "▼", "one place lower in the stack", () => {
        if (i > 0) [box.stack[i - 1], box.stack[i]] = [box.stack[i], box.stack[i - 1]];
      }]);
    }
    buttons.push(["st-remove", "×", "off the stack", () => box.stack.splice(i, 1)]);
    for (const [cls, text, title, fn] of buttons) {
      const b = document.createElement("button");
      b.className = "btn small " + cls;
      b.textContent = text;
      b.title = title;
      b.addEventListener("click", () => {
        fn();
        changed();
      });
      li.append(b);
    }
    list.append(li);
  });
  if (!box.stack.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = "no cards yet";
    list.append(li);
  }
}

async function drawStack() {
  const cv = $("stack-leds");
  say("stack-msg", "");
  if (!box.stack.length) {
    box.stackRows = [];
    cv.hidden = true;
    return;
  }
  box.stackPending = true;
  const otlo = box.model.kind === "otlo";
  const stack = box.stack.map((s) => (otlo ? [s.card, s.layer, s.side, s.rot, s.x, s.y] : [s.card, s.o]));
  let data;
  try {
    ({ data } = await post("/box/stack", { model: box.model, stack }));
  } finally {
    box.stackPending = false;
  }
  if (data.error) {
    say("stack-msg", data.error);
    return;
  }
  box.stackRows = data.rows;
  cv.hidden = false;
  drawLeds(cv, data.rows, Math.max(8, Math.floor(192 / Math.max(data.w, data.h))));
}

// --- opening sets ---------------------------------------------------------------------------

function openModel(model, file) {
  box.model = model;
  box.file = file || box.file;
  box.stack = [];
  box.colour = 1;
  box.built = null;
  box.zoomed = -1;
  $("build-result").hidden = true;
  $("box-kind").value = model.kind;
  closePhoto();
  say("cards-msg", "");
  forget();
  say("build-msg", "");
  say("upload-msg", "");
  // the set as opened is in a file (or blank): its text is the first check's
  box.keptPending = true;
  save();
  render();
  clearTimeout(box.checkTimer);
  box.pendingCheck = true;
  check().catch(lost);
}

// Another set opened here replaces the one painted: asked first when that one has changes
// that are in no file (neither as it was opened nor as last downloaded). Cancel keeps it.
async function replaceOk() {
  await flush();
  if (box.kept !== null && box.checked.toml === box.kept) return true;
  return window.confirm(`${box.checked.file} has changes that are in no file yet: replace it anyway? ` +
    '(Cancel keeps it; "Download the set" saves it.)');
}

async function openShipped() {
  const name = $("box-shipped").value;
  const r = await fetch("/box/shipped/" + encodeURIComponent(name));
  const data = await r.json();
  if (data.error) say("upload-msg", data.error);
  else if (await replaceOk()) openModel(data.model, data.file);
}

async function upload(file) {
  say("upload-msg", "");
  const bytes = new Uint8Array(await file.arrayBuffer());
  const { data } = await post("/box/open?name=" + encodeURIComponent(file.name), bytes, true);
  $("box-upload").value = "";
  // a refused file leaves the painted set as it is
  if (data.error) say("upload-msg", data.error);
  else if (await replaceOk()) openModel(data.model, data.file);
}

// --- building and playing ---------------------------------------------------------------

// One build at a time from the page: Build is off from the click until the build is over. A
// build already running on the server (this page reloaded, another tab) is followed, not refused.
async function build() {
  if (box.building) return;
  setBuilding(true);
  try {
    say("build-msg", "");
    box.buildMsgToml = null;
    showProgress("", 0, 0);
    await flush();
    const { status, data } = await post("/box/build", { model: box.model, file: box.file, matrix: matrix(), ...levels() });
    if (status === 409) {
      await follow();
      return;
    }
    if (status !== 202) {
      showRefusal(data, "build-msg");
      box.buildMsgToml = box.checked.toml;
      return;
    }
    $("build-result").hidden = true;
    await follow();
  } finally {
    setBuilding(false);
  }
}

function setBuilding(on) {
  box.building = on;
  $("build").disabled = on;
}

// Poll the server's build until it is over, then show how it ended.
async function follow() {
  for (;;) {
    const s = await (await fetch("/box/build")).json();
    if (s.state === "running") {
      showProgress(s.stage, s.done, s.total);
      await new Promise((r) => setTimeout(r, 150));
      continue;
    }
    ended(s);
    return;
  }
}

function ended(s) {
  if (s.state === "failed") {
    showProgress("", 0, 0);
    showRefusal(s, "build-msg");
    box.buildMsgToml = s.toml || null;
  } else if (s.state === "done") {
    showProgress("done", 1, 1);
    showBuilt(s.result, s.file);
  }
}

// The page opened (or reloaded): a build the server is running is followed (its promise is
// returned, the page is ready meanwhile); one that ended, of the set as it is now, is shown.
async function resumeBuild() {
  const s = await (await fetch("/box/build")).json();
  if (s.state === "running") {
    setBuilding(true);
    return follow().finally(() => setBuilding(false));
  }
  if ((s.state === "done" || s.state === "failed") && box.checked && s.toml === box.checked.toml
    && s.file === box.checked.file) {
    ended(s);
  }
  return null;
}

const STAGES = { stackings: "every stacking", missions: "solving each mission again" };

function showProgress(stage, done, total) {
  const bar = $("build-progress");
  bar.value = total ? done / total : 0;
  $("build-stage").textContent = stage === "done" ? "built" : stage ? `${STAGES[stage] || stage}: ${Math.floor((100 * done) / (total || 1))} %` : "";
}

function b64bytes(text) {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function showBuilt(result, file) {
  box.built = { result, file, bytes: b64bytes(result.deck) };
  $("build-result").hidden = false;
  $("build-line").textContent = `${result.deck_file}: ${result.line}, ${result.bytes} bytes`;
  const t = $("build-counts");
  t.textContent = "";
  const otlo = result.kind === "otlo";
  const head = t.insertRow();
  const body = t.insertRow();
  head.insertCell().textContent = otlo ? "stars" : "level";
  body.insertCell().textContent = otlo ? "challenges" : "missions";
  for (const [level, n] of result.counts) {
    head.insertCell().textContent = level;
    body.insertCell().textContent = n;
  }
  $("flash-command").textContent = result.flash_command;
  $("build-command").textContent = result.build_command;
  $("render-command").textContent = result.render_command;
  // the modes that can play it (their levels), and why each other one cannot
  $("build-plays").textContent = result.plays_line;
  const why = $("build-whynot");
  why.textContent = "";
  for (const p of result.plays) {
    if (!p.why) continue;
    const li = document.createElement("li");
    li.textContent = p.why;
    why.append(li);
  }
  const modes = $("play-mode");
  modes.textContent = "";
  for (const p of result.plays) {
    if (p.levels.length) modes.add(new Option(`${p.label} (level${p.levels.length > 1 ? "s" : ""} ${p.levels.join(", ")})`, p.mode));
  }
  modes.disabled = !modes.options.length;
  if (result.nobody) {
    say("build-msg", `${result.deck_file}: ${result.nobody}`);
    box.buildMsgToml = result.toml;
  }
  const host = $("samples");
  host.textContent = "";
  for (const s of result.samples) {
    const fig = document.createElement("figure");
    fig.className = "sample";
    const cv = document.createElement("canvas");
    cv.className = "leds";
    drawLeds(cv, s.rows, Math.max(6, Math.floor(84 / Math.max(s.w, s.h))));
    const cap = document.createElement("figcaption");
    const what = otlo ? `challenge ${s.id}, ${s.level} star${s.level === 1 ? "" : "s"}` : `mission ${s.id}, level ${s.level}`;
    const steps = s.solution.map((p) =>
      otlo ? `${p.card} ${p.layer} ${p.side} ${p.rot}° at ${p.x + 1},${p.y + 1}` : `${p.card} ${p.side} ${p.rot}°`);
    cap.innerHTML = "";
    const strong = document.createElement("strong");
    strong.textContent = what;
    const sol = document.createElement("span");
    sol.textContent = `${s.solutions} solution${s.solutions === 1 ? "" : "s"}; ${otlo ? "" : "bottom first: "}${steps.join(" → ")}`;
    cap.append(strong, document.createElement("br"), sol);
    fig.append(cv, cap);
    host.append(fig);
  }
  showStale();   // painted on while it built
}

function download(name, bytes, type) {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

async function downloadSet() {
  await flush();
  if (!box.checked.toml) return;
  download(box.checked.file, box.checked.toml, "application/toml");
  box.kept = box.checked.toml;
  save();
}

async function play() {
  await flush();
  if (!box.built || isStale()) return;
  try {
    window.layerlight.useDeck(box.built.result.kind, box.built.bytes, $("play-mode").value || undefined);
    say("build-msg", "");
    document.querySelector(".device").scrollIntoView({ behavior: "smooth", block: "center" });
  } catch (e) {
    say("build-msg", "the device could not take the deck: " + (e.message || e));
  }
}

// The printable cards of the deck: the server renders the deck it built, as `cards render` does.
async function printBox() {
  await flush();
  if (!box.built || isStale()) return;
  const r = await fetch("/box/cards.pdf?deck=" + box.built.result.deck_sha);
  if (!r.ok) {
    let why = `HTTP ${r.status}`;
    try {
      why = (await r.json()).error;
    } catch (e) {
      // not JSON: the status says it
    }
    say("build-msg", `${box.built.result.pdf_file}: ${why}`);
    box.buildMsgToml = box.checked.toml;
    return;
  }
  download(box.built.result.pdf_file, new Uint8Array(await r.arrayBuffer()), "application/pdf");
}

// --- wiring -------------------------------------------------------------------------------

function wire() {
  window.addEventListener("pointerup", () => (box.painting = null));
  window.addEventListener("pointercancel", () => (box.painting = null));
  // typing in one field until it loses focus is one undo step
  document.addEventListener("focusin", () => box.seq++);
  $("box-name").addEventListener("input", () => {
    box.model.name = $("box-name").value;
    changed(false, "field" + box.seq);
  });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  document.addEventListener("keydown", (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    const key = e.key.toLowerCase();
    if (key !== "z" && key !== "y") return;
    // a text field keeps its own undo of what is being typed there
    const t = e.target;
    if (t && (t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && ["text", "number"].includes(t.type)))) return;
    e.preventDefault();
    if (key === "y" || e.shiftKey) redo();
    else undo();
  });
  $("box-file").addEventListener("change", () => {
    box.file = $("box-file").value.trim() || "my-box.toml";
    changed(false);
  });
  // a new grid size: the server cuts or pads the cards (the back keeps matching the front)
  $("box-size").addEventListener("change", () => resize().catch(lost));
  async function resize() {
    const v = $("box-size").value;
    const size = box.model.kind === "otlo" ? v.split("x").map(Number) : Number(v);
    box.pendingCheck = true;
    const { data } = await post("/box/resize", { model: box.model, size });
    if (data.error) {
      say("size-msg", data.error);
      box.pendingCheck = false;
      return;
    }
    box.model = data.model;
    if (box.model.kind === "otlo") box.stack = box.stack.map((s) => ({ ...s, x: 0, y: 0 }));
    changed();
  }
  $("box-background").addEventListener("input", () => {
    if (box.model.kind === "otlo") box.model.table = $("box-background").value;
    else box.model.background = $("box-background").value;
    changed(true, "field" + box.seq);   // redrawn: the holes show it
  });
  $("colour-edit").addEventListener("input", () => {
    if (box.colour < 1) return;
    box.model.colors[box.colour - 1][1] = $("colour-edit").value;
    changed(true, "field" + box.seq);
  });
  $("colour-add").addEventListener("click", () => {
    const used = new Set(box.model.colors.map((c) => c[0]));
    const ch = [...CHARS].find((c) => !used.has(c));
    if (!ch) return;
    box.model.colors.push([ch, EXTRA[box.model.colors.length % EXTRA.length]]);
    box.colour = box.model.colors.length;
    changed();
  });
  $("colour-remove").addEventListener("click", () => {
    if (box.colour < 1) return;
    const [ch] = box.model.colors[box.colour - 1];
    box.model.colors.splice(box.colour - 1, 1);
    for (const c of box.model.cards) {
      for (const side of ["front", "back"]) c[side] = c[side].map((r) => r.split(ch).join("."));
    }
    box.colour = Math.min(box.colour, box.model.colors.length);
    changed();
  });
  $("box-new").addEventListener("click", async () => {
    const kind = $("box-kind").value;
    if (await replaceOk().catch(lost)) {
      openModel(newModel(kind, kind === "otlo" ? "2x2" : "6"), kind === "otlo" ? "my-tiles.toml" : "my-box.toml");
    }
  });
  $("box-open").addEventListener("click", () => openShipped().catch((e) => say("upload-msg", String(e))));
  $("box-upload").addEventListener("change", () => {
    const f = $("box-upload").files[0];
    if (f) upload(f).catch((e) => say("upload-msg", String(e)));
  });
  $("card-add").addEventListener("click", addCard);
  $("photo-input").addEventListener("change", () => {
    const f = $("photo-input").files[0];
    if (f) readPhoto(f).catch((e) => say("cards-msg", String(e.message || e)));
  });
  $("photo-add").addEventListener("click", () => addPhoto().catch((e) => say("cards-msg", String(e.message || e))));
  $("photo-cancel").addEventListener("click", closePhoto);
  const stack = $("stack");
  stack.addEventListener("dragover", (e) => {
    e.preventDefault();
    stack.classList.add("over");
  });
  stack.addEventListener("dragleave", () => stack.classList.remove("over"));
  stack.addEventListener("drop", (e) => {
    e.preventDefault();
    stack.classList.remove("over");
    const k = Number(e.dataTransfer.getData("text/plain"));
    if (Number.isInteger(k) && k >= 0 && k < box.model.cards.length) addToStack(k);
  });
  $("per-level").addEventListener("input", () => {
    box.perLevel = $("per-level").value;
    changed(false);
  });
  $("max-level").addEventListener("input", () => {
    box.maxLevel = $("max-level").value;
    changed(false);
  });
  $("build").addEventListener("click", () => build().catch((e) => say("build-msg", String(e))));
  $("play").addEventListener("click", () => play().catch(lost));
  $("print").addEventListener("click", () => printBox().catch((e) => say("build-msg", String(e))));
  // the set as it is now (the deck built from it, when not stale, is what `cards build` makes of it)
  $("download-toml").addEventListener("click", () => downloadSet().catch(lost));
  $("download-deck").addEventListener("click", () => {
    if (box.built && !isStale()) download(box.built.result.deck_file, box.built.bytes, "application/octet-stream");
  });
  // the device's matrix changes what fits: check again
  const size = $("size");
  if (size) size.addEventListener("change", () => setTimeout(scheduleCheck, 50));
}

async function startBox() {
  const [tables, shipped, limits] = await Promise.all([
    fetch("/led-colours.json").then((r) => r.json()),
    fetch("/box/shipped.json").then((r) => r.json()),
    fetch("/box/limits.json").then((r) => r.json()),
  ]);
  box.tables = tables;
  box.limits = limits;
  for (const s of shipped) $("box-shipped").add(new Option(`${s.name} (${s.file})`, s.file));
  if (!restore()) {
    box.model = newModel("layers", "6");
    box.keptPending = true;   // a blank set: nothing to lose yet
  }
  $("box-kind").value = box.model.kind;
  forget();
  wire();
  render();
  await check();
  const following = await resumeBuild();
  window.layerlightBox.ready = true;
  if (following) await following;
}

startBox().catch((e) => {
  say("set-msg", "Your box could not start: " + (e.message || e));
});
