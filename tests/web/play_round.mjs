#!/usr/bin/env node
// Plays one round of 2-player Layers on the simulator page in a real headless
// browser (Debian's chromium, driven by Playwright), by clicking its buttons.
//
//   node tests/web/play_round.mjs URL OUT_DIR
//
// Writes OUT_DIR/web-race.png (the whole page during the race) and
// OUT_DIR/web-race-matrix.png (the matrix alone, for reading the LEDs back),
// and prints one JSON object on stdout: the states seen, the LED colours read
// from the canvas at the centre of each LED, the frame the firmware drew, the
// geometry of the LEDs on the screenshot, every URL the page requested, the
// console errors and the timings. tests/test_web_sim.py checks it all.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { close, launch } from "./browser.mjs";

const STEP_TIMEOUT = 30000;

const [url, outDir] = process.argv.slice(2);
if (!url || !outDir) {
  console.error("usage: node tests/web/play_round.mjs URL OUT_DIR");
  process.exit(2);
}
fs.mkdirSync(outDir, { recursive: true });

const result = { requests: [], errors: [], states: {}, timings: {} };
const t0 = Date.now();
const mark = (name) => (result.timings[name] = Date.now() - t0);

const context = await launch({ viewport: { width: 1180, height: 830 } });
try {
  mark("browser_started");
  context.on("request", (r) => result.requests.push(r.url()));
  const page = context.pages()[0] || (await context.newPage());
  page.on("console", (m) => {
    if (m.type() === "error") result.errors.push(m.text());
  });
  page.on("pageerror", (e) => result.errors.push(String(e)));

  await page.goto(url);
  await page.waitForFunction(() => window.layerlight && (window.layerlight.ready || window.layerlight.error), null, { timeout: 60000 });
  const loadError = await page.evaluate(() => window.layerlight.error);
  if (loadError) throw new Error("the page did not start: " + loadError);
  mark("page_ready");

  const status = () => page.evaluate(() => window.layerlight.status);
  const waitFor = async (what, predicate, arg) => {
    try {
      await page.waitForFunction(predicate, arg, { timeout: STEP_TIMEOUT, polling: 20 });
    } catch (e) {
      throw new Error(`waiting for ${what}; the device is at ${JSON.stringify(await status())}`);
    }
  };
  const phaseIs = (phase) => waitFor("phase " + phase, (p) => window.layerlight.status.phase === p, phase);
  const click = (b) => page.click(`.device [data-button="${b}"]`);
  const P1 = 0, P2 = 1, A = 4;
  result.states.boot = await status();

  // the mode list comes from the firmware; choose Layers: it starts at joining
  result.modes = await page.$$eval("#mode option", (os) => os.map((o) => o.value));
  await page.selectOption("#mode", "layers");
  await phaseIs("join");
  // the keyboard: 1 joins P1, 1 again leaves
  await page.keyboard.press("1");
  await waitFor("P1 joined by key", () => window.layerlight.status.players === 1);
  await page.keyboard.press("1");
  await waitFor("P1 left by key", () => window.layerlight.status.players === 0);
  await click(P1);
  await click(P2);
  await waitFor("two players joined", () => window.layerlight.status.players === 2);
  await page.selectOption("#speed", "10"); // the first-player draw spins for a while
  await click(A);
  await phaseIs("round_tile");
  await page.selectOption("#speed", "1");
  result.states.round_tile = await status();
  await click(A);
  await phaseIs("choose_deck");
  await click(A);
  await phaseIs("race");
  mark("race");

  // the pattern is on the LEDs: read it back from the page, and take pictures
  // time stands still while the LEDs are read and photographed (some blink)
  await page.evaluate(() => window.layerlight.freeze(true));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  result.states.race = await status();
  result.leds = await page.evaluate(() => window.layerlight.readLeds());
  result.frame = await page.evaluate(() => window.layerlight.frameRows());
  const box = await page.locator("#matrix").boundingBox();
  result.geometry = await page.evaluate(() => {
    const c = document.getElementById("matrix");
    const r = c.getBoundingClientRect();
    const w = window.layerlight.width;
    const h = window.layerlight.height;
    return { width: w, height: h, css_pitch_x: r.width / w, css_pitch_y: r.height / h, dpr: window.devicePixelRatio };
  });
  result.geometry.box = box;
  await page.locator("#matrix").screenshot({ path: path.join(outDir, "web-race-matrix.png") });
  await page.evaluate(() => window.layerlight.freeze(false));
  mark("leds_read");

  // the race: P2 first, then P1; both judged right
  await click(P2);
  await waitFor("P2 finished", () => window.layerlight.status.finish_order.length === 1);
  await page.evaluate(() => new Promise((r) => setTimeout(r, 700))); // the sand ring drains a little
  await page.screenshot({ path: path.join(outDir, "web-race.png") });
  await click(P1);
  await phaseIs("verify");
  result.states.verify = await status();
  await click(A);
  await waitFor("P2 judged", (n) => window.layerlight.status.phase !== "verify" || window.layerlight.status.verifying !== n,
    result.states.verify.verifying);
  await click(A);
  await waitFor("the verdicts", () => window.layerlight.status.phase !== "verify");
  // a "take 1" reward: the taker picks the other player, who has a point by now
  for (let i = 0; i < 4 && (await status()).phase === "steal"; i++) {
    const s = await status();
    result.states.steal = s;
    const victim = s.seats.find((seat) => seat !== s.taker);
    await click(victim - 1);
    await page.waitForFunction((before) => JSON.stringify(window.layerlight.status.scores) !== before || window.layerlight.status.phase !== "steal",
      JSON.stringify(s.scores), { timeout: STEP_TIMEOUT });
  }
  await phaseIs("scores");
  result.states.scores = await status();
  result.notes = await page.evaluate(() => window.layerlight.notes);
  result.audio = await page.evaluate(() => window.layerlight.audioState);
  mark("round_played");

  // pull the plug: the flash keeps its files, a fresh device boots to its menu
  result.flash_before = await page.evaluate(() => window.layerlight.flashNames());
  await page.click("#unplug");
  await waitFor("the plug pulled", () => window.layerlight.unplugged);
  result.dark = await page.evaluate(() => window.layerlight.readLeds());
  await waitFor("the device booted again", () => !window.layerlight.unplugged && window.layerlight.status);
  result.states.after_unplug = await status();
  result.flash_after = await page.evaluate(() => window.layerlight.flashNames());
  // if the firmware saved the game, the menu's first item is RESUME
  await click(A);
  await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
  result.states.resumed = await status();
  mark("unplugged");

  // time speed-up: 10x for half a second of real time
  await page.selectOption("#speed", "10");
  const speed0 = { t: (await status()).t, real: Date.now() };
  await page.evaluate(() => new Promise((r) => setTimeout(r, 500)));
  result.speedup = { virtual_ms: (await status()).t - speed0.t, real_ms: Date.now() - speed0.real };
  await page.selectOption("#speed", "1");

  // the other matrix sizes: a new device each, drawn LED for LED
  result.sizes = {};
  for (const size of ["32x32", "8x8"]) {
    await page.selectOption("#size", size);
    await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
    result.sizes[size] = await page.evaluate(() => ({
      width: window.layerlight.width,
      height: window.layerlight.height,
      leds: window.layerlight.readLeds(),
      frame: window.layerlight.frameRows(),
      status: window.layerlight.status,
    }));
  }

  // CO.OP's six colours on the page: two players' white cards show them all, as squares on
  // their edges; read back from the canvas and from a screenshot, with the frame and the cap
  await page.selectOption("#size", "16x16");
  await page.selectOption("#mode", "coop");
  await phaseIs("join");
  await click(P1);
  await click(P2);
  await waitFor("two players joined", () => window.layerlight.status.players === 2);
  await click(A);
  await phaseIs("cards");
  await page.evaluate(() => new Promise((r) => setTimeout(r, 400)));
  await page.evaluate(() => window.layerlight.freeze(true));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  result.coop = await page.evaluate(() => ({
    leds: window.layerlight.readLeds(),
    frame: window.layerlight.frameRows(),
    shown: window.layerlight.shownRows(),
    cap: window.layerlight.cap,
    status: window.layerlight.status,
  }));
  await page.locator("#matrix").screenshot({ path: path.join(outDir, "web-coop-matrix.png") });
  await page.evaluate(() => window.layerlight.freeze(false));
  mark("done");
} finally {
  await close(context);
}
process.stdout.write(JSON.stringify(result) + "\n");
