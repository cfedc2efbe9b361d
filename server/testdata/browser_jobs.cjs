// Drives the page's background exports in headless Chromium
// (playwright-core): run an export in the background, watch the Recent
// exports list update itself to done, download the file from it.
// Usage: node browser_jobs.cjs URL OUTDIR. Prints a JSON report.
const { chromium } = require("playwright-core");

(async () => {
  const [url, outDir] = process.argv.slice(2);
  const browser = await chromium.launch({
    executablePath: process.env.SHEETSTREAM_CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  const report = {};
  try {
    const page = await browser.newPage({ acceptDownloads: true });
    const csp = [];
    page.on("console", m => { if (m.text().includes("Content Security Policy")) csp.push(m.text()); });
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", e => console.log("Content Security Policy violation: " + e.violatedDirective + " " + e.blockedURI));
    });
    let reloads = 0;
    page.on("load", () => reloads++);
    await page.goto(url);
    const section = page.locator("#export-items");
    await section.waitFor();
    await section.locator("input[name=from]").fill("4996");
    await section.locator("button.background").click();
    // The list shows the job and updates itself, without a reload.
    const row = page.locator("#jobs tr.job").first();
    await row.waitFor();
    report.firstState = await row.locator("td.state").textContent();
    await page.locator("#jobs tr.job.done").first().waitFor({ timeout: 20000 });
    report.state = await row.locator("td.state").textContent();
    report.rows = await row.locator("td.number").textContent();
    report.params = await row.locator("td").nth(1).textContent();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      row.locator("button.job-download").click(),
    ]);
    report.filename = download.suggestedFilename();
    report.saved = outDir + "/" + report.filename;
    await download.saveAs(report.saved);
    report.reloads = reloads;
    report.cspViolations = csp;
  } finally {
    await browser.close();
  }
  console.log(JSON.stringify(report));
})().catch(e => { console.error(e); process.exit(1); });
