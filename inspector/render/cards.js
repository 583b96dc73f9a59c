// Cards of the timeline: one message as a card (its role, text, finding marks, call and result
// chips), a ghost card where a missing result should be, and the header's pager (page N of M).
// Shared by the timeline (timeline.js) and the Compare view (compare.js): each component's script is this file followed by its own
// (inspector/render/__init__.py, ``script``).
//
// Everything from the transcript is untrusted: it enters the page only through textContent, or
// setAttribute on data-* attributes. No innerHTML anywhere.

const fmt = (n) => Number(n).toLocaleString("en-US");

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function num(x) {
  // Attributes that carry indexes are built from numbers only.
  const n = Number(x);
  return Number.isFinite(n) ? String(Math.trunc(n)) : "";
}

function chip(kind, id, name, pos, extra, arg, other) {
  const c = el("div", "chip " + kind + (extra ? " " + extra : ""));
  c.setAttribute("data-pos", num(pos));
  if (other !== undefined && other !== null && other >= 0) c.setAttribute("data-goto", num(other));
  c.appendChild(el("span", "chip-icon", kind === "call" ? "\u2192" : "\u21a9"));
  c.appendChild(el("span", "chip-name", name || "(no name)"));
  if (arg) c.appendChild(el("span", "chip-arg", arg));
  c.appendChild(el("span", "chip-id", id || "(no id)"));
  if (extra && extra.indexOf("failed") >= 0) c.appendChild(el("span", "chip-err", "tool error"));
  c.title = other !== undefined && other !== null && other >= 0
    ? (kind === "call" ? "Go to its result, #" : "Go back to the call, #") + num(other) : (id || "");
  return c;
}

// A page's rows (call and result chips, finding marks, overview slices) arrive as arrays; the
// page's shapes name their fields, from the NamedTuples in inspector/render/layout.py (CallChip,
// ResultChip, Mark, Bucket). rows() gives each row as an object with those names.
let SHAPES = { call: [], result: [], mark: [], bucket: [] };

function rows(kind, list) {
  const names = SHAPES[kind];
  return list.map((r) => Object.fromEntries(names.map((k, j) => [k, r[j]])));
}

function buildCard(it, selected) {
  const card = el("div", "card role-" + (/^[a-z]+$/.test(it.role) ? it.role : "other"));
  if (it.sev) card.classList.add("sev-" + it.sev);
  const results = rows("result", it.results);
  const failed = results.some((r) => r.failed);
  if (failed) card.classList.add("tool-error");
  if (results.some((r) => r.orphan)) card.classList.add("orphan"); // not the "answered" green stripe
  if (it.i === selected) card.classList.add("selected");
  card.setAttribute("data-msg-index", num(it.i));
  card.setAttribute("data-role", it.role);
  const head = el("div", "card-head");
  head.appendChild(el("span", "idx", "#" + num(it.i)));
  head.appendChild(el("span", "role", it.role));
  if (it.meta) head.appendChild(el("span", "meta", it.meta));
  const marks = el("span", "marks");
  for (const { code, sev } of rows("mark", it.marks)) {
    const m = el("span", "mark sev-" + sev, code);
    m.setAttribute("data-finding", code);
    m.title = code + " (" + sev + ")";
    marks.appendChild(m);
  }
  if (failed) {
    const m = el("span", "mark exec-error", "tool error");
    m.title = "The tool reported an error when it ran (is_error / status error / error field)";
    marks.appendChild(m);
  }
  head.appendChild(marks);
  card.appendChild(head);
  if (it.text) card.appendChild(el("div", "card-text", it.text));
  else if (!it.calls.length && !it.results.length) card.appendChild(el("div", "card-text muted", "(no text)"));
  if (it.calls.length || it.results.length) {
    const chips = el("div", "chips");
    for (const { id, name, pos, arg, result_at } of rows("call", it.calls)) {
      chips.appendChild(chip("call", id, name, pos, "", arg, result_at));
    }
    for (const { id, name, pos, orphan, failed, call_at } of results) {
      const extra = (orphan ? "orphan" : "") + (failed ? " failed" : "");
      chips.appendChild(chip("result", id, name, pos, extra.trim(), "", call_at));
    }
    card.appendChild(chips);
  }
  return card;
}

function buildGhost(it) {
  const g = el("div", "card ghost st-" + it.status);
  g.setAttribute("data-ghost-for", it.id);
  g.setAttribute("data-call-index", num(it.call));
  const head = el("div", "card-head");
  head.appendChild(el("span", "idx", "\u2205"));
  head.appendChild(el("span", "role", it.status === "pending" ? "pending result" : "missing result"));
  g.appendChild(head);
  const t = el("div", "card-text");
  t.appendChild(el("span", "", "No result for "));
  t.appendChild(el("span", "mono", it.name || "(no name)"));
  t.appendChild(el("span", "", " "));
  t.appendChild(el("span", "mono", it.id || "(no id)"));
  t.appendChild(el("span", "", " called in #" + num(it.call) + (it.status === "pending" ? " (the log ends here)" : "")));
  g.appendChild(t);
  return g;
}

function pager(data, setTriggerValue, back, forward) {
  // The page buttons of a header: back (its text), "page N of M", forward; a click sends the
  // "page" trigger (0-based), and a button with no page to go to is disabled.
  const nav = el("span", "tl-nav");
  const prev = el("button", "tl-btn", back);
  const next = el("button", "tl-btn", forward);
  prev.disabled = data.page <= 0;
  next.disabled = data.page >= data.pages - 1;
  prev.setAttribute("data-nav", "prev");
  next.setAttribute("data-nav", "next");
  prev.onclick = () => setTriggerValue("page", data.page - 1);
  next.onclick = () => setTriggerValue("page", data.page + 1);
  nav.appendChild(prev);
  nav.appendChild(el("span", "tl-page", `page ${fmt(data.page + 1)} of ${fmt(data.pages)}`));
  nav.appendChild(next);
  return nav;
}
