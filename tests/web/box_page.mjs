// What the "Your box" browser scripts (box_round, box_editor, box_photo) share: the page opened
// with its errors collected, and the waits and reads they all make of it.

// The context's page, its console errors and uncaught exceptions pushed onto `errors`.
export async function openPage(context, errors) {
  const page = context.pages()[0] || (await context.newPage());
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  return page;
}

// settled(): the box's work done (builds, readings, saves); text(sel): an element's text, null
// where it is missing or hidden; model(): the set as the page holds it.
export function boxReads(page, stepTimeout) {
  return {
    settled: async () => {
      await page.waitForTimeout(30);
      await page.waitForFunction(() => window.layerlightBox.settled(), null, { timeout: stepTimeout, polling: 20 });
    },
    text: (sel) => page.evaluate((s) => {
      const el = document.querySelector(s);
      return el && !el.hidden ? el.textContent : null;
    }, sel),
    model: () => page.evaluate(() => window.layerlightBox.model),
  };
}
