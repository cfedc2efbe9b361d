// Drives the page's login through Keycloak in headless Chromium
// (playwright-core): the page sends the browser to Keycloak's login form,
// alice logs in there, sees only the exports her group is allowed,
// downloads one, runs one in the background (a POST with the session's
// CSRF token), and logs out, which ends her session at Keycloak too.
// Usage: node browser_login.cjs URL OUTDIR. Prints a JSON report.
const { launch, newPage } = require("./launch.cjs");

(async () => {
  const [url, outDir] = process.argv.slice(2);
  const browser = await launch();
  const report = {};
  try {
    const csp = [];
    const page = await newPage(browser, csp);
    await page.goto(url);
    // Keycloak's own login form.
    await page.locator("#username").waitFor();
    report.loginPage = new URL(page.url()).pathname;
    await page.fill("#username", "alice");
    await page.fill("#password", "alice-password");
    await page.click("#kc-login");
    await page.locator("#me-name").waitFor();
    report.backAt = page.url();
    report.me = await page.locator("#me-name").textContent();
    await page.locator("section.export").first().waitFor();
    report.exports = await page.locator("section.export").evaluateAll(els => els.map(e => e.id.replace(/^export-/, "")));
    const section = page.locator("#export-my-sales");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      section.locator("button.download").click(),
    ]);
    report.filename = download.suggestedFilename();
    report.saved = outDir + "/" + report.filename;
    await download.saveAs(report.saved);
    const [csv] = await Promise.all([
      page.waitForEvent("download"),
      section.locator("button.download-csv").click(),
    ]);
    report.csvName = csv.suggestedFilename();
    report.csvSaved = outDir + "/" + report.csvName;
    await csv.saveAs(report.csvSaved);
    await section.locator("button.background").click();
    await page.locator("#jobs tr.job.done").first().waitFor({ timeout: 20000 });
    report.jobState = await page.locator("#jobs tr.job td.state").first().textContent();
    report.cookies = (await page.context().cookies(url)).map(c => ({ name: c.name, httpOnly: c.httpOnly, sameSite: c.sameSite }));
    await page.click("#logout");
    // Logged out here and at Keycloak: back to its login form.
    await page.locator("#username").waitFor();
    report.afterLogout = new URL(page.url()).pathname;
    report.cookiesAfter = (await page.context().cookies(url)).map(c => c.name);
    await page.goto(url);
    await page.locator("#username").waitFor();
    report.revisit = new URL(page.url()).pathname;
    report.cspViolations = csp;
  } finally {
    await browser.close();
  }
  console.log(JSON.stringify(report));
})().catch(e => { console.error(e); process.exit(1); });
