#!/usr/bin/env node
// "Your box" end to end in a real headless browser (Debian's chromium, driven
// by Playwright), only through the page's own controls:
//
//   node tests/web/box_round.mjs URL OUT_DIR PLAN.json
//
// PLAN.json (written by tests/test_web_box.py) holds the set to paint (name,
// file, size, colours, cards as rows) and the files to upload. The script
// paints the set from nothing (clicks and a drag), cancels "New" on it, stacks
// two cards, builds the deck, downloads the set and the deck into OUT_DIR,
// paints on after the build (and back), plays a mission of it on the page's
// device, reloads the page, opens the shipped sets and reads every card's 8
// orientations back from the canvases, and gives the page each bad input (a
// set the builder refuses then built at the deepest level it asks for). It
// prints one JSON object: what it saw. The test checks it all.

import fs from "node:fs";
import path from "node:path";
import { boxReads, openPage } from "./box_page.mjs";
import { close, launch } from "./browser.mjs";

const STEP_TIMEOUT = 30000;

const [url, outDir, planFile] = process.argv.slice(2);
if (!url || !outDir || !planFile) {
  console.error("usage: node tests/web/box_round.mjs URL OUT_DIR PLAN.json");
  process.exit(2);
}
const plan = JSON.parse(fs.readFileSync(planFile, "utf-8"));
fs.mkdirSync(outDir, { recursive: true });

const result = { errors: [], timings: {} };
const t0 = Date.now();
const mark = (name) => (result.timings[name] = Date.now() - t0);

const context = await launch({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
try {
  const page = await openPage(context, result.errors);
  // the page asks before another set replaces one with changes in no file: answered as told
  let dialogAnswer = true;
  result.dialogs = [];
  page.on("dialog", async (d) => {
    result.dialogs.push({ message: d.message(), accepted: dialogAnswer });
    await (dialogAnswer ? d.accept() : d.dismiss());
  });
  const dialogs = async (n) => {
    for (let t = 0; result.dialogs.length < n; t += 20) {
      if (t > STEP_TIMEOUT) throw new Error(`waiting for question ${n} of the page`);
      await page.waitForTimeout(20);
    }
  };

  const ready = async () => {
    await page.waitForFunction(() => window.layerlight && (window.layerlight.ready || window.layerlight.error)
      && window.layerlightBox && window.layerlightBox.ready, null, { timeout: 60000 });
    const err = await page.evaluate(() => window.layerlight.error);
    if (err) throw new Error("the page did not start: " + err);
  };
  // the last change checked by the server and drawn (settled), an element's text (text)
  const { settled, text } = boxReads(page, STEP_TIMEOUT);
  const status = () => page.evaluate(() => window.layerlight.status);
  const waitFor = async (what, predicate, arg) => {
    try {
      await page.waitForFunction(predicate, arg, { timeout: STEP_TIMEOUT, polling: 20 });
    } catch (e) {
      throw new Error(`waiting for ${what}; the device is at ${JSON.stringify(await status())}`);
    }
  };
  const cell = (card, side, x, y) => `.card[data-card="${card}"] .side[data-side="${side}"] .cell[data-x="${x}"][data-y="${y}"]`;
  const colourIndex = (ch) => plan.set.colors.findIndex((c) => c[0] === ch) + 1;
  const choose = (i) => page.click(`#palette .swatch[data-colour="${i}"]`);

  await page.goto(url);
  await ready();
  mark("page_ready");

  // --- paint a small set from nothing ------------------------------------------------
  const set = plan.set;
  await page.selectOption("#box-kind", "layers");
  await page.click("#box-new");
  await settled();
  await page.fill("#box-name", set.name);
  await page.fill("#box-file", set.file);
  await page.press("#box-file", "Tab");
  await page.selectOption("#box-size", String(set.size));
  await settled();
  // the new set's colours are the page's; make them the plan's (edit, add, remove)
  let have = await page.evaluate(() => window.layerlightBox.model.colors.length);
  while (have > set.colors.length) {
    await choose(have);
    await page.click("#colour-remove");
    have--;
  }
  for (let i = 0; i < set.colors.length; i++) {
    if (i >= have) {
      await page.click("#colour-add");
      have++;
    }
    await choose(i + 1);
    await page.fill("#colour-edit", set.colors[i][1]);
  }
  await settled();
  result.palette_chars = await page.evaluate(() => window.layerlightBox.model.colors.map((c) => c[0]));
  for (let k = 2; k < set.cards.length; k++) await page.click("#card-add");
  await settled();
  for (const [k, card] of set.cards.entries()) {
    const idInput = `.card[data-card="${k}"] .card-id`;
    await page.fill(idInput, card.id);
    // the front: the first row of the first card by a drag, every other cell by a click
    for (const [y, row] of card.front.entries()) {
      if (k === 0 && y === 0 && row[0] !== "." && row[1] === row[0]) {
        await choose(colourIndex(row[0]));
        const a = await page.locator(cell(k, "front", 0, 0)).boundingBox();
        let last = 0;
        while (last + 1 < row.length && row[last + 1] === row[0]) last++;
        const b = await page.locator(cell(k, "front", last, 0)).boundingBox();
        await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
        await page.mouse.down();
        await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 6 });
        await page.mouse.up();
        result.dragged = { card: k, cells: last + 1 };
        for (let x = last + 1; x < row.length; x++) {
          if (row[x] !== ".") {
            await choose(colourIndex(row[x]));
            await page.click(cell(k, "front", x, y));
          }
        }
        continue;
      }
      for (let x = 0; x < row.length; x++) {
        if (row[x] !== ".") {
          await choose(colourIndex(row[x]));
          await page.click(cell(k, "front", x, y));
        }
      }
    }
    // the back: the front turned over, then its colours painted
    await page.click(`.card[data-card="${k}"] .card-mirror`);
    await settled();
    const back = await page.evaluate((k) => window.layerlightBox.model.cards[k].back, k);
    for (const [y, row] of card.back.entries()) {
      for (let x = 0; x < row.length; x++) {
        if (row[x] !== back[y][x]) {
          await choose(row[x] === "." ? 0 : colourIndex(row[x]));
          await page.click(cell(k, "back", x, y));
        }
      }
    }
  }
  await settled();
  result.painted = await page.evaluate(() => window.layerlightBox.model);
  result.painted_check = await page.evaluate(() => ({ error: window.layerlightBox.checked.error, toml: window.layerlightBox.checked.toml }));
  mark("painted");

  // --- "New" on a painted set: the page asks; Cancel keeps the set as painted -----------------
  dialogAnswer = false;
  await page.click("#box-new");
  await dialogs(1);
  await settled();
  result.replace_refused = { model: await page.evaluate(() => window.layerlightBox.model) };
  dialogAnswer = true;

  // --- stack two cards: drag one, the button for the other; turn and flip the top one ----
  await page.dragAndDrop(`.card[data-card="${plan.stack.drag}"] header`, "#stack");
  await page.click(`.card[data-card="${plan.stack.button}"] .card-stack`);
  await settled();
  for (let i = 0; i < plan.stack.turns; i++) await page.click('.stack-item[data-k="1"] .st-turn');
  if (plan.stack.flip) await page.click('.stack-item[data-k="1"] .st-flip');
  await settled();
  result.stack = {
    rows: await page.evaluate(() => window.layerlightBox.stackRows),
    labels: await page.$$eval(".stack-item .label", (els) => els.map((e) => e.textContent)),
    leds: await readCanvas("#stack-leds", set.size, set.size),
  };
  mark("stacked");

  // --- build, with its progress bar -------------------------------------------------------
  const seen = [];
  await page.click("#build");
  // until the build has run and is over (its POST may take longer than a poll: not over before it began)
  for (let started = false; ;) {
    const s = await page.evaluate(() => ({ value: document.getElementById("build-progress").value,
      stage: document.getElementById("build-stage").textContent, building: window.layerlightBox.building,
      over: !!window.layerlightBox.built || !document.getElementById("build-msg").hidden }));
    seen.push(s);
    started = started || s.building;
    if (!s.building && (started || s.over)) break;
    await page.waitForTimeout(40);
  }
  await page.waitForFunction(() => window.layerlightBox.built || !document.getElementById("build-msg").hidden, null, { timeout: 60000 });
  result.build = {
    progress: seen,
    msg: await text("#build-msg"),
    line: await text("#build-line"),
    counts: await page.$$eval("#build-counts tr", (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent))),
    flash: await text("#flash-command"),
    command: await text("#build-command"),
    samples: await page.$$eval("#samples figcaption", (els) => els.map((e) => e.textContent)),
    result: await page.evaluate(() => { const b = window.layerlightBox.built; return b && { counts: b.counts, samples: b.samples, deck_file: b.deck_file }; }),
  };
  mark("built");

  // --- keep it: the set file and the deck, as the browser downloads them -------------------
  for (const [button, key] of [["#download-toml", "toml"], ["#download-deck", "deck"]]) {
    const [dl] = await Promise.all([page.waitForEvent("download"), page.click(button)]);
    const to = path.join(outDir, dl.suggestedFilename());
    await dl.saveAs(to);
    result["downloaded_" + key] = to;
  }
  mark("downloaded");

  // --- a change after the build: the deck waits for a new build; the set file is the set as it is ----
  const keep = async (dir) => {
    const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#download-toml")]);
    const to = path.join(outDir, dir, dl.suggestedFilename());
    await dl.saveAs(to);
    return to;
  };
  const builtState = async () => ({ play: await page.isDisabled("#play"), deck: await page.isDisabled("#download-deck"),
    note: await text("#built-stale") });
  const [sx, sy] = plan.stale_cell;
  await choose(2);
  await page.click(cell(0, "front", sx, sy));
  await settled();
  result.stale = { changed: await builtState(), toml: await keep("changed") };
  await choose(1);
  await page.click(cell(0, "front", sx, sy));   // painted back as it was
  await settled();
  result.stale.back = await builtState();
  result.stale.back_toml = await keep("back");

  // --- play it: the device restarts with the deck; two players race a mission ------------------
  await page.click("#play");
  await waitFor("Layers at joining", () => window.layerlight.status && window.layerlight.status.game === "layers"
    && window.layerlight.status.phase === "join");
  const dev = (b) => page.click(`.device [data-button="${b}"]`);
  await dev(0);
  await dev(1);
  await waitFor("two players joined", () => window.layerlight.status.players === 2);
  await page.selectOption("#speed", "10");
  await dev(4);
  await waitFor("the round tile", () => window.layerlight.status.phase === "round_tile");
  await page.selectOption("#speed", "1");
  await dev(4);
  await waitFor("the level", () => window.layerlight.status.phase === "choose_deck");
  await dev(4);
  await waitFor("the race", () => window.layerlight.status.phase === "race");
  await page.evaluate(() => window.layerlight.freeze(true));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  result.race = { status: await status(), frame: await page.evaluate(() => window.layerlight.frameRows()),
    console: await page.$eval("#console", (e) => e.textContent) };
  await page.evaluate(() => window.layerlight.freeze(false));
  await dev(1);
  await waitFor("P2 finished", () => window.layerlight.status.finish_order.length === 1);
  await dev(0);
  await waitFor("the verdicts", () => window.layerlight.status.phase === "verify");
  result.verify = await status();
  mark("played");

  // --- what was painted survives a reload ---------------------------------------------------------
  await page.reload();
  await ready();
  await settled();
  result.reloaded = {
    model: await page.evaluate(() => window.layerlightBox.model),
    file: await page.inputValue("#box-file"),
    cells: await page.$$eval(`.card[data-card="0"] .side[data-side="front"] .cell`,
      (els) => els.map((e) => (e.classList.contains("hole") ? "." : getComputedStyle(e).backgroundColor))),
  };
  mark("reloaded");

  // --- an upload that is not a set file: its message next to the upload, the set kept ------------------
  for (const [k, up] of plan.uploads.entries()) {
    const before = await text("#upload-msg");
    await page.setInputFiles("#box-upload", { name: up.name, mimeType: "application/octet-stream", buffer: Buffer.from(up.base64, "base64") });
    await page.waitForFunction((prev) => !document.getElementById("upload-msg").hidden
      && document.getElementById("upload-msg").textContent !== prev, before, { timeout: 5000 }).catch(() => null);
    result["upload_" + k] = { msg: await text("#upload-msg"), model: await page.evaluate(() => window.layerlightBox.model) };
  }
  // a set the loader refuses as it is painted: a cell opaque on the back only
  await choose(1);
  const [bx, by] = plan.bad_cell;
  await page.click(cell(0, "back", bx, by));
  await settled();
  result.bad_paint = { msg: await text('#card-msg-0'), bad: await page.$$eval(".cell.bad", (els) => els.map((e) => [e.closest(".side").dataset.side, +e.dataset.x, +e.dataset.y])),
    toml: await page.evaluate(() => window.layerlightBox.checked.toml), build_disabled: false };
  await page.click(cell(0, "back", bx, by)); // the same colour again: a hole, as before
  await settled();
  result.bad_paint.after = await text('#card-msg-0');

  // --- the shipped sets: every card's 8 orientations read back from the page ------------------------------
  result.shipped = {};
  for (const name of ["default.toml", "otlo.toml"]) {
    await page.selectOption("#box-shipped", name);
    await page.click("#box-open");
    await page.waitForFunction((n) => document.getElementById("box-file").value === n, name);
    await settled();
    const model = await page.evaluate(() => window.layerlightBox.model);
    const [w, h] = model.kind === "otlo" ? model.tile : [model.size, model.size];
    const cards = [];
    for (let k = 0; k < model.cards.length; k++) {
      const views = [];
      for (let o = 0; o < 8; o++) {
        const turned = o % 2 === 1;
        views.push(await readCanvas(`.card[data-card="${k}"] .orient figure[data-o="${o}"] canvas`, turned ? h : w, turned ? w : h));
      }
      cards.push(views);
    }
    result.shipped[name] = { model, cards, error: await page.evaluate(() => window.layerlightBox.checked.error) };
  }
  // the picture of the page with a set open
  await page.screenshot({ path: path.join(outDir, "web-box.png"), fullPage: true });
  mark("shipped");

  // --- a grid too big for the matrix: the 8x8 device, a 12x12 grid -------------------------------------------
  await page.selectOption("#box-shipped", "default.toml");
  await page.click("#box-open");
  await settled();
  await page.selectOption("#size", "8x8");
  await page.waitForFunction(() => window.layerlight.width === 8);
  await page.selectOption("#box-size", "12");
  await settled();
  result.too_big = { msg: await text("#size-msg") };
  await page.click("#build");
  await page.waitForTimeout(300);
  result.too_big.build = await text("#size-msg");
  result.too_big.built = await page.evaluate(() => !document.getElementById("build-result").hidden);
  await page.selectOption("#size", "16x16");

  // --- a set the builder refuses: uploaded (a good set file), then built ------------------------------------
  await page.setInputFiles("#box-upload", { name: plan.refused.name, mimeType: "text/plain", buffer: Buffer.from(plan.refused.text) });
  await page.waitForFunction((n) => document.getElementById("box-file").value === n, plan.refused.name);
  await settled();
  result.refused = { painting: await text("#levels-msg") };   // said before any build
  await page.click("#build");
  await page.waitForTimeout(300);
  result.refused.msg = await text("#levels-msg");
  result.refused.built = await page.evaluate(() => !document.getElementById("build-result").hidden);
  // the deepest level the line asks for: the message goes, the deck builds
  await page.fill("#max-level", String(plan.refused.max_level));
  await settled();
  result.refused.fixed = await text("#levels-msg");
  await page.click("#build");
  await page.waitForFunction(() => window.layerlightBox.built || !document.getElementById("build-msg").hidden, null, { timeout: 60000 });
  result.refused.command = await text("#build-command");
  const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#download-deck")]);
  result.refused.deck = path.join(outDir, "refused", dl.suggestedFilename());
  await dl.saveAs(result.refused.deck);
  mark("done");
} finally {
  await close(context);
}
process.stdout.write(JSON.stringify(result) + "\n");

// The colour at the centre of each LED of a canvas drawn by the page, rows of RRGGBB.
async function readCanvas(sel, w, h) {
  const page = context.pages()[0];
  return page.evaluate(([sel, w, h]) => {
    const c = document.querySelector(sel);
    if (!c) return null;
    const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    const px = c.width / w;
    const py = c.height / h;
    const hex = (v) => v.toString(16).padStart(2, "0");
    const rows = [];
    for (let y = 0; y < h; y++) {
      let row = "";
      for (let x = 0; x < w; x++) {
        const k = (Math.floor((y + 0.5) * py) * c.width + Math.floor((x + 0.5) * px)) * 4;
        row += hex(data[k]) + hex(data[k + 1]) + hex(data[k + 2]);
      }
      rows.push(row);
    }
    return rows;
  }, [sel, w, h]);
}
