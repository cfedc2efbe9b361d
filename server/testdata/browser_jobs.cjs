// Drives the page's background exports in headless Chromium
// (playwright-core): run an export in the background, watch the Recent
// exports list update itself to done, download the file from it.
// Usage: node browser_jobs.cjs URL OUTDIR. Prints a JSON report.
const { launch, newPage } = require("./launch.cjs");

(async () => {
  const [url, outDir] = process.argv.slice(2);
  const browser = await launch();
  const report = {};
  try {
    const csp = [];
    const page = await newPage(browser, csp);
    let reloads = 0;
    page.on("load", () => reloads++);
    await page.goto(url);
    const section = page.locator("#export-items");
    await section.waitFor();
    await section.locator("input[name=from]").fill("4996");
    await section.locator("select[name=kind]").selectOption("a");
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
