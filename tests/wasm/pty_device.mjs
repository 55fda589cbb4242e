#!/usr/bin/env node
// A MicroPython board behind a serial port, for tests without hardware: the
// real MicroPython (the npm WebAssembly build) plays the board on the master
// side of a pseudo-terminal, and real host tools (mpremote, `layerlight
// flash`) open the slave side (/dev/pts/N) as they would /dev/ttyACM0.
// tests/wasm/pty_device.py starts it; see there for the Python side.
//
//   node tests/wasm/pty_device.mjs --runtime FILE [--ctl-in FD --ctl-out FD]
//        [--flash DIR] [--clock real|manual] [--raw-paste on|off]
//
//   fd 0 / fd 1  the pty master (non-blocking), the board's USB serial
//   --runtime    tests/wasm/pty_device_runtime.py, run in every fresh instance
//   --ctl-in/out a JSON-lines control channel for the tests (see control())
//   --flash DIR  files the board's flash starts with
//   --clock      real: the firmware's loop runs on the wall clock;
//                manual: it only moves when a test plays a script
//   --raw-paste  off: refuse raw-paste mode (reply R\x00), as old boards do
//
// What a board does that the wasm REPL alone does not, and how:
// - raw-paste mode (what mpremote uses to send code): the wasm REPL's own
//   raw-paste reads stdin blocking, which cannot work from JS, so the harness
//   speaks it itself (window, flow control, end), then compiles and runs the
//   code in __main__ and answers as the raw REPL does (output, Ctrl-D,
//   traceback, Ctrl-D, ">"). Plain raw mode (no paste) goes to the wasm REPL.
// - soft reset (Ctrl-D): a fresh MicroPython instance, with the files of the
//   flash copied over; then boot.py, and main.py in friendly mode, and the raw
//   REPL prompt again in raw mode, as ports/rp2/main.c does.
// - machine.reset(): the same, always running main.py (a power cycle).
// - the clock (machine.RTC): kept here, so it runs on through soft resets.
// - a running main.py: the firmware's loop is stepped between characters
//   (pty_device_runtime.py); Ctrl-C stops it with a KeyboardInterrupt.
// - file errors: Emscripten's errno numbers (ENOENT is 44) are rewritten to
//   the numbers and names a board prints ("OSError: [Errno 2] ENOENT"), so
//   mpremote turns them into the right exceptions.

import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const PTY_IN = 0;
const PTY_OUT = 1;
const RAW_PASTE_WINDOW = 512;
const LOOP_MS = 5;
const SYSTEM_DIRS = new Set(["/dev", "/proc", "/tmp", "/home"]);

// ------------------------------------------------------------------ options

function die(msg) {
  fs.writeSync(2, `pty_device: ${msg}\n`);
  process.exit(2);
}

const opts = { runtime: null, ctlIn: -1, ctlOut: -1, flash: null, clock: "real", rawPaste: true };
{
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    const v = a[i + 1];
    if (a[i] === "--runtime") opts.runtime = v;
    else if (a[i] === "--ctl-in") opts.ctlIn = Number(v);
    else if (a[i] === "--ctl-out") opts.ctlOut = Number(v);
    else if (a[i] === "--flash") opts.flash = v;
    else if (a[i] === "--clock") opts.clock = v;
    else if (a[i] === "--raw-paste") opts.rawPaste = v !== "off";
    else die(`unknown option ${a[i]}`);
    i++;
  }
  if (!opts.runtime) die("--runtime FILE is required");
}
const RUNTIME = fs.readFileSync(opts.runtime, "utf8");

// ------------------------------------------------------------------ low-level I/O

const SLEEPER = new Int32Array(new SharedArrayBuffer(4));
function sleepMs(ms) {
  Atomics.wait(SLEEPER, 0, 0, ms);
}

function readNonBlocking(fd, buf) {
  try {
    return fs.readSync(fd, buf, 0, buf.length, null);
  } catch (e) {
    if (e.code === "EAGAIN" || e.code === "EIO") return -1; // nothing yet / no reader on the slave
    throw e;
  }
}

// Writes to the pty; a host that stops reading for 2 s loses the output (as a
// board's USB serial drops what nobody reads) instead of hanging the board.
function ptyWrite(buf) {
  let off = 0;
  let since = Date.now();
  while (off < buf.length) {
    try {
      const n = fs.writeSync(PTY_OUT, buf, off, buf.length - off);
      off += n;
      since = Date.now();
    } catch (e) {
      if (e.code !== "EAGAIN") throw e;
      if (Date.now() - since > 2000) return;
      sleepMs(1);
    }
  }
}

function log(msg) {
  if (process.env.PTY_DEVICE_LOG) fs.writeSync(2, `[pty_device] ${msg}\n`);
}

// ------------------------------------------------------------------ errno numbers

// Emscripten's numbers -> the names and numbers MicroPython prints on a board
// (py/mperrno.h, Linux values); names only for those a board's errno table has.
const EMSCRIPTEN = { EPERM: 63, ENOENT: 44, EIO: 29, EBADF: 8, EAGAIN: 6, ENOMEM: 48, EACCES: 2, EEXIST: 20,
  ENODEV: 43, ENOTDIR: 54, EISDIR: 31, EINVAL: 28, ENFILE: 41, EMFILE: 33, EFBIG: 22, ENOSPC: 51, EROFS: 69,
  ENOTEMPTY: 55, ENAMETOOLONG: 37, EBUSY: 10, EXDEV: 75 };
const BOARD = { EPERM: 1, ENOENT: 2, EIO: 5, EBADF: 9, EAGAIN: 11, ENOMEM: 12, EACCES: 13, EEXIST: 17, ENODEV: 19,
  ENOTDIR: 20, EISDIR: 21, EINVAL: 22, ENFILE: 23, EMFILE: 24, EFBIG: 27, ENOSPC: 28, EROFS: 30,
  ENOTEMPTY: 39, ENAMETOOLONG: 36, EBUSY: 16, EXDEV: 18 };
const NAMED = new Set(["EPERM", "ENOENT", "EIO", "EBADF", "EAGAIN", "ENOMEM", "EACCES", "EEXIST", "ENODEV",
  "EISDIR", "EINVAL"]);
const ERRNO_MAP = new Map();
for (const [name, n] of Object.entries(EMSCRIPTEN)) {
  ERRNO_MAP.set(n, NAMED.has(name) ? `[Errno ${BOARD[name]}] ${name}` : `${BOARD[name]}`);
}

function boardErrors(buf) {
  const text = buf.toString("latin1");
  if (!text.includes("OSError: ")) return buf;
  return Buffer.from(text.replace(/OSError: (\d+)(?=\r?\n)/g, (m, n) => {
    const to = ERRNO_MAP.get(Number(n));
    return to === undefined ? m : `OSError: ${to}`;
  }), "latin1");
}

// ------------------------------------------------------------------ the board

let mp = null;           // the running MicroPython instance
let captured = [];       // its output since the last take()
let mode = "friendly";   // the REPL's mode: friendly | raw
let rawEmpty = false;    // raw mode, nothing typed since the prompt (raw-paste may start)
let running = false;     // main.py's loop is being stepped
let pending = [];        // characters typed while main.py ran
let resetRequested = false;
let resetCause = 1;      // machine.PWRON_RESET
let boots = 0;
let lastStep = 0;
let tones = [];
let pins = new Map();    // pin -> level set by the tests / the firmware (default 1: pull-up)
let presses = [];        // scheduled presses: {pin, afterMs, holdMs, anchor}
let flashFiles = new Map(); // path -> Buffer, kept across instances
let flashDirs = new Set();
// machine.RTC's time (pty_device_runtime.py): seconds (time.mktime) set by a host tool, or
// null before that (2021-01-01 at power-on), and when. Kept here, across instances, since a
// board's clock runs on through a soft reset; a power cycle clears it.
let rtc = { base: null, at: Date.now() };

function take() {
  const b = Buffer.from(captured);
  captured = [];
  return b;
}

function emit(buf) {
  if (buf.length) ptyWrite(boardErrors(buf));
}

const hooks = {
  // A scheduled press starts afterMs after the board first reads a pin (it is
  // listening then) and lasts holdMs, and at least until the board has seen it
  // (a slow, loaded test machine must not make a press too short to notice).
  pin: (id) => {
    const now = Date.now();
    let level = pins.has(id) ? pins.get(id) : 1;
    for (const p of presses) {
      if (p.anchor === null) p.anchor = now;
      const start = p.anchor + p.afterMs;
      if (p.pin === id && now >= start && (now < start + p.holdMs || !p.seen)) {
        level = 0;
        p.seen = true;
      }
    }
    presses = presses.filter((p) => p.anchor === null || !p.seen || now < p.anchor + p.afterMs + p.holdMs);
    return level;
  },
  set_pin: (id, v) => {
    pins.set(id, v ? 1 : 0);
  },
  tone: (f) => {
    tones.push(f);
  },
  reset: () => {
    resetRequested = true;
  },
  reset_cause: () => resetCause,
  rtc_set: (secs) => {
    rtc = { base: Number(secs), at: Date.now() };
  },
  rtc_base: () => (rtc.base === null ? -1 : rtc.base),
  rtc_elapsed: () => Math.floor((Date.now() - rtc.at) / 1000),
};

function walkFs(FS, dir, visit) {
  for (const name of FS.readdir(dir)) {
    if (name === "." || name === "..") continue;
    const p = dir === "/" ? "/" + name : dir + "/" + name;
    if (SYSTEM_DIRS.has(p)) continue;
    const st = FS.stat(p);
    if (FS.isDir(st.mode)) {
      visit(p, null);
      walkFs(FS, p, visit);
    } else if (FS.isFile(st.mode)) {
      visit(p, FS.readFile(p));
    }
  }
}

// The flash survives resets: copied out of the old instance, into the new one.
function saveFlash() {
  if (mp === null) return;
  flashFiles = new Map();
  flashDirs = new Set();
  walkFs(mp.FS, "/", (p, data) => {
    if (data === null) flashDirs.add(p);
    else flashFiles.set(p, Buffer.from(data));
  });
}

function restoreFlash(FS) {
  for (const d of [...flashDirs].sort()) {
    try {
      FS.mkdir(d);
    } catch (e) {
      /* exists */
    }
  }
  for (const [p, data] of flashFiles) FS.writeFile(p, data);
}

function loadFlashDir(dir) {
  const walk = (host, rel) => {
    for (const ent of fs.readdirSync(host, { withFileTypes: true })) {
      const h = path.join(host, ent.name);
      const r = rel + "/" + ent.name;
      if (ent.isDirectory()) {
        flashDirs.add(r);
        walk(h, r);
      } else if (ent.isFile()) {
        flashFiles.set(r, fs.readFileSync(h));
      }
    }
  };
  walk(dir, "");
}

function py(code) {
  return mp.runPython(code);
}

// The value of a Python expression (runPython itself returns nothing).
function pyValue(expr) {
  mp.runPython(`_harness_ret = ${expr}`);
  const v = mp.globals.get("_harness_ret");
  mp.runPython("_harness_ret = None");
  return v;
}

// Runs Python of the harness; what it prints goes to the console.
function pyConsole(expr) {
  let result;
  try {
    result = pyValue(expr);
  } catch (e) {
    if (e && e.name === "PythonError" && e.type === "SystemExit") {
      result = null;
    } else if (e && e.name === "PythonError") {
      captured.push(...Buffer.from(e.message));
      result = null;
    } else {
      throw e;
    }
  }
  emit(take());
  return result;
}

function feedRepl(c) {
  return mp.replProcessChar(c); // non-zero: the REPL asks for a soft reset
}

// A fresh instance: power-on (hard reset) or soft reset.
async function boot(kind) {
  saveFlash();
  boots++;
  running = false;
  resetRequested = false;
  pending = [];
  resetCause = kind === "soft" ? 5 : 1;
  if (kind !== "soft") rtc = { base: null, at: Date.now() }; // power-on: the clock starts again
  mp = await loadMicroPython({ stdout: (b) => captured.push(...b), stderr: (b) => captured.push(...b), linebuffer: false });
  for (const d of ["/tmp", "/home"]) {
    try {
      rmTree(mp.FS, d);
    } catch (e) {
      /* not there */
    }
  }
  mp.registerJsModule("harness_js", hooks);
  restoreFlash(mp.FS);
  // The runtime as a module `_harness` (also in __main__, for the calls from here).
  py(`_harness_src = ${JSON.stringify(RUNTIME)}\n` +
     "_harness_ns = {'__name__': '_harness'}\nexec(_harness_src, _harness_ns)\n" +
     "class _HarnessModule:\n    pass\n_harness = _HarnessModule()\n" +
     "for _k in _harness_ns:\n    setattr(_harness, _k, _harness_ns[_k])\n" +
     "_harness_ns['sys'].modules['_harness'] = _harness\n" +
     "del _harness_src, _harness_ns, _HarnessModule, _k\n");
  if (opts.clock === "manual") py("_harness.H.manual = True");
  captured = [];
  if (kind === "soft") emit(Buffer.from("MPY: soft reboot\r\n"));
  pyConsole("_harness.run_file('boot.py')");
  if (resetRequested) return boot("hard");
  if (mode === "friendly") {
    pyConsole("_harness.run_file('main.py')");
    if (resetRequested) return boot("hard");
    running = pyValue("_harness.running()");
    lastStep = Date.now();
  }
  if (!running) startRepl();
  log(`boot ${boots} (${kind}), mode ${mode}, running ${running}`);
}

function rmTree(FS, d) {
  for (const name of FS.readdir(d)) {
    if (name === "." || name === "..") continue;
    const p = d + "/" + name;
    if (FS.isDir(FS.stat(p).mode)) rmTree(FS, p);
    else FS.unlink(p);
  }
  FS.rmdir(d);
}

// The REPL after main.py: the banner and prompt, or the raw prompt.
function startRepl() {
  mp.replInit();
  if (mode === "raw") {
    take(); // a board in raw mode prints no banner
    feedRepl(0x01);
    const out = take().toString("latin1").replace(/^\r\n/, "");
    emit(Buffer.from(out, "latin1"));
    rawEmpty = true;
  } else {
    emit(take());
  }
}

async function afterRepl(ret) {
  const out = take();
  if (resetRequested) {
    mode = "friendly";
    return boot("hard");
  }
  const text = out.toString("latin1");
  if (text.includes("raw REPL; CTRL-B to exit\r\n")) mode = "raw";
  if (mode === "raw" && text.endsWith(">")) rawEmpty = true;
  emit(out);
  if (ret !== 0) await boot("soft");
}

// ------------------------------------------------------------------ raw-paste

let paste = null; // {stage: "A" | "1" | "data", data: [], count}

async function pasteInput(c) {
  if (paste.stage === "A") {
    paste.stage = c === 0x41 ? "1" : null;
  } else if (paste.stage === "1") {
    paste.stage = c === 0x01 ? "data" : null;
    if (paste.stage === "data") {
      if (!opts.rawPaste) {
        emit(Buffer.from("R\x00"));
        paste = null;
        return;
      }
      emit(Buffer.from([0x52, 0x01, RAW_PASTE_WINDOW & 0xff, RAW_PASTE_WINDOW >> 8]));
      return;
    }
  } else if (paste.stage === "data") {
    if (c === 0x04 || c === 0x03) {
      const data = paste.data;
      paste = null;
      emit(Buffer.from("\x04"));
      if (c === 0x03) {
        emit(Buffer.from("\x04Traceback (most recent call last):\r\nKeyboardInterrupt: \r\n\x04>"));
        return;
      }
      // Compiled and run as the raw REPL would (feeding the wasm REPL character
      // by character works too, but costs 3-4 us a character).
      mp.globals.set("_harness_cmd", Buffer.from(data).toString("utf8"));
      let ret = 0;
      try {
        ret = pyValue("_harness.exec_raw(_harness_cmd)");
      } catch (e) {
        if (!(e && e.name === "PythonError")) throw e;
      }
      mp.runPython("_harness_cmd = None");
      if (!resetRequested && !ret) captured.push(0x3e); // the raw prompt ">"
      return afterRepl(ret ? 256 : 0);
    }
    paste.data.push(c);
    paste.count++;
    if (paste.count % RAW_PASTE_WINDOW === 0) emit(Buffer.from([0x01]));
    return;
  }
  if (paste.stage === null) {
    // not a raw-paste request: a board answers it is not supported
    paste = null;
    emit(Buffer.from("R\x00"));
  }
}

async function input(c) {
  if (paste !== null) return pasteInput(c);
  if (running) {
    if (c === 0x03) {
      running = false;
      pyConsole("_harness.interrupt()");
      startRepl();
      const queued = pending;
      pending = [];
      for (const q of queued) await input(q);
    } else {
      pending.push(c);
    }
    return;
  }
  if (mode === "raw" && c === 0x05 && rawEmpty) {
    paste = { stage: "A", data: [], count: 0 };
    return;
  }
  if (mode === "raw") {
    if (c === 0x02) mode = "friendly";
    else if (c === 0x03) rawEmpty = true;
    else if (c !== 0x01 && c !== 0x04) rawEmpty = false;
  }
  const ret = feedRepl(c);
  return afterRepl(ret);
}

// ------------------------------------------------------------------ control channel

function flashHashes() {
  saveFlash();
  const files = {};
  for (const [p, data] of [...flashFiles].sort()) files[p] = crypto.createHash("sha256").update(data).digest("hex");
  return { files, dirs: [...flashDirs].sort() };
}

async function control(req) {
  switch (req.cmd) {
    case "status":
      return { running, mode, boots, pid: process.pid };
    case "files":
      return flashHashes();
    case "read": {
      saveFlash();
      const data = flashFiles.get(req.path);
      return { data: data === undefined ? null : data.toString("base64") };
    }
    case "write": // put a file on the flash directly (a test's starting state)
      mp.FS.writeFile(req.path, Buffer.from(req.data, "base64"));
      return { ok: true };
    case "remove":
      try {
        mp.FS.unlink(req.path);
      } catch (e) {
        /* not there */
      }
      return { ok: true };
    case "power_cycle":
      mode = "friendly";
      paste = null;
      await boot("hard");
      return { running, boots };
    case "leds":
      return { hex: pyValue("_harness.leds_hex()"), writes: pyValue("_harness.led_writes()") };
    case "press":
      presses.push({ pin: req.pin, afterMs: req.after_ms || 0, holdMs: req.hold_ms || 100, anchor: null, seen: false });
      return { ok: true };
    case "tones": {
      const t = tones;
      tones = [];
      return { tones: t };
    }
    case "script": {
      if (!running) return { error: "the firmware is not running" };
      mp.globals.set("_harness_arg", req.text);
      try {
        const trace = pyValue(`_harness.script(_harness_arg, ${Number.isInteger(req.seed) ? req.seed : -1})`);
        emit(take());
        return { trace: JSON.parse(trace) };
      } catch (e) {
        emit(take());
        return { error: String(e.message || e) };
      }
    }
    default:
      return { error: `unknown command ${req.cmd}` };
  }
}

let ctlBuf = "";
async function pollControl() {
  if (opts.ctlIn < 0) return false;
  const buf = Buffer.alloc(65536);
  const n = readNonBlocking(opts.ctlIn, buf);
  if (n === 0) process.exit(0); // the test has gone: so has the board
  if (n < 0) return false;
  ctlBuf += buf.subarray(0, n).toString("utf8");
  let nl;
  while ((nl = ctlBuf.indexOf("\n")) >= 0) {
    const line = ctlBuf.slice(0, nl);
    ctlBuf = ctlBuf.slice(nl + 1);
    let reply;
    try {
      reply = await control(JSON.parse(line));
    } catch (e) {
      reply = { error: String(e && e.stack ? e.stack : e) };
    }
    fs.writeSync(opts.ctlOut, JSON.stringify(reply) + "\n");
  }
  return true;
}

// ------------------------------------------------------------------ main loop

async function main() {
  if (opts.flash) loadFlashDir(opts.flash);
  await boot("hard");
  const buf = Buffer.alloc(4096);
  for (;;) {
    let busy = false;
    const n = readNonBlocking(PTY_IN, buf);
    if (n > 0) {
      busy = true;
      const bytes = Buffer.from(buf.subarray(0, n));
      for (const c of bytes) await input(c);
    }
    if (await pollControl()) busy = true;
    if (running && opts.clock === "real" && Date.now() - lastStep >= LOOP_MS) {
      lastStep = Date.now();
      const ok = pyConsole("_harness.step()");
      if (resetRequested) {
        mode = "friendly";
        await boot("hard");
      } else if (ok === false) {
        running = false;
        startRepl();
      }
      busy = true;
    }
    if (!busy) sleepMs(1);
  }
}

main().catch((e) => {
  fs.writeSync(2, `pty_device: harness error: ${e && e.stack ? e.stack : e}\n`);
  process.exit(2);
});
