// Debian's chromium, headless, for the web page's tests (play_round, box_round,
// box_picture): one place for its path and its flags. Without the background
// networking flags chromium keeps trying hosts this machine's closed network
// refuses; sRGB so that the LEDs read back from a screenshot are the page's.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

export const CHROMIUM = process.env.LAYERLIGHT_CHROMIUM || "/usr/bin/chromium";
export const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--force-color-profile=srgb",
];

// A browser with a new empty profile; `options` adds to Playwright's (viewport, downloads).
export async function launch(options) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "layerlight-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    deviceScaleFactor: 1,
    ...options,
  });
  profiles.set(context, profile);
  return context;
}

const profiles = new Map();

// Close the browser and remove its profile.
export async function close(context) {
  await context.close();
  fs.rmSync(profiles.get(context), { recursive: true, force: true });
}
