// Shows the page's Schedules section in headless Chromium
// (playwright-core): a schedule that mails, and its deliveries listed
// under it as they are sent, without a reload.
// Usage: node browser_schedules.cjs URL OUTDIR. Prints a JSON report.
const { launch, newPage } = require("./launch.cjs");

(async () => {
  const [url] = process.argv.slice(2);
  const browser = await launch();
  const report = {};
  try {
    const csp = [];
    const page = await newPage(browser, csp);
    await page.goto(url);
    const section = page.locator("#schedules");
    await section.waitFor();
    report.heading = await section.locator(".schedule h3").first().textContent();
    const row = section.locator("tr.mail.sent").first();
    await row.waitFor({ timeout: 20000 });
    report.to = await row.locator("td").first().textContent();
    report.state = await row.locator("td.state").textContent();
    report.cspViolations = csp;
  } finally {
    await browser.close();
  }
  console.log(JSON.stringify(report));
})().catch(e => { console.error(e); process.exit(1); });
