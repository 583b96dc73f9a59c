// Timeline of a transcript: one card per message, a connector from each tool call to its result.
//
// Streamlit components v2 module. Everything from the transcript (roles, text, names, ids) is
// untrusted: it enters the page only through textContent, or setAttribute on data-* attributes.
// No innerHTML anywhere; SVG path geometry is built from numbers measured in the page.
//
// Data (from inspector/render/layout.py TimelineModel.page, plus inspector/ui/timeline.py):
// items (cards and ghost cards), links (with lane and, for ends on another page, a stub),
// overview buckets, shapes (the field names of the array rows: rows()), selected, focus; fi (every message with a finding, in order), search
// ({q, matches, count, list}) and keep (the filters' verdict: null, or the kept messages of the
// page and the nearest kept ones beyond it).
// Events sent back: trigger "select" (a message index), "jump" (a message index, maybe on
// another page), "page" (0-based page number), "search" (the query text), "only" (the "only
// matches" switch: true / false).
//
// Keys (on the timeline, or anywhere on the page when nothing else has focus): j/k or arrows
// step, Home/End, n/p next/previous finding, / search, Enter/Shift+Enter next/previous match,
// g "go to #N", ? the list of keys. Every jump brings the whole card (its top when it is taller
// than the view), the search bar and the detail pane's heading into the browser's view (reveal). A held key moves the selection at once; Python hears only where it
// settles (SETTLE_MS), so the detail pane follows without a queue of server runs.

const SVGNS = "http://www.w3.org/2000/svg";
const LANE = 11; // px between connector lanes
const GAP = 12; // px between a card's right edge and the first lane
const STATUS_TEXT = {
  ok: "answered",
  displaced: "displaced",
  early: "before its call",
  duplicate: "duplicate",
  missing: "missing",
  pending: "pending",
};
const LEGEND = ["ok", "displaced", "early", "duplicate", "missing", "pending"];
const SETTLE_MS = 140; // key steps: tell Python once the selection has rested this long
const KEYS_HELP = [
  ["j / \u2193", "next message"], ["k / \u2191", "previous message"], ["Home / End", "first / last message"],
  ["n / p", "next / previous finding"], ["/", "search"], ["Enter / Shift+Enter", "next / previous match"],
  ["g", "go to message #N"], ["f", "follow the call to its result, and back"],
  ["Tab, Enter", "go to a chip, follow it"],
  ["click a \u2192 chip", "go to its result"], ["click a \u21a9 chip", "go back to the call"],
  ["click a connector", "go to its other end"], ["?", "show or hide these keys"], ["Esc", "close"],
];

function lowerBound(arr, x) {
  // First position in the sorted array `arr` whose value is >= x.
  let lo = 0, hi = arr.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (arr[mid] < x) lo = mid + 1; else hi = mid; }
  return lo;
}

function after(arr, x) { const k = lowerBound(arr, x + 1); return k < arr.length ? arr[k] : null; }
function before(arr, x) { const k = lowerBound(arr, x) - 1; return k >= 0 ? arr[k] : null; }

function svg(tag, attrs) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, String(attrs[k]));
  return e;
}

function roundedPath(x0, y1, lx, y2, x1) {
  // From (x0,y1) right to lane x, along the lane to y2, back left to x1, with rounded corners.
  const dy = y2 - y1;
  const s = dy >= 0 ? 1 : -1;
  const r = Math.min(6, Math.abs(dy) / 2, Math.max(0, lx - Math.max(x0, x1)));
  if (r < 1) return `M${x0} ${y1} H${lx} V${y2} H${x1}`;
  return (
    `M${x0} ${y1} H${lx - r} Q${lx} ${y1} ${lx} ${y1 + s * r} ` +
    `V${y2 - s * r} Q${lx} ${y2} ${lx - r} ${y2} H${x1}`
  );
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (!data || !parentElement) return;
  if (data.shapes) SHAPES = data.shapes;
  const state = parentElement.__tl || (parentElement.__tl = {
    focus: null, scroll: 0, clicked: null, page: null, lastKey: 0, pendingJump: null, help: false,
  });
  const shadow = parentElement.getRootNode();
  const old = parentElement.querySelector(".tl");
  // Keep the keyboard where it was: a redraw (a page change while j is held, a search) must not
  // drop focus to the page body.
  const active = shadow && shadow.activeElement;
  const hadFocus = !!(old && active && old.contains(active)) || Date.now() - state.lastKey < 1500;
  const searchHadFocus = !!(active && active.classList && active.classList.contains("tl-search"));
  if (old) old.remove();
  const wasPending = state.pendingJump !== null;
  state.pendingJump = null;
  const queued = wasPending ? state.queued || 0 : 0; // steps pressed while the page was turning
  state.queued = 0;
  if (state.settle) { clearTimeout(state.settle); state.settle = null; }
  // Python moves the view (a jump, a page) by changing `focus`; otherwise a card the user
  // clicked here stays selected across redraws.
  const moved = data.focus !== state.focus;
  if (moved) state.clicked = null;
  const selected = !moved && state.clicked !== null ? state.clicked : data.selected;
  const fi = data.fi || [];
  const search = data.search || { q: "", matches: [], count: 0, list: [] };
  const matches = search.matches || [];
  const matchSet = new Set(matches);
  const keep = data.keep || null;
  const keepSet = keep ? new Set(keep.page) : null;

  const root = el("div", "tl");
  root.setAttribute("data-testid", "timeline");
  root.tabIndex = 0;

  // Header: where we are, paging, search, legend.
  const head = el("div", "tl-head");
  const where = el("div", "tl-where");
  const shown = data.end > data.start ? `#${fmt(data.start)}\u2013#${fmt(data.end - 1)}` : "none";
  where.appendChild(el("span", "tl-range", `Messages ${shown} of ${fmt(data.total)}`));
  where.appendChild(pager(data, setTriggerValue, "\u2039 Prev", "Next \u203a"));
  const fnav = el("span", "tl-nav");
  const pf = el("button", "tl-btn", "\u2039 finding");
  const nf = el("button", "tl-btn", "finding \u203a");
  pf.setAttribute("data-nav", "prev-finding");
  nf.setAttribute("data-nav", "next-finding");
  pf.title = "Previous finding (p)";
  nf.title = "Next finding (n)";
  pf.disabled = nf.disabled = !fi.length;
  pf.onclick = (e) => { e.stopPropagation(); stepFinding(-1); };
  nf.onclick = (e) => { e.stopPropagation(); stepFinding(1); };
  fnav.appendChild(pf);
  fnav.appendChild(el("span", "tl-page", `${fmt(fi.length)} with findings`));
  fnav.appendChild(nf);
  where.appendChild(fnav);
  const gotoBox = el("label", "tl-goto");
  gotoBox.appendChild(el("span", "", "Go to #"));
  const gotoIn = el("input", "tl-goto-in");
  gotoIn.type = "number";
  gotoIn.min = "0";
  gotoIn.max = String(Math.max(0, data.total - 1));
  gotoIn.setAttribute("aria-label", "Go to message number");
  gotoIn.title = "Go to message #N (g)";
  gotoBox.appendChild(gotoIn);
  where.appendChild(gotoBox);
  if (keep) where.appendChild(el("span", "tl-filtered", `filtered: ${fmt(keep.total)} shown`));
  const helpBtn = el("button", "tl-btn", "?");
  helpBtn.title = "Keys";
  helpBtn.setAttribute("data-nav", "help");
  helpBtn.onclick = (e) => { e.stopPropagation(); toggleHelp(); };
  where.appendChild(helpBtn);
  // How the cards are drawn: compact (one line per message) and turns folded into one row.
  const view = el("span", "tl-nav tl-view");
  const compactBtn = el("button", "tl-btn tl-toggle", "Compact");
  compactBtn.setAttribute("data-nav", "compact");
  compactBtn.title = "One line per message (the call \u2192 result connectors stay)";
  const foldBtn = el("button", "tl-btn tl-toggle", "Fold turns");
  foldBtn.setAttribute("data-nav", "fold");
  foldBtn.title = "Fold each turn (a message with its calls and their results) into one row; click a row to open it";
  view.appendChild(compactBtn);
  view.appendChild(foldBtn);
  where.appendChild(view);
  head.appendChild(where);

  const sbar = el("div", "tl-searchbar");
  const input = el("input", "tl-search");
  input.type = "search";
  input.placeholder = "Search text, tool, id, role:user \u2026 ( / )"; // whole at 1280 px
  input.value = search.q || "";
  input.setAttribute("aria-label", "Search the transcript");
  sbar.appendChild(input);
  const count = el("span", "tl-count");
  count.setAttribute("data-testid", "search-count");
  if (search.q) {
    const cur = selected !== null && selected !== undefined ? matches.indexOf(selected) : -1;
    count.textContent = search.count
      ? (cur >= 0 ? `${fmt(cur + 1)} of ${fmt(search.count)}` : `${fmt(search.count)} match${search.count > 1 ? "es" : ""}`)
      : "no match";
  }
  sbar.appendChild(count);
  const pm = el("button", "tl-btn", "\u2191");
  const nm = el("button", "tl-btn", "\u2193");
  pm.title = "Previous match (Shift+Enter)";
  nm.title = "Next match (Enter)";
  pm.setAttribute("data-nav", "prev-match");
  nm.setAttribute("data-nav", "next-match");
  pm.disabled = nm.disabled = !matches.length;
  pm.onclick = (e) => { e.stopPropagation(); stepMatch(-1); };
  nm.onclick = (e) => { e.stopPropagation(); stepMatch(1); };
  sbar.appendChild(pm);
  sbar.appendChild(nm);
  const onlyBox = el("label", "tl-only");
  const only = el("input");
  only.type = "checkbox";
  only.checked = !!search.only;
  only.disabled = !search.q;
  only.setAttribute("data-nav", "only-matches");
  only.onchange = () => setTriggerValue("only", only.checked);
  onlyBox.appendChild(only);
  onlyBox.appendChild(el("span", "", "only matches"));
  onlyBox.title = "Hide every message the search does not match";
  sbar.appendChild(onlyBox);
  head.appendChild(sbar);
  const matchButtons = new Map();
  let list = null;
  if (search.q && search.list && search.list.length) {
    list = el("div", "tl-matches");
    list.setAttribute("data-testid", "search-matches");
    const from = search.listed_from || 0;
    if (from > 0) list.appendChild(el("span", "tl-more", `\u2026 ${fmt(from)} earlier (Shift+Enter steps back)`));
    for (const [i, role, label] of search.list) {
      const b = el("button", "tl-match");
      b.setAttribute("data-match", num(i));
      b.appendChild(el("span", "idx", "#" + fmt(i)));
      b.appendChild(el("span", "role", role));
      b.appendChild(el("span", "tl-match-text", label));
      b.onclick = (e) => { e.stopPropagation(); goTo(i, "center"); };
      matchButtons.set(i, b);
      list.appendChild(b);
    }
    const later = search.count - from - search.list.length;
    if (later > 0) list.appendChild(el("span", "tl-more", `\u2026 and ${fmt(later)} more (Enter steps through all)`));
    head.appendChild(list);
  }
  const legend = el("div", "tl-legend");
  for (const st of LEGEND) {
    const item = el("span", "lg st-" + st);
    item.appendChild(el("span", "sw"));
    item.appendChild(el("span", "", STATUS_TEXT[st]));
    legend.appendChild(item);
  }
  root.appendChild(head);

  const help = el("div", "tl-help");
  help.setAttribute("data-testid", "keys-help");
  for (const [k, what] of KEYS_HELP) {
    const row = el("div", "tl-help-row");
    row.appendChild(el("span", "tl-key", k));
    row.appendChild(el("span", "", what));
    help.appendChild(row);
  }
  help.hidden = !state.help;
  root.appendChild(help);

  // Overview: the whole transcript in slices coloured by their worst finding; search hits marked.
  if (data.overview && data.overview.length > 1) {
    const ov = el("div", "tl-overview");
    ov.setAttribute("data-overview", "1");
    const sev = ["", "info", "warning", "error"];
    for (const { first: a, last: z, worst, count: cnt, target } of rows("bucket", data.overview)) {
      const b = el("div", "ob" + (worst ? " sev-" + sev[worst] : ""));
      if (z >= data.start && a < data.end) b.classList.add("here");
      const k = lowerBound(matches, a);
      const hit = k < matches.length && matches[k] <= z;
      b.title = `#${fmt(a)}\u2013#${fmt(z)}: ` + (cnt ? `${fmt(cnt)} finding${cnt > 1 ? "s" : ""}` : "no findings")
        + (hit ? ", search matches" : "");
      b.setAttribute("data-first", num(a));
      if (hit) {
        b.appendChild(el("span", "ob-hit"));
        b.setAttribute("data-hit", "1");
      }
      b.onclick = () => setTriggerValue("jump", hit ? matches[k] : target);
      ov.appendChild(b);
    }
    root.appendChild(ov);
  }

  const scroller = el("div", "tl-scroll");
  const body = el("div", "tl-body");
  const gutter = GAP + Math.max(1, data.lanes) * LANE + 8;
  body.style.paddingRight = gutter + "px";
  scroller.appendChild(body);
  root.appendChild(scroller);
  root.appendChild(legend); // below the cards: above them it took the first screen's last lines

  const callChip = new Map();
  const resChip = new Map();
  const ghostCard = new Map();
  const cards = new Map();
  const order = []; // message indexes of the visible cards, in order
  const topBar = el("div", "tl-stubs top");
  const bottomBar = el("div", "tl-stubs bottom");
  body.appendChild(topBar);
  for (const it of data.items) {
    if (it.fold !== undefined) {
      // A folded run (a loop's repeated calls): one row until clicked; every message in it
      // stands here for connectors and jumps.
      const f = el("div", "card fold" + (it.sev ? " sev-" + it.sev : ""));
      f.setAttribute("data-fold", num(it.first));
      f.setAttribute("data-testid", "fold");
      f.setAttribute("role", "button");
      f.title = "Click to show every message of this run";
      const head = el("div", "card-head");
      head.appendChild(el("span", "idx", "#" + fmt(it.first) + "\u2013#" + fmt(it.last)));
      head.appendChild(el("span", "role", "loop"));
      // The rule codes of what it holds: a folded error is never hidden.
      if (it.codes) head.appendChild(el("span", "fold-codes", it.codes));
      f.appendChild(head);
      f.appendChild(el("div", "card-text fold-label", it.label));
      // Python opens the run when asked for its first message (a jump), and keeps it open.
      f.onclick = (e) => { e.stopPropagation(); setTriggerValue("jump", it.first); };
      for (let i = it.first; i <= it.last; i++) cards.set(i, f);
      if (!keepSet || keepSet.has(it.first)) order.push(it.first);
      body.appendChild(f);
      continue;
    }
    if (it.ghost !== undefined) {
      const g = buildGhost(it);
      g.onclick = () => select(it.call, false);
      if (keepSet && !keepSet.has(it.call)) g.classList.add("filtered");
      ghostCard.set(it.ghost, g);
      body.appendChild(g);
      continue;
    }
    const c = buildCard(it, selected);
    // A clicked card takes the keyboard focus (not a Tab stop itself): Tab then goes to its chips.
    c.tabIndex = -1;
    c.onclick = () => { select(it.i, false); c.focus({ preventScroll: true }); };
    if (matchSet.has(it.i)) c.classList.add("hit");
    if (keepSet && !keepSet.has(it.i)) c.classList.add("filtered");
    else order.push(it.i);
    cards.set(it.i, c);
    for (const ch of c.querySelectorAll(".chip.call")) callChip.set(it.i + ":" + ch.getAttribute("data-pos"), ch);
    for (const ch of c.querySelectorAll(".chip.result")) resChip.set(it.i + ":" + ch.getAttribute("data-pos"), ch);
    for (const ch of c.querySelectorAll(".chip[data-goto]")) {
      // A chip that leads somewhere is a button: Tab reaches it, Enter or Space follows it.
      ch.tabIndex = 0;
      ch.setAttribute("role", "button");
      ch.onclick = (e) => {
        e.stopPropagation();
        goTo(Number(ch.getAttribute("data-goto")), "center");
      };
      ch.onkeydown = (e) => {
        if (e.key !== "Enter" && e.key !== " ") return;
        e.preventDefault();
        e.stopPropagation();
        const dest = Number(ch.getAttribute("data-goto"));
        goTo(dest, "center");
        // The keyboard goes along: on the other end's chip that leads back here.
        const back = cards.get(dest) && cards.get(dest).querySelector(`.chip[data-goto="${num(it.i)}"]`);
        if (back) back.focus({ preventScroll: true });
      };
    }
    body.appendChild(c);
  }
  // Folded groups: a run of cards shown as one row that opens on click. Python names the groups
  // (layout.Fold: a turn, or another kind of group); every kind is folded the same way here.
  if (!state.open) state.open = new Set();
  const groups = [];
  const ghostAfter = new Map();
  for (const it of data.items) if (it.ghost !== undefined) ghostAfter.set(it.ghost, it.after);
  for (const { first, last, kind, label, sev, codes } of rows("fold", data.folds || [])) {
    const headCard = cards.get(first);
    if (!headCard) continue;
    const row = el("div", "fold-row" + (sev ? " sev-" + sev : ""));
    row.setAttribute("data-fold", num(first));
    row.setAttribute("data-fold-last", num(last));
    row.setAttribute("data-fold-kind", /^[a-z-]+$/.test(kind) ? kind : "group");
    row.setAttribute("role", "button");
    row.tabIndex = 0;
    const caret = el("span", "fold-caret", "\u25b8");
    row.appendChild(caret);
    row.appendChild(el("span", "idx", `#${num(first)}\u2013#${num(last)}`));
    // The rule codes of the findings inside, never cut (the label may be): a folded error is never hidden.
    if (codes) row.appendChild(el("span", "fold-codes", codes));
    row.appendChild(el("span", "fold-label", label));
    row.appendChild(el("span", "fold-count", `${fmt(last - first + 1)} messages`));
    row.title = "Click (or Enter) to open or fold this group";
    row.onclick = (e) => { e.stopPropagation(); toggleFold(first); };
    row.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); toggleFold(first); } };
    body.insertBefore(row, headCard);
    const members = [];
    for (let i = first; i <= last; i++) if (cards.has(i)) members.push(cards.get(i));
    for (const [g, after] of ghostAfter) if (after >= first && after <= last) members.push(ghostCard.get(g));
    groups.push({ first, last, row, caret, members });
  }

  function closedGroupOf(i) {
    if (!state.fold) return null;
    for (const g of groups) if (i >= g.first && i <= g.last && !state.open.has(g.first)) return g;
    return null;
  }

  function applyView() {
    root.classList.toggle("compact", !!state.compact);
    compactBtn.setAttribute("aria-pressed", state.compact ? "true" : "false");
    foldBtn.setAttribute("aria-pressed", state.fold ? "true" : "false");
    for (const g of groups) {
      const closed = !!state.fold && !state.open.has(g.first);
      g.row.hidden = !state.fold;
      g.row.classList.toggle("open", !!state.fold && !closed);
      g.row.setAttribute("aria-expanded", closed ? "false" : "true");
      g.caret.textContent = closed ? "\u25b8" : "\u25be";
      for (const c of g.members) c.classList.toggle("folded", closed);
    }
  }

  function toggleFold(first) {
    if (state.open.has(first)) state.open.delete(first); else state.open.add(first);
    applyView();
    draw();
  }

  function unfoldFor(i) {
    const g = closedGroupOf(i);
    if (!g) return;
    state.open.add(g.first);
    applyView();
    draw();
  }

  compactBtn.onclick = (e) => { e.stopPropagation(); state.compact = !state.compact; applyView(); draw(); };
  foldBtn.onclick = (e) => { e.stopPropagation(); state.fold = !state.fold; applyView(); draw(); };

  if (!data.items.length) body.appendChild(el("div", "tl-empty", "This transcript has no messages."));
  else if (keep && !order.length) body.appendChild(el("div", "tl-empty", "No message on this page passes the filters."));
  body.appendChild(bottomBar);

  // Stubs: a connector whose other end is on another page ends in a pill saying where.
  const stubEl = new Map();
  for (const l of data.links) {
    if (!l.stub) continue;
    const bar = l.stub.dir === "up" ? topBar : bottomBar;
    const arrow = l.stub.dir === "up" ? "\u2191" : "\u2193";
    const pill = el("button", "stub st-" + l.st, `${arrow} #${fmt(l.stub.other)}, page ${fmt(l.stub.page)}`);
    pill.setAttribute("data-stub-to", num(l.stub.other));
    pill.title = (l.id || "(no id)") + ": the other end is on page " + num(l.stub.page);
    pill.onclick = (e) => {
      e.stopPropagation();
      setTriggerValue("jump", l.stub.other);
    };
    const row = el("div", "stub-row");
    row.appendChild(pill);
    bar.appendChild(row);
    stubEl.set(l.k, pill);
  }

  const layer = svg("svg", { class: "tl-links" });
  const defs = svg("defs", {});
  for (const st of Object.keys(STATUS_TEXT)) {
    const m = svg("marker", {
      id: "tl-arrow-" + st, viewBox: "0 0 8 8", refX: 7, refY: 4, markerWidth: 5, markerHeight: 5,
      orient: "auto-start-reverse", class: "arrow st-" + st,
    });
    m.appendChild(svg("path", { d: "M0 0 L8 4 L0 8 z" }));
    defs.appendChild(m);
  }
  layer.appendChild(defs);
  body.appendChild(layer);

  const paths = [];
  for (const l of data.links) {
    const p = svg("path", { class: "conn st-" + l.st, "marker-end": `url(#tl-arrow-${l.st})` });
    if (l.ghost !== undefined) p.setAttribute("data-ghost-link", l.id);
    else p.setAttribute("data-link", l.id);
    p.setAttribute("data-from", num(l.from));
    p.setAttribute("data-to", num(l.to));
    if (l.stub) p.setAttribute("data-stub", "1");
    if (l.from === selected || l.to === selected) p.classList.add("hl");
    const t = svg("title", {});
    t.textContent = `${l.id || "(no id)"}: #${num(l.from)} \u2192 ${l.ghost !== undefined ? "missing" : "#" + num(l.to)} (${STATUS_TEXT[l.st] || l.st}); click to follow`;
    p.appendChild(t);
    // A connector leads to its other end: from the call to the result, and back.
    p.addEventListener("click", (e) => {
      e.stopPropagation();
      const cur = current();
      const dest = l.ghost !== undefined ? l.from : (cur === l.to ? l.from : l.to);
      goTo(dest, "center");
    });
    layer.appendChild(p);
    paths.push([p, l]);
  }

  function draw() {
    // Read every position first, then write: no layout thrash.
    const br = body.getBoundingClientRect();
    const x0 = br.width - gutter;
    const ys = [];
    for (const [, l] of paths) {
      const a = l.stub && l.stub.end === "from" ? stubEl.get(l.k) : callChip.get(l.from + ":" + l.fp) || cards.get(l.from);
      const b =
        l.stub && l.stub.end === "to" ? stubEl.get(l.k)
          : l.ghost !== undefined ? ghostCard.get(l.ghost)
            : resChip.get(l.to + ":" + l.tp) || cards.get(l.to);
      if (!a || !b) { ys.push(null); continue; }
      // An end folded away leads to its group's row; both ends in one folded row: no line.
      const ga = l.stub && l.stub.end === "from" ? null : closedGroupOf(l.from);
      const gb = l.stub && l.stub.end === "to" ? null : closedGroupOf(l.ghost !== undefined ? l.from : l.to);
      if (ga && ga === gb) { ys.push(null); continue; }
      const ra = (ga ? ga.row : a).getBoundingClientRect();
      const rb = (gb ? gb.row : b).getBoundingClientRect();
      if (!ra.height || !rb.height) { ys.push(null); continue; } // an end hidden by a filter
      ys.push([ra.top - br.top + ra.height / 2, rb.top - br.top + rb.height / 2,
        Math.min(x0, ra.right - br.left), Math.min(x0, rb.right - br.left)]);
    }
    layer.setAttribute("width", String(Math.round(br.width)));
    layer.setAttribute("height", String(Math.round(body.scrollHeight)));
    paths.forEach(([p, l], k) => {
      const y = ys[k];
      if (!y) { p.setAttribute("d", ""); return; }
      const lx = x0 + GAP + l.lane * LANE;
      p.setAttribute("d", roundedPath(Math.round(y[2]), Math.round(y[0]), lx, Math.round(y[1]), Math.round(y[3]) + 1));
    });
  }

  function current() {
    return state.clicked !== null && cards.has(state.clicked) ? state.clicked
      : (selected !== null && selected !== undefined ? selected : null);
  }

  function tell(i, defer) {
    // Python hears about the selection: at once for a click, once the keys rest for a held key.
    if (state.settle) { clearTimeout(state.settle); state.settle = null; }
    if (!defer) { setTriggerValue("select", i); return; }
    state.settle = setTimeout(() => { state.settle = null; setTriggerValue("select", i); }, SETTLE_MS);
  }

  function select(i, defer) {
    state.clicked = i;
    for (const c of body.querySelectorAll(".card.selected")) c.classList.remove("selected");
    const c = cards.get(i);
    if (c) c.classList.add("selected");
    for (const [p, l] of paths) p.classList.toggle("hl", l.from === i || l.to === i);
    if (search.q && matches.length) {
      const k = matches.indexOf(i);
      count.textContent = k >= 0 ? `${fmt(k + 1)} of ${fmt(search.count)}` : `${fmt(search.count)} match${search.count > 1 ? "es" : ""}`;
    }
    followMatch(i);
    tell(i, defer);
  }

  function followMatch(i) {
    // The match list marks the current match and keeps it in its own view.
    if (!list) return;
    for (const b of list.querySelectorAll(".tl-match.current")) b.classList.remove("current");
    const b = matchButtons.get(i);
    if (!b) return;
    b.classList.add("current");
    const lr = list.getBoundingClientRect(), br = b.getBoundingClientRect();
    if (br.top < lr.top) list.scrollTop -= lr.top - br.top;
    else if (br.bottom > lr.bottom) list.scrollTop += br.bottom - lr.bottom;
  }

  function pageScroller() {
    // The element that scrolls the page around the timeline (Streamlit's main area).
    let n = parentElement;
    while (n) {
      n = n.parentElement || (n.getRootNode && n.getRootNode().host) || null;
      if (!n || n === document.body || n === document.documentElement) break;
      const oy = getComputedStyle(n).overflowY;
      if ((oy === "auto" || oy === "scroll") && n.scrollHeight > n.clientHeight + 1) return n;
    }
    return document.scrollingElement || document.documentElement;
  }

  function pageBox() {
    // The page's scroller and the part of the window it shows below Streamlit's header.
    const ps = pageScroller();
    const isDoc = ps === document.scrollingElement || ps === document.documentElement;
    const box = isDoc ? { top: 0, bottom: window.innerHeight } : ps.getBoundingClientRect();
    const bar = document.querySelector("[data-testid=stHeader]");
    const top = Math.max(box.top, bar ? bar.getBoundingClientRect().bottom : 0) + 6;
    const bottom = Math.min(box.bottom, window.innerHeight) - 6;
    return { ps, isDoc, top, bottom };
  }

  function offCentre(c) {
    // How far the card's middle is from the middle of the window (px), 0 when it cannot move.
    const { top, bottom } = pageBox();
    const cr = c.getBoundingClientRect();
    if (cr.height >= bottom - top - 8) return cr.top - top - 4;
    return cr.top + cr.height / 2 - (top + bottom) / 2;
  }

  function revealOnce(c, block) {
    // 1. In the timeline's scroll box: the whole card, or its top when it is taller than the box.
    const sr = scroller.getBoundingClientRect(), cr = c.getBoundingClientRect();
    const room = scroller.clientHeight;
    let dy = 0;
    if (cr.height >= room - 8) dy = cr.top - sr.top - 4;
    else if (block === "center") dy = cr.top - sr.top - (room - cr.height) / 2;
    else if (cr.top < sr.top + 4) dy = cr.top - sr.top - 4;
    else if (cr.bottom > sr.bottom - 4) dy = cr.bottom - sr.bottom + 4;
    if (Math.abs(dy) >= 1) scroller.scrollTop += dy;
    const { ps, isDoc, top, bottom } = pageBox();
    if (block === "center") {
      // 2a. A jump: the card in the middle of the window.
      const py = offCentre(c);
      if (Math.abs(py) >= 1) (isDoc ? window : ps).scrollBy(0, py);
      return;
    }
    // 2b. A step (j/k): the search bar, that card and the detail pane's heading, all in view
    //     when they fit, else the search bar and the card's top; the page moves only as needed.
    const s = sbar.getBoundingClientRect();
    const c2 = c.getBoundingClientRect();
    const vis = scroller.getBoundingClientRect();
    const cardTop = Math.max(c2.top, vis.top), cardBottom = Math.min(c2.bottom, vis.bottom);
    const h = document.querySelector(".st-key-detail h3");
    const hr = h ? h.getBoundingClientRect() : null;
    let want = [Math.min(s.top, cardTop, hr ? hr.top : Infinity), Math.max(s.bottom, cardBottom, hr ? hr.bottom : -Infinity)];
    if (want[1] - want[0] > bottom - top) want = [Math.min(s.top, cardTop), Math.max(s.bottom, Math.min(cardBottom, cardTop + (bottom - top) / 2))];
    let py = 0;
    if (want[0] < top) py = want[0] - top;
    else if (want[1] > bottom) py = Math.min(want[1] - bottom, want[0] - top);
    if (Math.abs(py) >= 1) (isDoc ? window : ps).scrollBy(0, py);
  }

  function reveal(c, block) {
    revealOnce(c, block);
    if (block !== "center") {
      // Off-screen cards are laid out at a placeholder height (content-visibility): measure
      // again once the card has drawn at its real size.
      requestAnimationFrame(() => { if (c.isConnected) revealOnce(c, "nearest"); });
      return;
    }
    // A jump: cards drawn at their real size, the detail pane and the rest of the page filled
    // in by the same run move the card after the first scroll; keep it in the middle until the
    // page has rested, unless the reader scrolls or presses a key first.
    if (state.centring) state.centring();
    let frames = 0, still = 0, raf = 0;
    const stop = () => {
      cancelAnimationFrame(raf);
      for (const ev of ["wheel", "touchstart", "mousedown", "keydown"]) window.removeEventListener(ev, stop, true);
      if (state.centring === stop) state.centring = null;
    };
    for (const ev of ["wheel", "touchstart", "mousedown", "keydown"]) window.addEventListener(ev, stop, true);
    state.centring = stop;
    const tick = () => {
      if (!c.isConnected || frames++ > 240) { stop(); return; }
      if (Math.abs(offCentre(c)) > 12) { revealOnce(c, "center"); still = 0; } else if (++still > 30) { stop(); return; }
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
  }

  function jump(i) {
    // The target is on another page: Python opens it (once, however often the key repeats).
    if (i === null || i === undefined || i < 0 || i >= data.total) return;
    if (state.pendingJump === i) return;
    if (state.settle) { clearTimeout(state.settle); state.settle = null; }
    state.pendingJump = i;
    setTriggerValue("jump", i);
  }

  function goTo(i, block, defer) {
    if (i === null || i === undefined) return;
    const c = cards.get(i);
    if (c) unfoldFor(i);
    if (c && !c.classList.contains("filtered")) {
      select(i, !!defer);
      reveal(c, block || "nearest");
    } else jump(i);
  }

  function step(delta) {
    if (state.pendingJump !== null) { state.queued = (state.queued || 0) + delta; return; }
    const cur = current();
    if (cur === null) { goTo(order.length ? order[0] : data.start, "nearest", true); return; }
    if (keep) {
      const k = order.indexOf(cur);
      if (k >= 0 && order[k + delta] !== undefined) { goTo(order[k + delta], "nearest", true); return; }
      if (k < 0) {
        const near = delta > 0 ? after(order, cur) : before(order, cur);
        if (near !== null) { goTo(near, "nearest", true); return; }
      }
      jump(delta > 0 ? keep.next : keep.prev);
      return;
    }
    goTo(cur + delta, "nearest", true);
  }

  function follow() {
    // f: from a call to its result; from a result (or a call whose result is this card's) back
    // to the call. With several calls, f walks them: the first whose result is not already here.
    const cur = current();
    const c = cur === null ? null : cards.get(cur);
    if (!c) return;
    const calls = [...c.querySelectorAll(".chip.call[data-goto]")].map((x) => Number(x.getAttribute("data-goto")));
    const back = [...c.querySelectorAll(".chip.result[data-goto]")].map((x) => Number(x.getAttribute("data-goto")));
    const from = state.followed && state.followed.to === cur ? state.followed.from : null;
    let t = null;
    if (back.length) t = back.includes(from) ? from : back[0];
    else if (calls.length) t = calls.find((x) => x !== cur) ?? calls[0];
    if (t === null || t === undefined) return;
    state.followed = { from: cur, to: t };
    goTo(t, "center");
  }

  function stepFinding(delta) {
    const cur = current();
    let t = cur === null ? (delta > 0 ? fi[0] : fi[fi.length - 1])
      : (delta > 0 ? after(fi, cur) : before(fi, cur));
    if (t === null || t === undefined) t = delta > 0 ? fi[0] : fi[fi.length - 1]; // wrap around
    goTo(t, "center");
  }

  function stepMatch(delta) {
    if (!matches.length) return;
    const cur = current();
    let t = cur === null ? null : (delta > 0 ? after(matches, cur) : before(matches, cur));
    if (t === null) t = delta > 0 ? matches[0] : matches[matches.length - 1];
    goTo(t, "center");
  }

  function toggleHelp(force) {
    state.help = force === undefined ? !state.help : force;
    help.hidden = !state.help;
  }

  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return false;
    const k = e.key;
    if (k === "j" || k === "ArrowDown" || k === "k" || k === "ArrowUp") {
      state.lastStep = Date.now(); // a step, not a jump: the next page shows it "nearest"
      step(k === "j" || k === "ArrowDown" ? 1 : -1);
    }
    else if (k === "Home") goTo(keep ? (keep.first ?? 0) : 0, "center");
    else if (k === "End") goTo(keep ? (keep.last ?? data.total - 1) : data.total - 1, "center");
    else if (k === "f") follow();
    else if (k === "n") stepFinding(1);
    else if (k === "p") stepFinding(-1);
    else if (k === "/") { input.focus(); input.select(); }
    else if (k === "g") { gotoIn.focus(); gotoIn.select(); }
    else if (k === "?") toggleHelp();
    else if (k === "Escape") toggleHelp(false);
    else if (k === "Enter" && matches.length) stepMatch(e.shiftKey ? -1 : 1);
    else return false;
    e.preventDefault();
    state.lastKey = Date.now();
    return true;
  }

  root.addEventListener("keydown", (e) => {
    if (e.target === input) return;
    onKey(e);
  });

  input.addEventListener("keydown", (e) => {
    e.stopPropagation();
    if (e.key === "Enter") {
      e.preventDefault();
      if (input.value !== (search.q || "")) setTriggerValue("search", input.value);
      else stepMatch(e.shiftKey ? -1 : 1);
    } else if (e.key === "Escape") {
      input.blur();
      root.focus({ preventScroll: true });
    }
  });
  gotoIn.addEventListener("keydown", (e) => {
    e.stopPropagation();
    if (e.key === "Enter") {
      e.preventDefault();
      const n = Number.parseInt(gotoIn.value, 10);
      if (!Number.isFinite(n) || n < 0 || n >= data.total) { gotoIn.setCustomValidity("no such message"); gotoIn.reportValidity(); return; }
      gotoIn.setCustomValidity("");
      state.lastKey = 0;
      state.lastStep = 0; // a jump, not a key step: centred
      goTo(n, "center");
      root.focus({ preventScroll: true });
    } else if (e.key === "Escape") {
      root.focus({ preventScroll: true });
    }
  });
  input.addEventListener("search", () => {
    // The clear (x) button of a search field.
    if (!input.value && search.q) setTriggerValue("search", "");
  });

  // Keys pressed while nothing has focus (the page body) still drive the timeline.
  if (state.docKey) document.removeEventListener("keydown", state.docKey);
  state.docKey = (e) => {
    const a = document.activeElement;
    if (a && a !== document.body && a !== document.documentElement) return;
    if (onKey(e)) root.focus({ preventScroll: true });
  };
  document.addEventListener("keydown", state.docKey);

  scroller.addEventListener("scroll", () => { state.scroll = scroller.scrollTop; }, { passive: true });
  shadeFit(root, data.fit);
  parentElement.appendChild(root);

  applyView();
  if (selected !== null && selected !== undefined && closedGroupOf(selected)) state.open.add(closedGroupOf(selected).first), applyView();
  draw();
  const ro = new ResizeObserver(() => draw());
  ro.observe(body);

  // Scroll: keep the reader's place, except when Python asked to show a message (focus changed),
  // which brings that card into view: inside the timeline and, for a jump, on the page too.
  const target = cards.get(selected);
  if (moved && target) {
    reveal(target, Date.now() - (state.lastStep || 0) < 1500 ? "nearest" : "center");
  } else if (data.page !== state.page) {
    scroller.scrollTop = 0;
  } else {
    scroller.scrollTop = state.scroll;
  }
  if (queued && moved) {
    for (let k = 0; k < Math.abs(queued); k++) step(Math.sign(queued));
  }
  if (selected !== null && selected !== undefined) followMatch(selected);
  if (searchHadFocus) {
    input.focus({ preventScroll: true });
    const n = input.value.length;
    input.setSelectionRange(n, n);
  } else if (hadFocus) root.focus({ preventScroll: true });
  state.focus = data.focus;
  state.page = data.page;
  state.scroll = scroller.scrollTop;
  return () => {
    ro.disconnect();
    if (state.docKey) { document.removeEventListener("keydown", state.docKey); state.docKey = null; }
  };
}

// What a fit to the budget would remove (inspector/ui/context.py): the overview slices get a
// hatch as wide as the share of their messages that go, and the cards that go are hatched and
// say which unit takes them (a call block goes whole, with all its results).
function shadeFit(root, fit) {
  if (!fit) return;
  const slices = root.querySelectorAll(".tl-overview .ob");
  (fit.buckets || []).forEach((f, k) => {
    const b = slices[k];
    if (!b || !(f > 0)) return;
    b.classList.add("fit-out");
    b.style.setProperty("--fit", String(Math.max(0.15, Math.min(1, Number(f)))));
    b.setAttribute("data-fit-out", String(Number(f)));
    b.title += ` · a fit to ${num(fit.budget)} tokens removes ${Math.round(Number(f) * 100)}% of these`;
  });
  for (const [a, z, kind, first, last, tokens] of fit.runs || []) {
    for (let i = Number(a); i <= Number(z); i++) {
      const c = root.querySelector(`.card[data-msg-index="${num(i)}"]`);
      if (!c) continue;
      c.classList.add("fit-out");
      c.setAttribute("data-fit-unit", num(first));
      const span = Number(first) === Number(last) ? `#${num(first)}` : `#${num(first)}–#${num(last)}`;
      c.title = `a fit to ${num(fit.budget)} tokens removes this ${kind === "call block" ? "call block" : "message"} (${span}, ${num(tokens)} tokens)`;
    }
  }
}
