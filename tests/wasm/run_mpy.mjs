#!/usr/bin/env node
// Runs a Python file on the real MicroPython (the WebAssembly build pinned in
// package.json), so tests can check that code works on MicroPython itself.
//
//   node tests/wasm/run_mpy.mjs [--heap BYTES] [--mount HOSTDIR:TARGETDIR]...
//        [--mpy --mpy-dir DIR] [--arg STRING]... [--stdin-script] ENTRY.py
//
//   --heap BYTES        MicroPython heap size (a number, optionally with a k or
//                       m suffix); default: the library's default (1 MiB).
//   --mount HOST:TARGET copy the host directory HOST (recursively; a single
//                       file works too) into the wasm filesystem at TARGET,
//                       e.g. `--mount firmware:/` gives /layerlight/... and
//                       /main.py. Directories are created as needed;
//                       __pycache__ directories are skipped.
//   --mpy               for every mounted .py file (except main.py and boot.py
//                       at the top of a mount) copy instead the file of the
//                       same relative path with extension .mpy from --mpy-dir,
//                       so MicroPython imports the compiled .mpy.
//   --mpy-dir DIR       where the compiled tree lives (required with --mpy).
//   --arg STRING        appended to the list `ARGV` in the entry's globals
//                       (MicroPython here has no sys.argv). ARGV is always set.
//   --stdin-script      read standard input fully and set it as the str
//                       global `STDIN`.
//   --loop CODE         after ENTRY, run CODE again and again, each time as its
//                       own call from JS with a `gc.collect()` call before it
//                       (the wasm port only collects between calls from JS),
//                       until CODE sets the global LOOP_DONE to True. This is
//                       how a measurement sees the live heap between steps.
//
// The entry file's text runs in __main__ (cwd '/', sys.path ['', '.frozen',
// '/lib']). Python's stdout/stderr go byte-for-byte to ours (stdout is
// line-buffered on a terminal, else block-buffered; stderr is line-buffered and
// flushes stdout before each write, so their order is kept). Exit status: 0 on
// success; 1 on an uncaught Python exception (its traceback goes to stderr);
// the code of sys.exit(n); 2 on a usage or runner error.

import fs from "node:fs";
import path from "node:path";
import tty from "node:tty";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const USAGE =
  "usage: node tests/wasm/run_mpy.mjs [--heap BYTES] [--mount HOSTDIR:TARGETDIR]... " +
  "[--mpy --mpy-dir DIR] [--arg STRING]... [--stdin-script] [--loop CODE] ENTRY.py";

function die(msg) {
  writeAll(2, Buffer.from(`run_mpy: ${msg}\n${USAGE}\n`));
  process.exit(2);
}

// Synchronous, complete writes (retrying if the descriptor is non-blocking).
// Returns false if the reader has gone away (EPIPE).
function writeAll(fd, buf) {
  let off = 0;
  while (off < buf.length) {
    try {
      off += fs.writeSync(fd, buf, off, buf.length - off);
    } catch (e) {
      if (e.code === "EPIPE") return false;
      if (e.code !== "EAGAIN") throw e;
    }
  }
  return true;
}

// Byte sink for one stream. Collects bytes and writes them out when the
// buffer is full, at the end (flush()), and, if lineBuffered, at each newline.
// `before` runs before each write (stderr flushes stdout first, so the two
// keep their order when they go to the same place). Once the reader has gone
// away (EPIPE, e.g. `| head`), further output is dropped.
function makeSink(fd, lineBuffered, before) {
  const chunk = Buffer.alloc(65536);
  let n = 0;
  let broken = false;
  const flush = () => {
    if (n > 0) {
      if (before) before();
      if (!broken && !writeAll(fd, chunk.subarray(0, n))) broken = true;
      n = 0;
    }
  };
  const put = (bytes) => {
    for (const c of bytes) {
      if (n === chunk.length) flush();
      chunk[n++] = c;
      if (c === 10 && lineBuffered) flush();
    }
  };
  return { put, flush };
}

function parseArgs(argv) {
  const opts = { heap: undefined, mounts: [], mpy: false, mpyDir: undefined, args: [], stdinScript: false, loop: undefined, entry: undefined };
  const need = (i, flag) => {
    if (i + 1 >= argv.length) die(`${flag} needs a value`);
    return argv[i + 1];
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--heap") {
      const v = need(i, a);
      i++;
      const m = /^(\d+)([kKmM]?)$/.exec(v);
      if (!m) die(`bad --heap value ${JSON.stringify(v)}`);
      const mult = { "": 1, k: 1024, K: 1024, m: 1048576, M: 1048576 }[m[2]];
      opts.heap = Number(m[1]) * mult;
    } else if (a === "--mount") {
      const v = need(i, a);
      i++;
      const colon = v.lastIndexOf(":");
      if (colon <= 0 || colon === v.length - 1) die(`--mount wants HOSTDIR:TARGETDIR, got ${JSON.stringify(v)}`);
      const target = v.slice(colon + 1);
      if (!target.startsWith("/")) die(`--mount target must be absolute, got ${JSON.stringify(target)}`);
      opts.mounts.push({ host: v.slice(0, colon), target });
    } else if (a === "--mpy") {
      opts.mpy = true;
    } else if (a === "--mpy-dir") {
      opts.mpyDir = need(i, a);
      i++;
    } else if (a === "--arg") {
      opts.args.push(need(i, a));
      i++;
    } else if (a === "--loop") {
      opts.loop = need(i, a);
      i++;
    } else if (a === "--stdin-script") {
      opts.stdinScript = true;
    } else if (a === "-h" || a === "--help") {
      writeAll(1, Buffer.from(USAGE + "\n"));
      process.exit(0);
    } else if (a.startsWith("--")) {
      die(`unknown option ${a}`);
    } else {
      if (opts.entry !== undefined) die(`more than one ENTRY given (${opts.entry}, ${a})`);
      opts.entry = a;
    }
  }
  if (opts.entry === undefined) die("no ENTRY.py given");
  if (opts.mpy && opts.mpyDir === undefined) die("--mpy needs --mpy-dir DIR");
  if (!opts.mpy && opts.mpyDir !== undefined) die("--mpy-dir given without --mpy");
  return opts;
}

// mkdir -p inside the wasm filesystem.
function wasmMkdirs(FS, dir) {
  let cur = "";
  for (const part of dir.split("/").filter(Boolean)) {
    cur += "/" + part;
    let exists = false;
    try {
      exists = FS.isDir(FS.stat(cur).mode);
      if (!exists) die(`cannot create directory ${cur} in the wasm filesystem: a file is in the way`);
    } catch (e) {
      if (e && e.name === "ErrnoError") exists = false;
      else throw e;
    }
    if (!exists) FS.mkdir(cur);
  }
}

function joinTarget(target, rel) {
  return path.posix.join(target, rel.split(path.sep).join("/"));
}

// Copies one mount into the wasm filesystem; returns the number of files.
function copyMount(FS, mount, opts) {
  let st;
  try {
    st = fs.statSync(mount.host);
  } catch (e) {
    die(`mount source ${mount.host} does not exist`);
  }
  let count = 0;
  const copyFile = (hostFile, rel, wasmFile) => {
    let src = hostFile;
    let dst = wasmFile;
    const top = !rel.includes(path.sep);
    const base = path.basename(rel);
    if (opts.mpy && rel.endsWith(".py") && !(top && (base === "main.py" || base === "boot.py"))) {
      const relMpy = rel.slice(0, -3) + ".mpy";
      src = path.join(opts.mpyDir, relMpy);
      dst = wasmFile.slice(0, -3) + ".mpy";
      if (!fs.existsSync(src)) die(`--mpy: ${src} (compiled ${hostFile}) does not exist`);
    }
    wasmMkdirs(FS, path.posix.dirname(dst));
    FS.writeFile(dst, fs.readFileSync(src));
    count++;
  };
  if (st.isDirectory()) {
    wasmMkdirs(FS, mount.target);
    const walk = (hostDir, rel) => {
      for (const ent of fs.readdirSync(hostDir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const h = path.join(hostDir, ent.name);
        const r = rel ? path.join(rel, ent.name) : ent.name;
        let isDir = ent.isDirectory();
        let isFile = ent.isFile();
        if (ent.isSymbolicLink()) {
          const s = fs.statSync(h);
          isDir = s.isDirectory();
          isFile = s.isFile();
        }
        if (isDir) {
          if (ent.name === "__pycache__") continue;
          wasmMkdirs(FS, joinTarget(mount.target, r));
          walk(h, r);
        } else if (isFile) {
          copyFile(h, r, joinTarget(mount.target, r));
        }
      }
    };
    walk(mount.host, "");
  } else {
    // A single file: TARGET is the file's path, or a directory if it ends in '/'.
    const base = path.basename(mount.host);
    const dst = mount.target.endsWith("/") ? mount.target + base : mount.target;
    copyFile(mount.host, base, dst);
  }
  return count;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let entryText;
  try {
    entryText = fs.readFileSync(opts.entry, "utf8");
  } catch (e) {
    die(`cannot read ENTRY ${opts.entry}: ${e.message}`);
  }
  const stdinText = opts.stdinScript ? fs.readFileSync(0, "utf8") : undefined;

  // stdout is line-buffered on a terminal, block-buffered otherwise (much
  // faster for long outputs); stderr is line-buffered and flushes stdout first.
  const out = makeSink(1, tty.isatty(1), null);
  const err = makeSink(2, true, () => out.flush());
  const mpOpts = { stdout: out.put, stderr: err.put, linebuffer: false };
  if (opts.heap !== undefined) mpOpts.heapsize = opts.heap;
  const mp = await loadMicroPython(mpOpts);

  for (const m of opts.mounts) copyMount(mp.FS, m, opts);

  let status = 0;
  try {
    mp.globals.set("_run_mpy_argv_json", JSON.stringify(opts.args));
    if (stdinText !== undefined) mp.globals.set("STDIN", stdinText);
    mp.runPython("import json as _run_mpy_json\nARGV = _run_mpy_json.loads(_run_mpy_argv_json)\ndel _run_mpy_json, _run_mpy_argv_json\n");
    mp.runPython(entryText);
    if (opts.loop !== undefined) {
      mp.runPython("LOOP_DONE = False");
      while (!mp.globals.get("LOOP_DONE")) {
        mp.runPython("import gc\ngc.collect()");
        mp.runPython(opts.loop);
      }
    }
  } catch (e) {
    if (!e || e.name !== "PythonError") {
      out.flush();
      err.flush();
      writeAll(2, Buffer.from(`run_mpy: runner error: ${e && e.stack ? e.stack : e}\n`));
      process.exit(2);
    }
    if (e.type === "SystemExit") {
      // The message is a traceback ending in "SystemExit: <arg>".
      const lines = e.message.trimEnd().split("\n");
      const last = lines[lines.length - 1];
      const arg = last.startsWith("SystemExit:") ? last.slice("SystemExit:".length).trim() : "";
      if (arg === "" || arg === "None") status = 0;
      else if (/^-?\d+$/.test(arg)) status = Number(arg) & 0xff;
      else {
        err.put(Buffer.from(arg + "\n"));
        status = 1;
      }
    } else {
      err.put(Buffer.from(e.message.endsWith("\n") ? e.message : e.message + "\n"));
      status = 1;
    }
  }
  out.flush();
  err.flush();
  process.exit(status);
}

main().catch((e) => {
  writeAll(2, Buffer.from(`run_mpy: runner error: ${e && e.stack ? e.stack : e}\n`));
  process.exit(2);
});
