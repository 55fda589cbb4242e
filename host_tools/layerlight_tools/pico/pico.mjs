// The emulated Pico: the npm package rp2040js running a stock MicroPython UF2.
//
// Driven by layerlight_tools/pico/emulator.py over stdin/stdout, one JSON
// object a line each way. The emulator does not run on its own: the host says
// how far emulated time may go ("run"), so a script's `wait 1500` is exactly
// 1500 ms of the chip's time however slow this machine is, and pin changes are
// scheduled at exact emulated instants ("edge").
//
// What it reports:
//   serial  bytes the device wrote to its USB serial port (hex)
//   frame   one WS2812 frame decoded from the data pin, as the strip shows it after the
//           frame (its wire order): a frame shorter than the strip changes only the LEDs
//           it reaches, the rest keep their colours, as WS2812s do (each keeps the first
//           24 bits after a reset and passes the rest on). sent: the bytes on the wire;
//           when the write began and ended. With several data pins (lanes: a panel on
//           each, sent at once) every pin is decoded on its own and the strip is the
//           lanes' LEDs one lane after the other; lanes: the bytes each lane was sent.
//           timing: the first of the frame's pulses outside the WS2812B's windows (null:
//           none), and bad: how many
//   tone    the buzzer pin's square wave frequency (0: silent)
//   at      the emulator reached the time a "run" asked for
//   flash   a program or erase command began on the flash chip (n: its number from power on,
//           kind: program or erase, busy_us: how long it takes, at: its flash offset)
//   cut     the power went (cut_at): busy, in the middle of a flash write; write and after_us,
//           the cut asked for; left, what the write under way had done ({write, kind, done,
//           size} in bytes: done < size, it was cut part done) or null
//
// Usage: node pico.mjs BOOTROM UF2 FLASH_IMAGE|- DATA_PIN[,PIN...] BUZZER_PIN

import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Simulator, USBCDC } from 'rp2040js';

const [bootromPath, uf2Path, flashPath, dataPinArg, buzzerPinArg] = process.argv.slice(2);
const DATA_PINS = dataPinArg.split(',').map(Number);
const BUZZER_PIN = Number(buzzerPinArg);
const MHZ = 125;                       // the clock rp2040js counts cycles at
const BIT_ONE_CYCLES = 74;             // high pulses: ~47 cycles a 0 bit, ~101 a 1 bit
const LATCH_CYCLES = 50 * MHZ;         // WS2812 reset: the line low for 50 us ends a frame
const SILENT_AFTER_US = 40000;         // no buzzer edge for this long: the tone stopped
const cycleNanos = 1000 / MHZ;

const sim = new Simulator();
const mcu = sim.rp2040;
// rp2040js runs PIO on setTimeout, blind to the clock divider and the delay
// cycles; patches/rp2040js+1.4.1.patch (applied by npm ci) runs it on the
// emulated clock, as the device's button sampler and strip need
if (typeof mcu.pio[0].machines[0].timedStep !== 'function') {
  process.stderr.write('rp2040js is not patched for PIO timing: run `make setup` (npm ci applies patches/)\n');
  process.exit(2);
}
const clock = sim.clock;
// the emulator's own log goes to stderr (stdout is the host's), errors only:
// MicroPython's boot pokes peripherals rp2040js does not model, harmlessly
const quiet = () => {};
mcu.logger = {
  debug: quiet, info: quiet, warn: quiet,
  error: (component, message) => process.stderr.write(`rp2040js ${component}: ${message}\n`),
};

function emit(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

// --- memory: boot ROM, then the flash image or the UF2 -----------------------

const rom = readFileSync(bootromPath);
mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.byteLength >> 2));
if (flashPath !== '-') {
  // a flash kept from an earlier run (the UF2 is written into it again: a
  // newer UF2 replaces the firmware, the filesystem further up stays)
  try {
    mcu.flash.set(readFileSync(flashPath).subarray(0, mcu.flash.length));
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
  }
}
const uf2 = readFileSync(uf2Path);
for (let at = 0; at + 512 <= uf2.length; at += 512) {
  const target = uf2.readUInt32LE(at + 12);
  const size = uf2.readUInt32LE(at + 16);
  mcu.flash.set(uf2.subarray(at + 32, at + 32 + size), target - 0x10000000);
}
mcu.core.PC = 0x10000000;

// --- the flash chip behind the SSI ------------------------------------------
//
// rp2040js serves reads from flash as memory but does not model the SPI
// commands that write it, and MicroPython's filesystem writes through them
// (the boot ROM's flash_range_erase/program: chip select forced through
// IO_QSPI, bytes through the SSI's data register). This is a plain SPI NOR
// chip behind that path, so that LittleFS really programs and erases pages.

const SSI_SR = 0x28;
const SSI_RXFLR = 0x24;
const SSI_DR0 = 0x60;
const SSI_SSIENR = 0x08;
const QSPI_SS_CTRL = 0x0c;
const SECTOR = 4096;
// How long a program or erase keeps the chip busy: LAYERLIGHT_FLASH_TIMES picks the
// profile. W25Q16JV datasheet, 9.6 "AC Electrical Characteristics": tPP (page
// program), tSE (4 KB sector erase), tBE1 (32 KB block), tBE2 (64 KB block), tCE
// (chip erase). `typical` is what a chip usually takes (tBE1 taken as tBE2's 150 ms,
// as this emulator always did); `max` is the most the datasheet allows, the chip at
// its slowest (hot, worn): what the device must survive.
const FLASH_TIMES = {
  typical: { program: 400, sector: 45000, block32: 150000, block64: 150000, chip: 5000000 },
  max: { program: 3000, sector: 400000, block32: 1600000, block64: 2000000, chip: 25000000 },
};
const FLASH_PROFILE = process.env.LAYERLIGHT_FLASH_TIMES || 'typical';
if (!Object.hasOwn(FLASH_TIMES, FLASH_PROFILE)) {
  process.stderr.write(`LAYERLIGHT_FLASH_TIMES=${FLASH_PROFILE}: not a flash times profile (typical or max)\n`);
  process.exit(2);
}
const TIMES = FLASH_TIMES[FLASH_PROFILE];

class FlashChip {
  // A program or erase takes the chip's time (busyUntil) and is applied to the
  // memory when that time is over; a power cut within it leaves it part done,
  // as a W25Q16 does: an erase cut short has erased its sector up to a point
  // (the byte there has some of its bits set to 1), a page program cut short
  // has programmed its bytes up to a point (the byte there has some of its 0
  // bits cleared). The firmware reads nothing while the chip is busy (it polls
  // the status register), so applying the change at the end is invisible to it.
  constructor(memory) {
    this.memory = memory;
    this.selected = false;
    this.bytes = [];          // the command so far (opcode, address, data)
    this.rx = [];             // what the chip clocked back, one byte per byte sent
    this.writeEnabled = false;
    this.writes = 0;          // program and erase commands carried out
    this.busyUntil = 0;       // a program or erase is under way until then (ns)
    this.pending = null;      // that program or erase: {kind, start, size, data, began, ends}
  }
  select(on) {
    if (on === this.selected) return;
    if (!on) this.finish();
    this.selected = on;
    this.bytes = [];
  }
  address() {
    const b = this.bytes;
    return ((b[1] << 16) | (b[2] << 8) | b[3]) & (this.memory.length - 1);
  }
  transfer(value) {
    let out = 0;
    if (this.selected) {
      const b = this.bytes;
      b.push(value & 0xff);
      const op = b[0];
      const n = b.length;
      if (clock.nanos >= this.busyUntil || (n === 1 && op !== 0x05)) this.settle();  // the last write is over
      if (op === 0x05) out = clock.nanos < this.busyUntil ? 1 : 0;       // status: busy while writing
      else if (op === 0x35) out = 0x02;                                  // status 2: quad enabled
      else if (op === 0x9f) out = [0, 0xef, 0x40, 0x15][n - 1] ?? 0;     // JEDEC id (a W25Q16)
      else if ((op === 0x03 && n > 4) || (op === 0x0b && n > 5)) {
        out = this.memory[(this.address() + n - (op === 0x03 ? 5 : 6)) & (this.memory.length - 1)];
      }
      if (n === 1) {
        if (op === 0x06) this.writeEnabled = true;
        if (op === 0x04) this.writeEnabled = false;
      }
    }
    this.rx.push(out);
  }
  finish() {
    const b = this.bytes;
    const op = b[0];
    if (!this.writeEnabled || b.length < 1) return;
    let start = -1;
    let size = 0;
    if ((op === 0x20) && b.length >= 4) [start, size] = [this.address() & ~(SECTOR - 1), SECTOR];
    else if (op === 0x52 && b.length >= 4) [start, size] = [this.address() & ~0x7fff, 0x8000];
    else if (op === 0xd8 && b.length >= 4) [start, size] = [this.address() & ~0xffff, 0x10000];
    else if (op === 0xc7 || op === 0x60) [start, size] = [0, this.memory.length];
    let pending = null;
    if (start >= 0) pending = { kind: 'erase', start, size };
    else if (op === 0x02 && b.length > 4) {
      // page program: the data wraps round within its 256-byte page
      const a = this.address();
      const data = b.slice(4);
      pending = { kind: 'program', start: a, size: data.length, data };
    }
    if (pending || op === 0x02) {
      // as long as the profile says a W25Q16JV takes: the firmware waits on the
      // status register as on a real board (and a power cut can fall in it)
      const us = op === 0x02 ? TIMES.program : size === SECTOR ? TIMES.sector
        : size === 0x8000 ? TIMES.block32 : size === 0x10000 ? TIMES.block64 : TIMES.chip;
      this.busyUntil = clock.nanos + us * 1000;
      this.writes++;
      if (pending) {
        pending.began = clock.nanos;
        pending.ends = this.busyUntil;
        pending.n = this.writes;
        this.pending = pending;
        // done when its time is over (the CPU reads the flash as memory, not through here)
        clock.createAlarm(() => { if (this.pending === pending) this.settle(); }).schedule(us * 1000);
      }
      emit({ ev: 'flash', n: this.writes, us: clock.micros, kind: pending ? pending.kind : 'program', busy_us: us,
        at: pending ? pending.start : null });  // at: the flash offset it starts at (the save journal's or not)
      if (cut && cut.write === this.writes) powerCut(cut.after_us);
      this.writeEnabled = false;
    }
  }
  // the program or erase under way, done up to `done` bytes of it (all of it by default);
  // `rand` gives the bits of the byte where it stopped
  apply(p, done, rand) {
    const mem = this.memory;
    const mask = mem.length - 1;
    for (let i = 0; i < done; i++) {
      if (p.kind === 'erase') mem[p.start + i] = 0xff;
      else {
        const at = (p.start & ~0xff) | ((p.start + i) & 0xff);
        mem[at & mask] &= p.data[i];
      }
    }
    if (done < p.size && rand) {
      const bits = rand() & 0xff;
      if (p.kind === 'erase') mem[p.start + done] |= bits;                // some bits back to 1
      else {
        const at = ((p.start & ~0xff) | ((p.start + done) & 0xff)) & mask;
        mem[at] &= p.data[done] | bits;                                   // some 0 bits programmed
      }
    }
  }
  settle() {              // the time of the write under way is over: all of it is done
    if (this.pending) {
      this.apply(this.pending, this.pending.size, null);
      this.pending = null;
    }
  }
  // the power goes now: a write under way is left part done. Returns what it left.
  cutNow(rand) {
    const p = this.pending;
    if (!p) return null;
    this.pending = null;
    if (clock.nanos >= p.ends) {
      this.apply(p, p.size, null);
      return { write: p.n, kind: p.kind, done: p.size, size: p.size };
    }
    const done = Math.floor((p.size * (clock.nanos - p.began)) / (p.ends - p.began));
    this.apply(p, done, rand);
    return { write: p.n, kind: p.kind, done, size: p.size };
  }
}

const chip = new FlashChip(mcu.flash);
const ssi = mcu.peripherals[0x18000];
const ssiRead = ssi.readUint32.bind(ssi);
const ssiWrite = ssi.writeUint32.bind(ssi);
ssi.readUint32 = (offset) => {
  if (offset === SSI_DR0) return chip.rx.length ? chip.rx.shift() : 0;
  if (offset === SSI_RXFLR) return chip.rx.length;
  if (offset === SSI_SR) return 0x06 | (chip.rx.length ? 0x08 : 0);  // TX never full, always empty
  return ssiRead(offset);
};
ssi.writeUint32 = (offset, value) => {
  if (offset === SSI_DR0) chip.transfer(value);
  else {
    if (offset === SSI_SSIENR) chip.rx = [];     // enabling or disabling the SSI empties its FIFOs
    ssiWrite(offset, value);
  }
};
const qspiRegs = new Uint32Array(0x1000 >> 2);
const qspi = mcu.peripherals[0x40018];
qspi.readUint32 = (offset) => qspiRegs[offset >> 2];
qspi.writeUint32 = (offset, value) => {
  qspiRegs[offset >> 2] = value;
  if (offset === QSPI_SS_CTRL) {
    const over = (value >> 8) & 3;                 // OUTOVER: 2 drive low, 3 drive high
    if (over === 2) chip.select(true);
    else if (over === 3) chip.select(false);
  }
};

// --- a power cut: the chip stops dead at an exact moment, the flash keeps what it has

let cut = null;        // {write, after_us}: cut after_us into that program/erase command
let poweredOff = false;
function mulberry32(seed) {   // the bits a cut leaves in the byte where it stopped: repeatable
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0);
  };
}
function powerCut(afterUs) {
  const asked = cut;
  clock.createAlarm(() => {
    poweredOff = true;
    untilUs = clock.micros;
    const busy = clock.nanos < chip.busyUntil;
    const left = chip.cutNow(mulberry32(asked.write * 1000003 + asked.after_us));
    // where it struck: the write asked for, so far into it, and what that write had done
    emit({ ev: 'cut', us: clock.micros, busy, write: asked.write, after_us: asked.after_us, left });
  }).schedule(afterUs * 1000);
}

// --- USB serial --------------------------------------------------------------

const cdc = new USBCDC(mcu.usbCtrl);
const toDevice = [];    // bytes the host has for the device, not yet sent
let connected = false;
// A USB host sends an OUT packet only when it has bytes to send: the device's armed OUT
// endpoint waits (NAKed) until then. rp2040js's USBCDC answers every arming at once, with an
// empty packet when it has nothing, and the device arms again: a transfer every 10 us for as
// long as the port is open, which kept the emulated CPU in its USB interrupt and never let
// it sleep. Here the arming waits for the host's bytes, as on a cable.
let armedOut = 0;       // the size of the device's armed OUT buffer (0: not armed)
cdc.usb.onEndpointRead = (endpoint, size) => {
  if (endpoint !== cdc.outEndpoint) return;
  armedOut = size;
  feedSerial();
};
cdc.onDeviceConnected = () => {
  connected = true;
  emit({ ev: 'connected', us: clock.micros });
};
cdc.onSerialData = (buffer) => {
  emit({ ev: 'serial', hex: Buffer.from(buffer).toString('hex'), us: clock.micros });
};

function feedSerial() {
  if (!armedOut || !toDevice.length) return;
  const packet = Uint8Array.from(toDevice.splice(0, armedOut));
  armedOut = 0;
  cdc.usb.endpointReadDone(cdc.outEndpoint, packet);
}

// --- the watchdog: a timeout resets the chip, as on a board ------------------
//
// rp2040js's watchdog counts down and calls onWatchdogTrigger, which resets
// nothing. A board's watchdog reset (RP2040 datasheet 4.7, "Watchdog": the
// PSM resets everything but the oscillators) restarts the chip from its boot
// code with the flash kept, and USB drops and comes back. Here: whatever the
// chip had under way is stopped (every alarm its peripherals set: timers, PIO,
// DMA, USB, PWM, SysTick; the host's pin edges, a power cut and the flash
// chip's own write go on), the peripherals MicroPython expects fresh are reset,
// the core starts again at the flash's boot code, and the console says so
// (reported as {ev: 'watchdog_reset', us}; emulator.py puts a line on the console).

const WATCHDOG = mcu.peripherals[0x40058];
const TIMER = mcu.peripherals[0x40054];
const ownAlarms = new WeakSet();           // set by this script, not by the chip: kept at a reset
const createAlarm = clock.createAlarm.bind(clock);
clock.createAlarm = (callback) => {        // the chip made its alarms when it was built, before this
  const alarm = createAlarm(callback);
  ownAlarms.add(alarm);
  return alarm;
};

function watchdogReset() {
  for (let a = clock.nextAlarm; a; ) {
    const next = a.next;
    if (!ownAlarms.has(a)) a.cancel();
    a = next;
  }
  WATCHDOG.writeUint32(0, 0);              // CTRL: ENABLE clear, as after any reset
  for (const alarm of TIMER.alarms) alarm.armed = false;
  for (const pio of mcu.pio) pio.writeUint32(0, 0);   // CTRL: every state machine stopped
  for (const channel of mcu.dma.channels) channel.reset();
  mcu.pwm.reset();
  mcu.ppb.reset();
  mcu.sio.spinLock = 0;
  chip.settle();                           // a program or erase under way finishes on the chip
  const core = mcu.core;                   // the same object (the running loop holds it), as after power on
  Object.assign(core, new core.constructor(mcu));
  core.reset();
  core.PC = 0x10000000;
  // USB goes down and comes back: the host enumerates the port again
  connected = false;
  toDevice.length = 0;
  armedOut = 0;
  Object.assign(cdc, { initialized: false, descriptorsSize: null, descriptors: [], outEndpoint: -1, inEndpoint: -1 });
  cdc.txFIFO.reset();
  emit({ ev: 'watchdog_reset', us: clock.micros });
}
WATCHDOG.onWatchdogTrigger = watchdogReset;

// --- the loop's markers: the firmware's stores to the watchdog's SCRATCH0 ------------------
// (firmware/layerlight/backends/rp2_pio.marker; app.py's M_* codes.) With LAYERLIGHT_MARKS=1
// each is reported as {ev: 'marks', at: [[us, code], ...]}, a batch at a time: recorded
// in the emulator, so the chip runs exactly as it does untraced (the stores are made anyway).
const SCRATCH0 = 0x0c;
const MARKS = process.env.LAYERLIGHT_MARKS === '1';
let marks = [];
if (MARKS) {
  const write = WATCHDOG.writeUint32.bind(WATCHDOG);
  WATCHDOG.writeUint32 = (offset, value) => {
    if (offset === SCRATCH0) {
      marks.push([clock.nanos / 1000, value]);
      if (marks.length >= 512) flushMarks();
    }
    write(offset, value);
  };
}
function flushMarks() {
  if (!marks.length) return;
  emit({ ev: 'marks', at: marks });
  marks = [];
}

// --- the matrix: WS2812 bits from the data pin's high pulses -----------------

// The WS2812B's timing (Worldsemi WS2812B datasheet, "Data transfer time": T0H 0.4 us, T1H
// 0.8 us, T0L 0.85 us, T1L 0.45 us, each +-150 ns; RES, the low that latches a frame, above
// 50 us; the WS2812B-V5 asks 280 us, which the firmware keeps between frames): every pulse
// of every lane is held to it, in ns.
const T0H = [250, 550];
const T1H = [650, 950];
const T0L = [700, 1000];
const T1L = [300, 600];
const GAP_NS = 280000;

// One decoder a data pin: the bits of the frame under way, and the LEDs' colours as long as
// the longest frame yet on that pin (the firmware's first frame is whole). The LEDs keep them
// across a reset of the chip, as on a board.
const lanes = DATA_PINS.map(() => ({
  rise: -1, lastFall: -1, start: -1, bits: [], byte: 0, nbits: 0, last: -1,
  strip: Buffer.alloc(0), endedAt: -1,
}));
let timing = null;   // the frame's first pulse outside the windows
let bad = 0;

function outside(what, ns, [lo, hi], lane) {
  if (ns >= lo && ns <= hi) return;
  bad += 1;
  if (timing === null) timing = `lane ${lane}: ${what} ${ns.toFixed(0)} ns, not ${lo}-${hi}`;
}

function endFrame() {
  const sentLanes = lanes.filter((l) => l.bits.length);
  if (!sentLanes.length) return;
  let start = Infinity;
  let end = 0;
  let sent = 0;
  for (const l of lanes) {
    if (!l.bits.length) continue;
    const got = Buffer.from(l.bits);
    l.strip = got.length >= l.strip.length ? got : Buffer.concat([got, l.strip.subarray(got.length)]);
    start = Math.min(start, l.start);
    end = Math.max(end, l.lastFall);
    sent += got.length;
  }
  emit({
    ev: 'frame',
    start_us: start / MHZ,
    end_us: end / MHZ,
    sent,
    lanes: lanes.map((l) => l.bits.length),
    hex: Buffer.concat(lanes.map((l) => l.strip)).toString('hex'),
    timing,
    bad,
  });
  for (const l of lanes) {
    if (l.bits.length) l.endedAt = l.lastFall;
    l.bits = [];
    l.byte = 0;
    l.nbits = 0;
    l.last = -1;
  }
  timing = null;
  bad = 0;
}

// A frame ends once every lane that was sent has been low for RES (the lanes go together).
function quietSince(now) {
  let any = false;
  for (const l of lanes) {
    if (!l.bits.length && !l.nbits) continue;
    any = true;
    if (now - l.lastFall <= LATCH_CYCLES) return false;
  }
  return any;
}

DATA_PINS.forEach((pin, k) => {
  const l = lanes[k];
  mcu.gpio[pin].addListener((state) => {
    const now = clock.nanos / cycleNanos;
    if (state === 1) {
      if (quietSince(now)) endFrame();
      if (!l.bits.length && l.nbits === 0) {
        l.start = now;
        // the low between two frames on this lane: the latch the LEDs need
        if (l.endedAt >= 0) outside('the gap between frames', (now - l.endedAt) * cycleNanos, [GAP_NS, Infinity], k);
      } else if (l.last >= 0) {
        outside(l.last ? 'T1L' : 'T0L', (now - l.lastFall) * cycleNanos, l.last ? T1L : T0L, k);
      }
      l.rise = now;
    } else if (state === 0 && l.rise >= 0) {
      const high = (now - l.rise) * cycleNanos;
      const one = now - l.rise > BIT_ONE_CYCLES ? 1 : 0;
      outside(one ? 'T1H' : 'T0H', high, one ? T1H : T0H, k);
      l.byte = (l.byte << 1) | one;
      l.last = one;
      if (++l.nbits === 8) {
        l.bits.push(l.byte);
        l.byte = 0;
        l.nbits = 0;
      }
      l.lastFall = now;
      l.rise = -1;
    }
  });
});

// --- the buzzer: a square wave on its PWM pin --------------------------------

let lastRise = -1;
let toneHz = 0;
mcu.gpio[BUZZER_PIN].addListener((state) => {
  if (state !== 1) return;
  const now = clock.nanos / cycleNanos;
  if (lastRise >= 0) {
    const hz = Math.round((MHZ * 1e6) / (now - lastRise));
    if (Math.abs(hz - toneHz) > toneHz * 0.02) {
      toneHz = hz;
      emit({ ev: 'tone', hz, us: now / MHZ });
    }
  }
  lastRise = now;
});

function checkQuiet() {
  const now = clock.nanos / cycleNanos;
  if (quietSince(now)) endFrame();
  if (toneHz && now - lastRise > SILENT_AFTER_US * MHZ) {
    toneHz = 0;
    lastRise = -1;
    emit({ ev: 'tone', hz: 0, us: now / MHZ });
  }
}

// --- running -----------------------------------------------------------------

// the longest stretches with interrupts off (PRIMASK set), overall and with no flash
// write in them (a strip write by machine.bitstream was one of those), since asked
const irqOff = { longest: 0, noFlash: 0 };
let pmSince = -1;
let pmWrites = 0;

// what the core did since asked: instructions run, and time asleep (WFI/WFE) in ns
const load = { instructions: 0, asleepNs: 0, since: 0 };

let untilUs = 0;        // emulated time may run up to here
let pendingAt = false;  // a "run" waits for its "at"

function runChunk() {
  const core = mcu.core;
  const limit = Math.round(untilUs * 1000);   // whole ns: the host asks for whole us
  for (let i = 0; i < 200000 && clock.nanos < limit && !poweredOff; i++) {
    if (core.waiting) {
      // asleep (WFI/WFE) until an alarm; with none to come (rp2040js then says 0) it sleeps
      // on while the host's time runs, instead of the emulator spinning with time stood still
      const step = clock.nextAlarm ? Math.min(clock.nanosToNextAlarm, limit - clock.nanos) : limit - clock.nanos;
      clock.tick(step);
      load.asleepNs += step;
      i += step / cycleNanos;
    } else {
      clock.tick(core.executeInstruction() * cycleNanos);
      load.instructions++;
    }
    if (core.PM) {
      if (pmSince < 0) { pmSince = clock.nanos; pmWrites = chip.writes; }
    } else if (pmSince >= 0) {
      const d = clock.nanos - pmSince;
      if (d > irqOff.longest) irqOff.longest = d;
      if (chip.writes === pmWrites && d > irqOff.noFlash) irqOff.noFlash = d;
      pmSince = -1;
    }
  }
  checkQuiet();
  if ((clock.nanos >= limit || poweredOff) && pendingAt) {
    pendingAt = false;
    flushMarks();  // every marker up to this instant with the host before it hears of it
    emit({ ev: 'at', us: clock.micros });
  }
  if (clock.nanos < limit && !poweredOff) setImmediate(runChunk);
  else running = false;
}

let running = false;
function go() {
  if (!running) {
    running = true;
    setImmediate(runChunk);
  }
}

function saveFlash(path) {
  writeFileSync(path + '.new', mcu.flash);
  renameSync(path + '.new', path);
}

const commands = {
  run(c) {              // run until emulated time c.until_us (then report "at")
    untilUs = Math.max(untilUs, c.until_us);
    pendingAt = true;
    go();
  },
  stop() {              // the power goes: nothing more runs
    untilUs = clock.micros;
    poweredOff = true;
  },
  cut_at(c) {           // the power goes c.after_us into flash write number c.write (counted from power on)
    cut = { write: c.write, after_us: c.after_us };
  },
  edge(c) {             // an input pin's level, now or at an emulated instant
    const set = () => mcu.gpio[c.pin].setInputValue(!!c.level);
    const delay = c.at_us === undefined ? 0 : c.at_us * 1000 - clock.nanos;
    if (delay <= 0) set();
    else clock.createAlarm(set).schedule(delay);
  },
  serial(c) {
    toDevice.push(...Buffer.from(c.hex, 'hex'));
    feedSerial();
  },
  save_flash(c) {
    saveFlash(c.path);
    emit({ ev: 'saved', path: c.path });
  },
  time() {
    emit({ ev: 'time', us: clock.micros });
  },
  irq_off() {           // the longest stretches with interrupts off since the last ask (us)
    emit({ ev: 'irq_off', longest_us: irqOff.longest / 1000, no_flash_us: irqOff.noFlash / 1000 });
    irqOff.longest = 0;
    irqOff.noFlash = 0;
  },
  load() {              // instructions run and time asleep since the last ask
    emit({ ev: 'load', instructions: load.instructions, asleep_us: load.asleepNs / 1000,
      span_us: clock.micros - load.since });
    Object.assign(load, { instructions: 0, asleepNs: 0, since: clock.micros });
  },
  debug() {             // where the chip is (for a person looking into a hang)
    emit({ ev: 'debug', us: clock.micros, pc: mcu.core.PC, regs: Array.from(mcu.core.registers.slice(0, 16)).map((r) => r >>> 0), waiting: mcu.core.waiting,
      flash_writes: chip.writes, selected: chip.selected, rx: chip.rx.length, clk_sys: mcu.clkSys });
  },
  quit(c) {
    if (c.path) saveFlash(c.path);
    process.exit(0);
  },
};

const input = createInterface({ input: process.stdin });
input.on('line', (line) => {
  if (!line.trim()) return;
  const c = JSON.parse(line);
  commands[c.cmd](c);
});
input.on('close', () => process.exit(0));
emit({ ev: 'ready', flash_bytes: mcu.flash.length, flash_times: FLASH_PROFILE });
