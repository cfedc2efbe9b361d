"use strict";
const $ = (sel, el = document) => el.querySelector(sel);
const el = (tag, props = {}, ...kids) => {
  const e = Object.assign(document.createElement(tag), props);
  for (const k of kids) e.append(k);
  return e;
};
// A token typed into the page goes in the Authorization header; a login
// through the issuer is a session cookie, whose CSRF token goes on every
// request (the service checks it on those that change something).
let csrfToken = "";
const headers = () => {
  const t = sessionStorage.getItem("sheetstream-token");
  const h = t ? { Authorization: "Bearer " + t } : {};
  if (csrfToken) h["X-CSRF-Token"] = csrfToken;
  return h;
};
$("#auth").addEventListener("submit", ev => {
  ev.preventDefault();
  sessionStorage.setItem("sheetstream-token", $("#token").value);
  load();
});

async function errorText(resp) {
  try { return (await resp.json()).error || resp.statusText; } catch { return resp.statusText; }
}

function fmtBytes(n) {
  if (n < 1024) return n + " B";
  if (n < 1 << 20) return (n / 1024).toFixed(1) + " KiB";
  return (n / (1 << 20)).toFixed(1) + " MiB";
}

function input(p) {
  let field;
  const attrs = { name: p.name, required: p.required && !p.default };
  if (p.choices && p.choices.length) {
    // An optional parameter may be left out: "(all)", the empty choice,
    // comes first and is chosen unless the parameter has a default.
    const all = p.required ? [] : [el("option", { value: "", textContent: "(all)" })];
    field = el("select", attrs, ...all, ...p.choices.map(c => el("option", { value: c, textContent: c })));
    field.value = p.default || (p.required ? p.choices[0] : "");
  } else if (p.type === "bool") {
    field = el("select", attrs, el("option", { value: "", textContent: "—" }),
      el("option", { value: "true", textContent: "true" }), el("option", { value: "false", textContent: "false" }));
    field.value = p.default || "";
  } else {
    const type = { int: "number", float: "number", date: "date", datetime: "datetime-local" }[p.type] || "text";
    field = el("input", Object.assign(attrs, { type, value: p.default || "" }));
    if (p.type === "float") field.step = "any";
    if (p.type === "datetime") field.step = "1";
  }
  return el("label", { title: p.description || "" }, p.name + (p.required ? " *" : ""), field);
}

function query(form) {
  const q = new URLSearchParams();
  for (const [k, v] of new FormData(form)) if (v !== "") q.set(k, v);
  return q;
}

function cellText(c) {
  if (c.type === "date") return c.value.replace("T", " ").replace(/ 00:00:00$/, "");
  if (c.type === "bool") return c.value ? "TRUE" : "FALSE";
  // Numbers as Excel shows them: 15 significant digits (3899.97, not
  // 3899.9700000000003); the CSV download keeps the exact shortest form.
  if (c.type === "number") return c.value.toLocaleString(undefined, { maximumSignificantDigits: 15 });
  return String(c.value) + (c.cut ? "…" : "");
}

async function preview(exp, form, box, status) {
  status.className = "status";
  status.textContent = "Loading preview…";
  const q = query(form);
  q.set("limit", "50");
  const which = form.querySelector("select.sheet");
  if (which) q.set("sheet", which.value);
  const resp = await fetch(`api/exports/${encodeURIComponent(exp.name)}/preview?${q}`, { headers: headers() });
  if (!resp.ok) {
    status.className = "status error";
    status.textContent = await errorText(resp);
    return;
  }
  const data = await resp.json();
  const types = data.columns.map((_, i) => (data.rows.find(r => r[i]) || [])[i]?.type || "empty");
  const table = el("table", { className: "preview-table" },
    el("thead", {}, el("tr", {}, ...data.columns.map((c, i) =>
      el("th", {}, c, el("span", { className: "type", textContent: types[i] }))))),
    el("tbody", {}, ...data.rows.map(r => el("tr", {}, ...data.columns.map((_, i) => {
      const c = r[i];
      return c ? el("td", { className: c.type, textContent: cellText(c), title: c.type })
               : el("td", { className: "empty" });
    })))));
  box.replaceChildren(table);
  status.textContent = `${data.rows.length} row${data.rows.length === 1 ? "" : "s"} of sheet “${data.sheet}”` +
    (data.truncated ? " (the preview stops here: its rows are large; the download has them all)" : "");
}

async function download(exp, form, status, button, ext = "xlsx") {
  status.className = "status";
  status.textContent = "Starting…";
  button.disabled = true;
  try {
    const resp = await fetch(`exports/${encodeURIComponent(exp.name)}.${ext}?${query(form)}`, { headers: headers() });
    if (!resp.ok) throw new Error(await errorText(resp));
    const reader = resp.body.getReader();
    const chunks = [];
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.length;
      status.textContent = `Received ${fmtBytes(received)}…`;
    }
    const blob = new Blob(chunks, { type: resp.headers.get("Content-Type") });
    const a = el("a", { href: URL.createObjectURL(blob), download: `${exp.name}.${ext}` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 60000);
    status.textContent = `Done: ${exp.name}.${ext}, ${fmtBytes(received)}`;
    status.dataset.bytes = String(received);
  } catch (e) {
    status.className = "status error";
    status.textContent = "Download failed: " + (e.message || e);
  } finally {
    button.disabled = false;
  }
}

// Background exports: submit, then follow them in the "Recent exports"
// list, which refreshes itself while any is queued or running.
let jobsTimer = null;

async function runInBackground(exp, form, status) {
  status.className = "status";
  const resp = await fetch(`api/exports/${encodeURIComponent(exp.name)}/jobs?${query(form)}`,
    { method: "POST", headers: headers() });
  if (!resp.ok) {
    status.className = "status error";
    status.textContent = "Could not start: " + await errorText(resp);
    return;
  }
  status.textContent = "Running in the background: see Recent exports below.";
  refreshJobs();
}

async function fetchJobFile(job, status) {
  const link = await fetch(`api/jobs/${job.id}/file?link`, { headers: headers() });
  if (!link.ok) { status.textContent = await errorText(link); return; }
  const { url } = await link.json();
  if (url) { window.location.assign(url); return; }   // a signed link to the store
  const resp = await fetch(`api/jobs/${job.id}/file`, { headers: headers() });
  if (!resp.ok) { status.textContent = await errorText(resp); return; }
  const blob = await resp.blob();
  const a = el("a", { href: URL.createObjectURL(blob), download: job.file });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60000);
}

async function refreshJobs() {
  clearTimeout(jobsTimer);
  const section = $("#jobs");
  const resp = await fetch("api/jobs?limit=10", { headers: headers() });
  if (!resp.ok) return;
  const { jobs } = await resp.json();
  section.hidden = jobs.length === 0;
  $("tbody", section).replaceChildren(...jobs.map(job => {
    const params = Object.entries(job.params).map(([k, v]) => `${k}=${v}`).join(", ");
    const cell = el("td");
    if (job.state === "done") {
      const b = el("button", { type: "button", className: "secondary job-download", textContent: `Download ${job.file}` });
      b.addEventListener("click", () => fetchJobFile(job, cell));
      cell.append(b);
    } else if (job.state === "queued" || job.state === "running") {
      const b = el("button", { type: "button", className: "secondary job-cancel", textContent: "Cancel" });
      b.addEventListener("click", async () => {
        await fetch(`api/jobs/${job.id}`, { method: "DELETE", headers: headers() });
        refreshJobs();
      });
      cell.append(b);
    } else if (job.error) {
      cell.textContent = job.error;
    }
    return el("tr", { className: "job " + job.state, id: "job-" + job.id },
      el("td", { textContent: job.export }), el("td", { textContent: params }),
      el("td", { className: "state", textContent: job.state }),
      el("td", { className: "number", textContent: job.rows ? job.rows.toLocaleString() : "" }),
      el("td", { textContent: job.started ? new Date(job.started).toLocaleTimeString() : "" }), cell);
  }));
  if (jobs.some(j => j.state === "queued" || j.state === "running")) jobsTimer = setTimeout(refreshJobs, 1000);
}

// refreshSchedules lists the schedules and, under each that mails, its
// latest deliveries (admins only: others are answered 404 and see none).
let schedulesTimer;
async function refreshSchedules() {
  clearTimeout(schedulesTimer);
  const section = $("#schedules");
  const resp = await fetch("api/schedules", { headers: headers() });
  if (!resp.ok) return;
  const { schedules } = await resp.json();
  section.hidden = schedules.length === 0;
  $(".list", section).replaceChildren(...schedules.map(sc => {
    const rows = sc.mails.map(m => el("tr", { className: "mail " + m.state },
      el("td", { textContent: m.to }), el("td", { className: "state", textContent: m.state }),
      el("td", { textContent: new Date(m.finished || m.created).toLocaleString() }),
      el("td", { textContent: m.error || "" })));
    const table = rows.length ? [el("table", {}, el("thead", {}, el("tr", {}, ...["Recipient", "State", "When", ""].map(h => el("th", { textContent: h })))),
      el("tbody", {}, ...rows))] : [];
    return el("div", { className: "schedule", id: "schedule-" + sc.name },
      el("h3", { textContent: `${sc.name}: ${sc.export}, ${sc.when}` + (sc.recipients ? `, mailed to ${sc.recipients}` : "") }), ...table);
  }));
  if (schedules.length) schedulesTimer = setTimeout(refreshSchedules, 5000);
}

// whoAmI shows who the page is signed in as, with a way out.
async function whoAmI() {
  const resp = await fetch("api/session", { headers: headers() });
  if (!resp.ok) return;
  const me = await resp.json();
  csrfToken = me.csrf_token || "";
  if (!me.logout) return;
  const out = el("button", { type: "button", className: "secondary", id: "logout", textContent: "Log out" });
  out.addEventListener("click", async () => {
    const r = await fetch("auth/logout", { method: "POST", headers: headers() });
    if (!r.ok) { $("#exports").textContent = await errorText(r); return; }
    const { logout_url } = await r.json();
    window.location.assign(logout_url);
  });
  $("#me").replaceChildren(el("span", { id: "me-name", textContent: "Signed in as " + (me.email || me.subject) }), out);
  $("#me").hidden = false;
}

async function load() {
  await whoAmI();
  const list = $("#exports");
  const resp = await fetch("api/exports", { headers: headers() });
  if (resp.status === 401) {
    // A service behind a login: the session ended; log in again.
    const body = await resp.clone().json().catch(() => ({}));
    if (body.login) { window.location.assign(body.login + "?next=" + encodeURIComponent(window.location.pathname)); return; }
    $("#auth").style.display = "flex";
    list.textContent = "This service needs an access token.";
    return;
  }
  if (!resp.ok) {
    list.textContent = await errorText(resp);
    return;
  }
  $("#auth").style.display = "none";
  const { exports, jobs } = await resp.json();
  list.replaceChildren(...exports.map(exp => {
    const status = el("div", { className: "status", role: "status" });
    const box = el("div", { className: "preview" });
    const dl = el("button", { type: "submit", textContent: "Download .xlsx", className: "download" });
    const pv = el("button", { type: "button", textContent: "Preview", className: "secondary preview-button" });
    const bg = el("button", { type: "button", textContent: "Run in background", className: "secondary background" });
    // Several sheets: the preview shows the one picked.
    const pick = exp.sheets.length > 1 ? [el("label", {}, "Preview sheet",
      el("select", { className: "sheet" }, ...exp.sheets.map((s, i) => el("option", { value: String(i + 1), textContent: s.name }))))] : [];
    // A CSV holds one sheet: offered for exports of one, unencrypted.
    const csv = exp.sheets.length === 1 && !exp.encrypted ?
      [el("button", { type: "button", textContent: "Download .csv", className: "secondary download-csv" })] : [];
    // An encrypted export has no preview (its rows leave only encrypted).
    const previewing = exp.preview === false ? [] : [...pick, pv];
    const form = el("form", {}, ...(exp.params || []).map(input), ...previewing, dl, ...csv, ...(jobs ? [bg] : []));
    if (csv.length) csv[0].addEventListener("click", () => { if (form.reportValidity()) download(exp, form, status, csv[0], "csv"); });
    form.addEventListener("submit", ev => { ev.preventDefault(); download(exp, form, status, dl); });
    bg.addEventListener("click", () => { if (form.reportValidity()) runInBackground(exp, form, status); });
    pv.addEventListener("click", () => { if (form.reportValidity()) preview(exp, form, box, status); });
    const sheets = exp.sheets.map(s => s.name + (s.charts && s.charts.length ? ` (${s.charts.length} chart${s.charts.length > 1 ? "s" : ""}: ${s.charts.join("; ")})` : "") +
      (s.pivots && s.pivots.length ? ` (pivot table${s.pivots.length > 1 ? "s" : ""}: ${s.pivots.join("; ")})` : "")).join(", ");
    return el("section", { className: "export", id: "export-" + exp.name },
      el("h2", { textContent: exp.title }),
      el("p", { textContent: (exp.description || "") + (sheets ? ` Sheets: ${sheets}.` : "") + (exp.template ? ` Filled into the designed workbook ${exp.template}.` : "") + (exp.encrypted ? " The file is password-protected." : "") + (exp.provenance ? " Its last sheet says where the rows came from." : "") }),
      form, status, box);
  }));
  if (jobs) { refreshJobs(); refreshSchedules(); }
}
load();
