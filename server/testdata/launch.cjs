// What the page's browser tests share: Chromium started as this machine
// allows it (headless, no sandbox as root, no background networking,
// which the closed network refuses), and a page that records
// Content-Security-Policy violations.
const { chromium } = require("playwright-core");

exports.launch = () => chromium.launch({
  executablePath: process.env.SHEETSTREAM_CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});

// newPage opens a page that accepts downloads; violations collects the
// Content-Security-Policy violations it reports.
exports.newPage = async (browser, violations) => {
  const page = await browser.newPage({ acceptDownloads: true });
  page.on("console", m => { if (m.text().includes("Content Security Policy")) violations.push(m.text()); });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", e => console.log("Content Security Policy violation: " + e.violatedDirective + " " + e.blockedURI));
  });
  return page;
};
