// The docs site from the file system, as a reader opens the folder `npm run docs` wrote: each nav
// link of the landing page (file://…/index.html) opens its page. Apart from site.test.ts, which
// visits the pages served by the mock, so that the two run side by side.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openContext } from "../support/browser.js";
import { openSiteFiles, type SiteFiles } from "./site-support.js";
import { DESKTOP } from "./site-visit.js";

let site: SiteFiles;

beforeAll(async () => {
  site = await openSiteFiles();
}, 300_000);

afterAll(() => site?.close());

test("the site works from the file system: each nav link of the landing page opens its page", async () => {
  // Script off: the nav is plain links and a <details> list, which must work without it, and the
  // references' renderers (seconds of CPU per page) have nothing to do with where a link leads.
  const context = await openContext(site.browser, { viewport: DESKTOP, javaScriptEnabled: false });
  const opened: string[] = [];
  try {
    const page = await context.newPage();
    const start = pathToFileURL(path.join(site.dir, "index.html")).href;
    for (const file of site.files.filter((f) => f !== "index.html")) {
      await page.goto(start);
      // The guides sit in the nav's Guides list, which a click opens, as a reader's would.
      if (site.guides.some((guide) => guide.file === file)) await page.locator("#site-nav .site-guides summary").click();
      // Where the click leads, once the browser has committed to it (that the page then shows what
      // it should is site.test.ts's; here, only that the link works from file://).
      await Promise.all([page.waitForURL((url) => url.protocol === "file:" && url.pathname.endsWith(`/${file}`), { waitUntil: "commit" }), page.locator(`#site-nav .site-links a[href="${file}"]`).click()]);
      const reached = fileURLToPath(page.url());
      opened.push(`${file} → ${path.basename(reached)}${fs.existsSync(reached) ? "" : " (no such file)"}`);
    }
  } finally {
    await context.close();
  }
  expect(opened, "nav links followed from file://…/index.html").toEqual(site.files.filter((f) => f !== "index.html").map((file) => `${file} → ${file}`));
}, 300_000);

test("every picture a guide shows is in the site's folder and shows from the file system", async () => {
  const pictures = site.guides.flatMap((guide) => guide.images.map((image) => ({ guide, image })));
  expect(pictures.map((p) => p.image), "the guides' pictures (docs/guides/images/)").toContain("images/deployment.svg");
  const context = await openContext(site.browser, { viewport: DESKTOP, javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    const shown: string[] = [];
    for (const { guide, image } of pictures) {
      await page.goto(pathToFileURL(path.join(site.dir, guide.file)).href);
      // decode() settles once the picture is loaded and drawable, and fails when it cannot be.
      const width = await page.locator(`img[src="${image}"]`).evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth, () => 0));
      shown.push(`${guide.file}: ${image} ${width > 0 ? "shown" : "not shown"}`);
    }
    expect(shown).toEqual(pictures.map(({ guide, image }) => `${guide.file}: ${image} shown`));
  } finally {
    await context.close();
  }
});
