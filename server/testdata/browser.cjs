// Drives the service's web page in headless Chromium (playwright-core):
// fill a parameter, preview, download. Usage: node browser.cjs URL OUTDIR.
// Prints a JSON report; exits non-zero on any failure.
const { launch } = require("./launch.cjs");

(async () => {
  const [url, outDir] = process.argv.slice(2);
  const browser = await launch();
  const report = {};
  try {
    const page = await browser.newPage({ acceptDownloads: true });
    const failed = [];
    // Playwright reports a fetch() whose response says "Content-Disposition:
    // attachment" as aborted even though the page read it whole (the page
    // checks the byte count); every other failure counts.
    page.on("requestfailed", r => {
      const why = (r.failure() || {}).errorText;
      if (!(r.url().includes("/exports/") && why === "net::ERR_ABORTED")) failed.push(r.url() + " " + why);
    });
    // The page runs under the service's Content-Security-Policy: anything
    // it blocks (an inline script or style, a request elsewhere) counts.
    const csp = [];
    page.on("console", m => { if (m.text().includes("Content Security Policy")) csp.push(m.text()); });
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", e => console.log("Content Security Policy violation: " + e.violatedDirective + " " + e.blockedURI));
    });
    const response = await page.goto(url);
    report.csp = (await response.allHeaders())["content-security-policy"] || "";
    const section = page.locator("#export-items");
    await section.waitFor();
    report.title = await section.locator("h2").textContent();
    await section.locator("input[name=from]").fill("4998");
    // The optional kind starts at "(all)": every kind's rows.
    report.kindDefault = await section.locator("select[name=kind]").inputValue();
    report.kindOptions = await section.locator("select[name=kind] option").allTextContents();
    await section.locator("button.preview-button").click();
    await section.locator("table tbody tr").first().waitFor();
    report.previewAllRows = await section.locator("table tbody tr").count();
    await section.locator("select[name=kind]").selectOption("a");
    await section.locator("button.preview-button").click();
    await page.waitForFunction(() => document.querySelectorAll("#export-items table tbody tr").length === 2);
    report.previewRows = await section.locator("table tbody tr").count();
    report.headerTypes = await section.locator("table thead th .type").allTextContents();
    report.firstRow = await section.locator("table tbody tr").first().locator("td").allTextContents();
    report.numberAlign = await section.locator("table tbody tr td.number").first().evaluate(e => getComputedStyle(e).textAlign);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      section.locator("button.download").click(),
    ]);
    report.filename = download.suggestedFilename();
    report.saved = outDir + "/" + report.filename;
    await download.saveAs(report.saved);
    await section.locator(".status", { hasText: "Done" }).waitFor();
    report.status = await section.locator(".status").textContent();
    report.bytes = Number(await section.locator(".status").getAttribute("data-bytes"));
    report.failedRequests = failed;
    report.cspViolations = csp;
  } finally {
    await browser.close();
  }
  console.log(JSON.stringify(report));
})().catch(e => { console.error(e); process.exit(1); });
