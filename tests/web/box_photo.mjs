#!/usr/bin/env node
// "Your box": a layer added from a photo, in Debian's chromium through the page's own controls.
// A set file is uploaded; a file that is not a photo is refused in one line; a photo in harsh
// light is read with its doubtful cell ringed; a photo of one of the set's layers is read, one
// cell corrected with the palette, the layer added, taken back by Undo and brought back by
// Redo; a photo read and cancelled adds nothing.
//
//   node tests/web/box_photo.mjs URL PLAN.json
//
// PLAN.json (tests/test_web_box_photo.py): the set file, the photos' paths, the cell to correct.
// Prints one JSON object: what the page showed. The test checks it.

import fs from "node:fs";
import { boxReads, openPage } from "./box_page.mjs";
import { close, launch } from "./browser.mjs";

const STEP_TIMEOUT = 30000;
const [url, planFile] = process.argv.slice(2);
const plan = JSON.parse(fs.readFileSync(planFile, "utf-8"));
const result = { errors: [] };

const context = await launch({ viewport: { width: 1400, height: 1000 } });
try {
  const page = await openPage(context, result.errors);
  page.on("dialog", (d) => d.accept());

  const { settled, text, model } = boxReads(page, STEP_TIMEOUT);
  const undoSteps = () => page.evaluate(() => window.layerlightBox.undoSteps);
  // a photo chosen in "Add a layer from a photo", and the page's answer: the reading or a message
  const choosePhoto = async (file) => {
    await page.evaluate(() => {
      window.photoSeen = false;
      document.getElementById("photo-input").addEventListener("change", () => (window.photoSeen = true), { once: true });
    });
    await page.setInputFiles("#photo-input", file);
    await page.waitForFunction(() => window.photoSeen && !document.querySelector("#photo-label.busy"), null,
      { timeout: STEP_TIMEOUT, polling: 20 });
    await page.waitForTimeout(50);
  };
  // what the reading shows: each cell's colour as painted, the ringed cells, the rings on the picture
  const reading = () => page.evaluate(() => {
    const panel = document.getElementById("photo-read");
    if (panel.hidden) return null;
    const img = document.getElementById("photo-img");
    const ir = img.getBoundingClientRect();
    return {
      colours: [...document.querySelectorAll("#photo-grid .cell")].map((c) => getComputedStyle(c).backgroundColor),
      doubts: [...document.querySelectorAll("#photo-grid .cell")].filter((c) => c.classList.contains("doubt")
        && getComputedStyle(c).outlineStyle !== "none").map((c) => [Number(c.dataset.x), Number(c.dataset.y)]),
      marks: [...document.querySelectorAll("#photo-marks .photo-mark")].map((m) => {
        const r = m.getBoundingClientRect();
        return { left: (r.left - ir.left) / ir.width, top: (r.top - ir.top) / ir.height, width: r.width / ir.width,
          shown: getComputedStyle(m).borderTopWidth !== "0px" };
      }),
      preview: img.complete ? img.naturalWidth : 0,
      how: document.getElementById("photo-how").textContent,
      doubtLine: document.getElementById("photo-doubts").textContent,
      same: document.getElementById("photo-same").textContent,
      add: !document.getElementById("photo-add").disabled,
    };
  });

  await page.goto(url);
  await page.waitForFunction(() => window.layerlight && (window.layerlight.ready || window.layerlight.error)
    && window.layerlightBox && window.layerlightBox.ready, null, { timeout: 60000 });
  await page.setInputFiles("#box-upload", { name: "photo-test.toml", mimeType: "text/plain", buffer: Buffer.from(plan.set) });
  await page.waitForFunction(() => document.getElementById("box-file").value === "photo-test.toml", null, { timeout: STEP_TIMEOUT });
  await settled();
  const before = await model();
  const steps = await undoSteps();
  result.before = before;

  // --- a file that is not a photo: its one line, nothing read, nothing added ----------------------
  await choosePhoto(plan.bad);
  result.bad = { msg: await text("#cards-msg"), reading: await reading(), cards: (await model()).cards.length,
    steps: await undoSteps() };

  // --- a photo in harsh light: read, its doubtful cell ringed; the earlier message gone -------------
  await choosePhoto(plan.doubt);
  result.doubt = { msg: await text("#cards-msg"), reading: await reading() };

  // --- a photo of one of the set's layers: read, one cell corrected, added, undone, redone -----------
  await choosePhoto(plan.clean);
  result.clean = { msg: await text("#cards-msg"), reading: await reading() };
  await page.click(`#palette .swatch[data-colour="${plan.fix.colour}"]`);
  await page.click(`#photo-grid .cell[data-x="${plan.fix.x}"][data-y="${plan.fix.y}"]`);
  result.clean.corrected = await reading();
  result.clean.cardsBefore = (await model()).cards.length;
  await page.click("#photo-add");
  await page.waitForFunction((n) => window.layerlightBox.model.cards.length === n + 1, before.cards.length,
    { timeout: STEP_TIMEOUT });
  await settled();
  result.added = { model: await model(), steps: await undoSteps() - steps, reading: await reading(),
    msg: await text("#cards-msg"), setMsg: await text("#set-msg"),
    cardMsg: await text(`#card-msg-${before.cards.length}`) };
  // the keys, not the buttons: a disabled Undo would stop the run, and the test says what it saw
  await page.keyboard.press("Control+z");
  await settled();
  result.undone = await model();
  await page.keyboard.press("Control+Shift+z");
  await settled();
  result.redone = await model();

  // --- read and cancelled: nothing added -----------------------------------------------------------
  const n = (await model()).cards.length;
  await choosePhoto(plan.clean);
  result.cancel = { shown: (await reading()) !== null };
  await page.click("#photo-cancel");
  result.cancel.after = { reading: await reading(), cards: (await model()).cards.length, before: n };
} finally {
  await close(context);
}
process.stdout.write(JSON.stringify(result) + "\n");
