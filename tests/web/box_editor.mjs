#!/usr/bin/env node
// "Your box" as a beginner meets it (issue 44), in Debian's chromium through the page's own
// controls: undo and redo, zoom, the background, the previews at 2x2 and 16x16, a blank set
// and a first small set built and played, Build clicked twice, a refusal after a build, a
// message's line in the set file, a build's message after its cause is fixed, the builder's
// limits while painting, an odd file name and a name with umlauts, the printable cards, and a
// reload in the middle of a build.
//
//   node tests/web/box_editor.mjs URL OUT_DIR PLAN.json
//
// PLAN.json (tests/test_web_box_editor.py) holds the set files to upload. Prints one JSON
// object: what the page showed. The test checks it.

import fs from "node:fs";
import path from "node:path";
import { boxReads, openPage } from "./box_page.mjs";
import { close, launch } from "./browser.mjs";

const STEP_TIMEOUT = 30000;
const [url, outDir, planFile] = process.argv.slice(2);
const plan = JSON.parse(fs.readFileSync(planFile, "utf-8"));
fs.mkdirSync(outDir, { recursive: true });
const result = { errors: [] };

const context = await launch({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
try {
  const page = await openPage(context, result.errors);
  page.on("dialog", (d) => d.accept());   // "replace it anyway?": yes

  const ready = async () => {
    await page.waitForFunction(() => window.layerlight && (window.layerlight.ready || window.layerlight.error)
      && window.layerlightBox && window.layerlightBox.ready, null, { timeout: 60000 });
  };
  const { settled, text, model } = boxReads(page, STEP_TIMEOUT);
  const cell = (card, side, x, y) => `.card[data-card="${card}"] .side[data-side="${side}"] .cell[data-x="${x}"][data-y="${y}"]`;
  const choose = (i) => page.click(`#palette .swatch[data-colour="${i}"]`);
  const blur = () => page.click(".box-head h2");
  const upload = async (name, body) => {
    await page.setInputFiles("#box-upload", { name, mimeType: "text/plain", buffer: Buffer.from(body) });
    await page.waitForFunction((n) => document.getElementById("box-file").value === n, name, { timeout: STEP_TIMEOUT });
    await settled();
  };
  // Build, and wait until the page says how it ended
  const buildNow = async (click = () => page.click("#build")) => {
    await click();
    await page.waitForTimeout(50);
    await page.waitForFunction(() => !window.layerlightBox.building, null, { timeout: 120000, polling: 20 });
    await settled();
  };
  const built = async () => ({
    msg: await text("#build-msg"),
    line: await text("#build-line"),
    stage: await text("#build-stage"),
    result: await page.evaluate(() => !document.getElementById("build-result").hidden),
    plays: await text("#build-plays"),
    whynot: await page.$$eval("#build-whynot li", (els) => els.map((e) => e.textContent)),
    modes: await page.$$eval("#play-mode option", (els) => els.map((e) => e.value)),
    play: !(await page.isDisabled("#play")),
    deck: !(await page.isDisabled("#download-deck")),
    print: !(await page.isDisabled("#print")),
    command: await text("#build-command"),
    render: await text("#render-command"),
  });
  const download = async (button, dir) => {
    const [dl] = await Promise.all([page.waitForEvent("download"), page.click(button)]);
    const to = path.join(outDir, dir, dl.suggestedFilename());
    await dl.saveAs(to);
    return to;
  };

  await page.goto(url);
  await ready();

  // --- undo and redo: a stroke is one step, a click another, typing a name a third ---------------
  await page.selectOption("#box-kind", "layers");
  await page.click("#box-new");
  await settled();
  const before = await model();
  await choose(1);
  const a = await page.locator(cell(0, "front", 0, 0)).boundingBox();
  const b = await page.locator(cell(0, "front", 2, 0)).boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
  await choose(2);
  await page.click(cell(0, "front", 5, 5));
  await page.fill("#box-name", "Stroke test");
  await blur();
  await settled();
  const undo = { painted: await model() };
  await page.keyboard.press("Control+z");
  await settled();
  undo.name_undone = await model();
  await page.keyboard.press("Control+z");
  await settled();
  undo.click_undone = await model();
  await page.keyboard.press("Control+z");
  await settled();
  undo.stroke_undone = await model();
  undo.before = before;
  await page.keyboard.press("Control+Shift+z");
  await settled();
  undo.stroke_redone = await model();
  await page.click("#card-add");
  await settled();
  await page.click("#undo");
  await settled();
  undo.add_undone = (await model()).cards.length;
  await page.click("#redo");
  await settled();
  undo.add_redone = (await model()).cards.length;
  result.undo = undo;

  // --- zoom on a card ------------------------------------------------------------------------------
  const cellWidth = (k) => page.locator(cell(k, "front", 0, 0)).boundingBox().then((r) => r.width);
  result.zoom = { before: [await cellWidth(0), await cellWidth(1)] };
  await page.click('.card[data-card="1"] .card-zoom');
  result.zoom.after = [await cellWidth(0), await cellWidth(1)];
  await page.click('.card[data-card="1"] .card-zoom');
  result.zoom.back = [await cellWidth(0), await cellWidth(1)];

  // --- the background shows in the holes ---------------------------------------------------------------
  const holeColour = () => page.$eval(cell(1, "front", 1, 1), (e) => getComputedStyle(e).backgroundColor);
  result.background = { before: await holeColour() };
  await page.fill("#box-background", plan.background);
  await settled();
  result.background.after = await holeColour();

  // --- the previews at 16x16 and 2x2: inside their card, LEDs big enough to read -------------------------
  const previews = (n) => page.evaluate((n) => {
    const out = [];
    for (const card of document.querySelectorAll(".card")) {
      const box = card.getBoundingClientRect();
      for (const cv of card.querySelectorAll(".orient canvas")) {
        const r = cv.getBoundingClientRect();
        out.push({ led: r.width / n, inside: r.left >= box.left && r.right <= box.right && r.bottom <= box.bottom });
      }
      for (const g of card.querySelectorAll(".grid")) {
        const r = g.getBoundingClientRect();
        out.push({ grid: true, inside: r.left >= box.left && r.right <= box.right });
      }
    }
    return out;
  }, n);
  result.previews = {};
  for (const n of [16, 2]) {
    await page.selectOption("#box-size", String(n));
    await settled();
    result.previews[n] = await previews(n);
  }

  // --- a blank set: no mode can play it, and the page says so at the build ------------------------------
  for (const k of [0, 1, 2]) await page.click(`.card[data-card="${k}"] .card-clear`);
  await settled();
  await buildNow();
  result.blank = await built();

  // --- a first small set (four layers on 2x2): built, it says who plays it, and Play starts that mode ------
  await upload("small.toml", plan.small);
  await buildNow();
  result.small = await built();
  await page.click("#play");
  await page.waitForFunction(() => window.layerlight.status && window.layerlight.status.phase === "join",
    null, { timeout: STEP_TIMEOUT });
  result.small.device = await page.evaluate(() => window.layerlight.status.game);
  const dev = (k) => page.click(`.device [data-button="${k}"]`);
  await dev(0);
  await dev(1);
  await page.selectOption("#speed", "10");
  await dev(4);
  await page.waitForFunction(() => window.layerlight.status.phase === "choose_deck", null, { timeout: STEP_TIMEOUT });
  await page.selectOption("#speed", "1");
  await dev(4);
  await page.waitForFunction(() => window.layerlight.status.phase === "race", null, { timeout: STEP_TIMEOUT });
  result.small.race = await page.evaluate(() => window.layerlight.status);

  // --- Build clicked twice: one build, and no "already running" beside it ------------------------------------
  await buildNow(() => page.dblclick("#build"));
  result.twice = await built();

  // --- an odd file name, a name with umlauts: the commands quoted for a shell, the text as written ------------
  await page.fill("#box-file", plan.odd_file);
  await page.press("#box-file", "Tab");
  await page.fill("#box-name", plan.umlaut_name);
  await blur();
  await settled();
  await buildNow();
  result.odd = await built();
  result.odd.toml = await download("#download-toml", "odd");
  result.odd.deck = await download("#download-deck", "odd");
  result.odd.pdf = await download("#print", "odd");

  // --- a refusal after a build: the progress bar does not say "built" -----------------------------------------
  await page.fill("#max-level", "7");
  await settled();
  await buildNow();
  result.refused = { stage: await text("#build-stage"), levels: await text("#levels-msg"), msg: await text("#build-msg") };
  await page.fill("#max-level", "");
  await settled();

  // --- a card's message: its line in the set file; the build's message goes once the card is fixed -------------
  await choose(1);
  await page.click(cell(0, "back", 0, 1));   // opaque on the back only: the holes no longer mirror
  await settled();
  await buildNow();
  result.bad = { card: await text("#card-msg-0"), build: await text("#build-msg") };
  await page.click("#card-msg-0 a.toml-line");
  result.bad.link = await page.evaluate(() => ({
    open: document.querySelector(".toml-box").open,
    line: (document.querySelector("#toml .ln.hl") || {}).textContent || null,
    number: (document.querySelector("#toml .ln.hl") || { dataset: {} }).dataset.line || null,
  }));
  await page.click(cell(0, "back", 0, 1));   // a hole again
  await settled();
  result.bad.fixed = { card: await text("#card-msg-0"), build: await text("#build-msg") };

  // --- the builder's limits while painting ---------------------------------------------------------------------
  result.limits = { status: await text("#set-status") };
  await upload("many.toml", plan.many);
  result.limits.many = { levels: await text("#levels-msg"), add: await page.isDisabled("#card-add"),
    status: await text("#set-status") };
  await upload("most.toml", plan.most);
  result.limits.most = { levels: await text("#levels-msg"), add: await page.isDisabled("#card-add") };

  // --- a reload in the middle of a build: the page finds it, and the next build is taken ------------------------
  await page.selectOption("#box-shipped", "default.toml");
  await page.click("#box-open");
  await page.waitForFunction(() => document.getElementById("box-file").value === "default.toml");
  await settled();
  await page.click("#build");
  await page.waitForFunction(() => window.layerlightBox.building && document.getElementById("build-stage").textContent,
    null, { timeout: STEP_TIMEOUT, polling: 10 });
  await page.reload();
  await ready();
  result.reload = { building: await page.evaluate(() => window.layerlightBox.building) };
  await page.waitForFunction(() => !window.layerlightBox.building, null, { timeout: 120000, polling: 20 });
  await settled();
  result.reload.after = await built();
  await buildNow();
  result.reload.again = await built();
} finally {
  await close(context);
}
process.stdout.write(JSON.stringify(result) + "\n");
