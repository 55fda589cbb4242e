// The Layerlight simulator page.
//
// The firmware runs unchanged on the MicroPython WebAssembly build, inside
// this page: the server hands out the firmware and the simulator's Python
// (simcore, web/webdevice.py) and the device's flash, we copy them into the
// wasm filesystem and drive a WebDevice from the animation loop, one short
// call at a time: advance the virtual clock, read the LEDs and the buzzer.
// Everything comes from the server this page came from.

import { loadMicroPython } from "/mpy/micropython.mjs";

const KEYS = { "1": 0, "2": 1, "3": 2, "4": 3, a: 4, b: 5 };
const SIZES = ["8x8", "16x16", "32x32"];
const MATRIX_PX = 512;          // CSS pixels of the matrix's longer side
const BOARD = "#050506";        // the board between the LEDs
const LED_PACKAGE = "#1f2026";  // the rim of each LED, so unlit ones are visible
const UNPLUGGED_MS = 900;       // how long the matrix stays dark when the plug is pulled
const AUDIO_LATENCY_S = 0.06;
const VOLUME = 0.05;
const MAX_PENDING_MS = 1000;    // virtual time we may owe the device before we drop it (slow machine)

const $ = (id) => document.getElementById(id);
const canvas = $("matrix");
const ctx = canvas.getContext("2d");
const glowCanvas = document.createElement("canvas");
const glowCtx = glowCanvas.getContext("2d");

const sim = {
  mp: null,
  web: null,            // the Python WebDevice
  width: 16,
  height: 16,
  pitch: 32,            // canvas pixels per LED
  frame: null,          // Uint8Array RGB, row by row: the values the firmware wrote
  shown: null,          // Uint8Array RGB: what the eye sees of them (the colour model)
  image: null,          // ImageData of shown, one pixel per LED (for the glow)
  tables: null,         // the colour model: brightness -> the screen byte of each channel value
  cap: "0.25",          // the brightness the firmware set
  speed: 1,
  held: new Set(),      // buttons down on the page
  vt: 0,                // the device's virtual time (ms)
  pending: 0,           // virtual ms owed to the device
  last: 0,
  lastStatus: 0,
  lastGc: 0,
  unplugged: false,
  failed: false,
  frozen: false,        // time stands still (tests, screenshots)
  audio: null,
  notes: 0,             // buzzer notes started since the page loaded
};

// What tests (and the curious) can read: the state, the frame, the LEDs as drawn.
window.layerlight = {
  ready: false,
  error: null,
  get status() { return sim.web && !sim.unplugged ? JSON.parse(sim.web.status()) : null; },
  get width() { return sim.width; },
  get height() { return sim.height; },
  get notes() { return sim.notes; },
  get audioState() { return sim.audio ? sim.audio.ctx.state : "none"; },
  get unplugged() { return sim.unplugged; },
  // stop (true) or restart the device's clock: the LEDs hold still for a reading or a picture
  freeze: (on) => { sim.frozen = !!on; },
  frameRows: () => frameRows(),
  shownRows: () => frameRows(sim.shown),
  get cap() { return sim.cap; },
  flashNames: () => (sim.web ? sim.web.flash_names().split(",").filter(Boolean) : []),
  readLeds: () => readLeds(),
  ledCentre: (x, y) => ledCentre(x, y),
  // "Your box": the colour model's table at the brightness shown, and a new deck for the device
  get screenTable() { return sim.tables ? sim.tables[sim.cap] : null; },
  useDeck: (kind, bytes, mode) => useDeck(kind, bytes, mode),
};

// --- loading ------------------------------------------------------------------

async function fetchBytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

function mkdirs(FS, dir) {
  let cur = "";
  for (const part of dir.split("/").filter(Boolean)) {
    cur += "/" + part;
    try {
      FS.mkdir(cur);
    } catch (e) {
      // it exists already
    }
  }
}

function dirname(p) {
  return p.slice(0, p.lastIndexOf("/")) || "/";
}

async function start() {
  const manifest = await (await fetch("/manifest.json")).json();
  const [code, flash, model, mp] = await Promise.all([
    Promise.all(manifest.code.map(async (f) => ({ path: f.path, data: await fetchBytes(f.url) }))),
    Promise.all(manifest.flash.map(async (f) => ({ name: f.name, data: await fetchBytes(f.url) }))),
    fetch("/led-colours.json").then((r) => r.json()),
    loadMicroPython({
      linebuffer: true,
      stdout: (line) => log(line),
      stderr: (line) => log(line, true),
    }),
  ]);
  sim.mp = mp;
  sim.tables = model.tables;
  sim.cap = model.default;
  for (const f of code) {
    mkdirs(mp.FS, dirname(f.path));
    mp.FS.writeFile(f.path, f.data);
  }
  for (const f of flash) {
    mkdirs(mp.FS, dirname("/flash/" + f.name));
    mp.FS.writeFile("/flash/" + f.name, f.data);
  }
  const dev = manifest.device;
  mp.globals.set("_flash_names", JSON.stringify(flash.map((f) => f.name)));
  mp.globals.set("_device", JSON.stringify(dev));
  mp.runPython(`
import gc
import json
from layerlight_tools.web import webdevice
_flash = {}
for _name in json.loads(_flash_names):
    with open("/flash/" + _name, "rb") as _f:
        _flash[_name] = _f.read()
_d = json.loads(_device)
web = webdevice.WebDevice(_flash, _d["width"], _d["height"], _d["seed"], _d["game"], _d["players"])
del _flash, _d, _name, _f, _flash_names, _device
`);
  sim.web = mp.globals.get("web");
  sim.keepFlash = Boolean(manifest.keep_flash);
  sim.lastFlash = 0;
  sim.seed = dev.seed;

  const size = `${dev.width}x${dev.height}`;
  for (const s of SIZES.includes(size) ? SIZES : [...SIZES, size]) $("size").add(new Option(s, s, false, s === size));
  for (const name of pyString("webdevice.mode_names()").split(",")) {
    $("mode").add(new Option(name, name, false, name === dev.game));
  }
  setGeometry(dev.width, dev.height);
  wireControls();
  $("overlay").hidden = true;
  window.layerlight.ready = true;
  requestAnimationFrame(loop);
}

// The value of a Python expression, as a string.
function pyString(expr) {
  sim.mp.runPython(`_out = str(${expr})`);
  return sim.mp.globals.get("_out");
}

// --- the loop -------------------------------------------------------------------

function loop(now) {
  requestAnimationFrame(loop);
  const dt = sim.last ? Math.min(now - sim.last, 250) : 0;
  sim.last = now;
  if (!sim.web || sim.unplugged || sim.failed || sim.frozen) return;
  try {
    // speed-up is for the timers: a held button (pause menu, solution) runs at normal speed
    const rate = sim.held.size ? 1 : sim.speed;
    sim.pending = Math.min(sim.pending + dt * rate, MAX_PENDING_MS);
    if (sim.pending >= 10) {
      const passed = sim.web.advance(Math.floor(sim.pending));
      sim.pending -= passed;
      sim.vt += passed;
    }
    pollDevice(rate);
    if (now - sim.lastStatus > 100) {
      sim.lastStatus = now;
      showStatus(JSON.parse(sim.web.status()));
      const lines = sim.web.console();
      if (lines) for (const l of lines.split("\n")) log(l);
    }
    if (sim.keepFlash && now - sim.lastFlash > 500) {
      // `sim --web --flash DIR`: what the device wrote goes to the folder
      sim.lastFlash = now;
      const changes = sim.web.flash_changes();
      if (changes !== "{}") fetch("/flash-write", { method: "POST", body: changes }).catch((e) => log(String(e), true));
    }
    if (now - sim.lastGc > 1000) {
      // the wasm port collects garbage between calls from here
      sim.lastGc = now;
      sim.mp.runPython("gc.collect()");
    }
  } catch (e) {
    fail(e);
  }
}

function pollDevice(rate) {
  const hex = sim.web.frame();
  const cap = sim.web.cap();
  if (hex || cap !== sim.cap) {
    if (cap in sim.tables) sim.cap = cap;
    if (hex) setFrame(hex);
    showFrame();
    draw();
  }
  const tones = sim.web.tones();
  if (tones) playTones(tones, rate);
}

function fail(e) {
  sim.failed = true;
  const text = (e && e.message) || String(e);
  window.layerlight.error = text;
  log(text, true);
  const o = $("overlay");
  o.textContent = "The simulator stopped:\n\n" + text;
  o.className = "error";
  o.hidden = false;
}

// --- the LEDs -------------------------------------------------------------------

function setGeometry(width, height) {
  sim.width = width;
  sim.height = height;
  const dpr = window.devicePixelRatio || 1;
  const cssPitch = Math.floor(MATRIX_PX / Math.max(width, height));
  sim.pitch = Math.round(cssPitch * dpr);
  canvas.style.width = cssPitch * width + "px";
  canvas.style.height = cssPitch * height + "px";
  canvas.width = sim.pitch * width;
  canvas.height = sim.pitch * height;
  glowCanvas.width = width;
  glowCanvas.height = height;
  sim.image = glowCtx.createImageData(width, height);
  sim.frame = new Uint8Array(width * height * 3);
  sim.shown = new Uint8Array(width * height * 3);
  showFrame();
  draw();
}

function setFrame(hex) {
  const f = sim.frame;
  for (let i = 0; i < f.length; i++) {
    f[i] = parseInt(hex.substr(i * 2, 2), 16);
  }
}

// The frame as the eye sees the LEDs: each channel's light at the brightness the firmware
// set, relative to the matrix's white, encoded for the screen (the server's table of the
// colour model, layerlight_tools/led_colour.py), not the values as screen colours.
function showFrame() {
  const f = sim.frame;
  const s = sim.shown;
  const t = sim.tables ? sim.tables[sim.cap] : null;
  const img = sim.image.data;
  for (let i = 0; i < f.length; i++) s[i] = t ? t[f[i]] : f[i];
  for (let i = 0, j = 0; i < s.length; i += 3, j += 4) {
    img[j] = s[i];
    img[j + 1] = s[i + 1];
    img[j + 2] = s[i + 2];
    img[j + 3] = 255;
  }
}

function ledCentre(x, y) {
  // canvas pixels; the core of each LED is a disc of exactly the LED's colour
  return [Math.floor((x + 0.5) * sim.pitch), Math.floor((y + 0.5) * sim.pitch)];
}

function draw() {
  const W = canvas.width;
  const H = canvas.height;
  const p = sim.pitch;
  const f = sim.shown;
  ctx.save();
  ctx.globalCompositeOperation = "source-over";
  ctx.fillStyle = BOARD;
  ctx.fillRect(0, 0, W, H);
  // the glow: the frame, one pixel per LED, blown up, blurred and added on
  glowCtx.putImageData(sim.image, 0, 0);
  if ("filter" in ctx) {
    ctx.globalCompositeOperation = "lighter";
    ctx.imageSmoothingEnabled = true;
    ctx.filter = `blur(${(p * 0.8).toFixed(1)}px)`;
    ctx.globalAlpha = 0.28;
    ctx.drawImage(glowCanvas, 0, 0, W, H);
    ctx.filter = `blur(${(p * 0.22).toFixed(1)}px)`;
    ctx.globalAlpha = 0.5;
    ctx.drawImage(glowCanvas, 0, 0, W, H);
    ctx.filter = "none";
    ctx.globalAlpha = 1;
    ctx.globalCompositeOperation = "source-over";
  }
  // the LEDs: a rim, and a disc of the LED's own colour
  const r = p * 0.38;
  ctx.lineWidth = Math.max(1, p * 0.06);
  ctx.strokeStyle = LED_PACKAGE;
  for (let y = 0, i = 0; y < sim.height; y++) {
    for (let x = 0; x < sim.width; x++, i += 3) {
      const cx = (x + 0.5) * p;
      const cy = (y + 0.5) * p;
      ctx.beginPath();
      ctx.arc(cx, cy, r, 0, 2 * Math.PI);
      ctx.fillStyle = `rgb(${f[i]},${f[i + 1]},${f[i + 2]})`;
      ctx.fill();
      ctx.stroke();
    }
  }
  ctx.restore();
}

function hex2(v) {
  return v.toString(16).padStart(2, "0");
}

function frameRows(f = sim.frame) {
  const rows = [];
  for (let y = 0, i = 0; y < sim.height; y++) {
    let row = "";
    for (let x = 0; x < sim.width; x++, i += 3) row += hex2(f[i]) + hex2(f[i + 1]) + hex2(f[i + 2]);
    rows.push(row);
  }
  return rows;
}

// The colour at the centre of every LED as drawn on the canvas, rows of RRGGBB.
function readLeds() {
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  const rows = [];
  for (let y = 0; y < sim.height; y++) {
    let row = "";
    for (let x = 0; x < sim.width; x++) {
      const [cx, cy] = ledCentre(x, y);
      const k = (cy * canvas.width + cx) * 4;
      row += hex2(data[k]) + hex2(data[k + 1]) + hex2(data[k + 2]);
    }
    rows.push(row);
  }
  return rows;
}

// --- the buzzer -------------------------------------------------------------------

function ensureAudio() {
  if (sim.audio || !$("sound").checked) return;
  try {
    const ac = new AudioContext();
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.type = "square"; // a piezo buzzer is no sine
    gain.gain.value = 0;
    osc.connect(gain).connect(ac.destination);
    osc.start();
    sim.audio = { ctx: ac, osc, gain };
  } catch (e) {
    log("no sound: " + e.message, true);
  }
}

// tones: "ms:hz,ms:hz" at the device's virtual times, all up to sim.vt
function playTones(tones, rate) {
  const a = sim.audio;
  const on = $("sound").checked;
  for (const item of tones.split(",")) {
    const [t, hz] = item.split(":").map(Number);
    if (hz > 0) sim.notes++;
    if (!a || !on) continue;
    const now = a.ctx.currentTime;
    const when = Math.max(now, now + AUDIO_LATENCY_S + (t - sim.vt) / (rate * 1000));
    if (hz > 0) {
      a.osc.frequency.setValueAtTime(hz, when);
      a.gain.gain.setValueAtTime(VOLUME, when);
    } else {
      a.gain.gain.setValueAtTime(0, when);
    }
  }
}

function silence() {
  if (sim.audio) sim.audio.gain.gain.setValueAtTime(0, sim.audio.ctx.currentTime);
}

// --- buttons, keys and the panel --------------------------------------------------------

function setButton(b, down) {
  if (down === sim.held.has(b)) return;
  if (down) sim.held.add(b);
  else sim.held.delete(b);
  document.querySelector(`.device [data-button="${b}"]`).classList.toggle("down", down);
  if (down) ensureAudio();
  if (!sim.web || sim.unplugged || sim.failed) return;
  try {
    sim.web.button(b, down);
    pollDevice(sim.held.size ? 1 : sim.speed); // answer within this frame
  } catch (e) {
    fail(e);
  }
}

function releaseAll() {
  for (const b of [...sim.held]) setButton(b, false);
}

function reboot(how) {
  releaseAll();
  silence();
  const [w, h] = $("size").value.split("x").map(Number);
  sim.seed = (Math.random() * 0x7fffffff) | 0;
  if (how === "unplug") {
    sim.web.pull_plug(sim.seed);
  } else {
    sim.web.reset(w, h, sim.seed, $("mode").value, 0);
    if (w !== sim.width || h !== sim.height) setGeometry(w, h);
  }
  sim.vt = 0;
  sim.pending = 0;
  pollDevice(1); // a new device: its first frame is drawn in full
}

// A deck built by "Your box" goes onto the device's flash, in place of the shipped deck of its
// kind, and a new device boots straight into the game that plays it.
// `mode`: the game it starts (one the build said can play the deck); by default the kind's first.
function useDeck(kind, bytes, mode) {
  if (!sim.web) throw new Error("the simulator has not started");
  const name = kind === "otlo" ? "decks/otlo.deck" : "decks/default.deck";
  mkdirs(sim.mp.FS, "/flash/decks");
  sim.mp.FS.writeFile("/flash/" + name, bytes);
  sim.mp.globals.set("_deck_name", name);
  sim.mp.runPython(`
with open("/flash/" + _deck_name, "rb") as _f:
    web.factory[_deck_name] = _f.read()
del _f, _deck_name
`);
  $("mode").value = mode || (kind === "otlo" ? "otlo" : "layers");
  reboot("reset");
  log(`-- ${name}: your deck; the device restarted in ${$("mode").value} --`);
}

function unplug() {
  if (sim.unplugged || !sim.web) return;
  releaseAll();
  silence();
  sim.unplugged = true;
  sim.frame.fill(0);
  showFrame();
  draw();
  log("-- plug pulled: the flash keeps its files --");
  setTimeout(() => {
    sim.unplugged = false;
    try {
      reboot("unplug");
    } catch (e) {
      fail(e);
    }
  }, UNPLUGGED_MS);
}

function wireControls() {
  for (const el of document.querySelectorAll(".device [data-button]")) {
    const b = Number(el.dataset.button);
    el.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      el.setPointerCapture(e.pointerId);
      setButton(b, true);
      e.preventDefault();
    });
    const up = () => setButton(b, false);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
    el.addEventListener("lostpointercapture", up);
    el.addEventListener("contextmenu", (e) => e.preventDefault());
  }
  const ignore = (e) => e.ctrlKey || e.metaKey || e.altKey || (e.target && /^(SELECT|INPUT|TEXTAREA)$/.test(e.target.tagName));
  window.addEventListener("keydown", (e) => {
    const b = KEYS[e.key.toLowerCase()];
    if (b === undefined || ignore(e)) return;
    e.preventDefault();
    if (!e.repeat) setButton(b, true);
  });
  window.addEventListener("keyup", (e) => {
    const b = KEYS[e.key.toLowerCase()];
    if (b !== undefined) setButton(b, false);
  });
  window.addEventListener("blur", releaseAll);
  $("speed").addEventListener("change", () => (sim.speed = Number($("speed").value)));
  sim.speed = Number($("speed").value);
  $("size").addEventListener("change", () => guarded(() => reboot("reset")));
  $("mode").addEventListener("change", () => guarded(() => reboot("reset")));
  $("reset").addEventListener("click", () => guarded(() => reboot("reset")));
  $("unplug").addEventListener("click", () => guarded(unplug));
  // once a control is used the keys belong to the device again (a focused
  // select would take "1" as the start of "16x16")
  for (const id of ["size", "mode", "speed", "reset", "unplug"]) {
    $(id).addEventListener(id === "reset" || id === "unplug" ? "click" : "change", () => $(id).blur());
  }
  $("sound").addEventListener("change", () => {
    if ($("sound").checked) ensureAudio();
    else silence();
  });
}

function guarded(fn) {
  try {
    fn();
  } catch (e) {
    fail(e);
  }
}

// --- the side panel ---------------------------------------------------------------

function showStatus(s) {
  $("st-game").textContent = s.game;
  $("st-phase").textContent = s.phase;
  $("st-round").textContent = s.round === null ? "–" : s.round;
  const scores = $("st-scores");
  scores.textContent = "";
  const seats = s.seats || s.scores.map((_, i) => i + 1);
  s.scores.forEach((v, i) => {
    const chip = document.createElement("span");
    chip.className = "score s" + seats[i];
    chip.title = "P" + seats[i];
    chip.textContent = v;
    scores.append(chip);
  });
  if (!s.scores.length) scores.textContent = "–";
  $("st-mission").textContent = s.mission ? `#${s.mission.id}, level ${s.mission.level}` : "–";
  $("st-timer").textContent = s.timer_ms === null ? "–" : (s.timer_ms / 1000).toFixed(1) + " s";
  $("st-time").textContent = (s.t / 1000).toFixed(1) + " s since boot";
}

function log(line, isError) {
  const pre = $("console");
  const div = document.createElement("div");
  if (isError) div.className = "err";
  div.textContent = line;
  pre.append(div);
  while (pre.childNodes.length > 200) pre.firstChild.remove();
  pre.scrollTop = pre.scrollHeight;
}

start().catch(fail);
