#!/usr/bin/env node
// The picture of "Your box" in docs/decks.md: the shipped starter set open,
// three of its cards stacked, the deck built. Run by tests/docs_box.py:
//
//   node tests/web/box_picture.mjs URL OUT.png

import { close, launch } from "./browser.mjs";

const [url, out] = process.argv.slice(2);
const context = await launch({ viewport: { width: 1400, height: 1000 } });
try {
  const page = context.pages()[0] || (await context.newPage());
  await page.goto(url);
  await page.waitForFunction(() => window.layerlight && window.layerlight.ready && window.layerlightBox && window.layerlightBox.ready,
    null, { timeout: 60000 });
  const settled = () => page.waitForFunction(() => window.layerlightBox.settled(), null, { timeout: 30000 });
  await page.selectOption("#box-shipped", "default.toml");
  await page.click("#box-open");
  await page.waitForFunction(() => document.getElementById("box-file").value === "default.toml");
  await settled();
  for (const k of [2, 0, 1]) await page.click(`.card[data-card="${k}"] .card-stack`);
  await page.click('.stack-item[data-k="2"] .st-turn');
  await page.click('.stack-item[data-k="1"] .st-flip');
  await page.waitForTimeout(100);
  await settled();
  await page.click("#build");
  await page.waitForFunction(() => window.layerlightBox.built, null, { timeout: 120000 });
  await page.waitForTimeout(200);
  const top = await page.evaluate(() => document.getElementById("box").getBoundingClientRect().top + window.scrollY);
  await page.screenshot({ path: out, fullPage: true, clip: { x: 0, y: top - 8, width: 1400, height: 1180 } });
} finally {
  await close(context);
}
