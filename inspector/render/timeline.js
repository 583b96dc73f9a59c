// Timeline of a transcript: one card per message, a connector from each tool call to its result.
//
// Streamlit components v2 module. Everything from the transcript (roles, text, names, ids) is
// untrusted: it enters the page only through textContent, or setAttribute on data-* attributes.
// No innerHTML anywhere; SVG path geometry is built from numbers measured in the page.
//
// Data (from inspector/render/layout.py TimelineModel.page): items (cards and ghost cards),
// links (with lane and, for ends on another page, a stub), overview buckets, selected, focus.
// Events sent back: trigger "select" (a message index), "jump" (a message index, maybe on
// another page), "page" (0-based page number).

const SVGNS = "http://www.w3.org/2000/svg";
const LANE = 11; // px between connector lanes
const GAP = 12; // px between a card's right edge and the first lane
const STATUS_TEXT = {
  ok: "answered",
  displaced: "displaced",
  early: "before its call",
  duplicate: "duplicate",
  out_of_order: "out of order",
  missing: "missing",
  pending: "pending",
};
const LEGEND = ["ok", "displaced", "early", "duplicate", "missing", "pending"];

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function svg(tag, attrs) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, String(attrs[k]));
  return e;
}

function num(x) {
  // Attributes that carry indexes are built from numbers only.
  const n = Number(x);
  return Number.isFinite(n) ? String(Math.trunc(n)) : "";
}

function chip(kind, id, name, pos, extra) {
  const c = el("div", "chip " + kind + (extra ? " " + extra : ""));
  c.setAttribute("data-pos", num(pos));
  c.appendChild(el("span", "chip-icon", kind === "call" ? "\u2192" : "\u21a9"));
  c.appendChild(el("span", "chip-name", name || "(no name)"));
  c.appendChild(el("span", "chip-id", id || "(no id)"));
  return c;
}

function buildCard(it, selected) {
  const card = el("div", "card role-" + (/^[a-z]+$/.test(it.role) ? it.role : "other"));
  if (it.sev) card.classList.add("sev-" + it.sev);
  if (it.i === selected) card.classList.add("selected");
  card.setAttribute("data-msg-index", num(it.i));
  card.setAttribute("data-role", it.role);
  const head = el("div", "card-head");
  head.appendChild(el("span", "idx", "#" + num(it.i)));
  head.appendChild(el("span", "role", it.role));
  const marks = el("span", "marks");
  for (const [code, sev] of it.marks) {
    const m = el("span", "mark sev-" + sev, code);
    m.setAttribute("data-finding", code);
    m.title = code + " (" + sev + ")";
    marks.appendChild(m);
  }
  head.appendChild(marks);
  card.appendChild(head);
  if (it.text) card.appendChild(el("div", "card-text", it.text));
  else if (!it.calls.length && !it.results.length) card.appendChild(el("div", "card-text muted", "(no text)"));
  if (it.calls.length || it.results.length) {
    const chips = el("div", "chips");
    for (const [id, name, pos] of it.calls) chips.appendChild(chip("call", id, name, pos));
    for (const [id, name, pos, orphan] of it.results) chips.appendChild(chip("result", id, name, pos, orphan ? "orphan" : ""));
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
  const state = parentElement.__tl || (parentElement.__tl = { focus: null, scroll: 0, clicked: null, page: null });
  const old = parentElement.querySelector(".tl");
  if (old) old.remove();
  // Python moves the view (a jump, a page) by changing `focus`; otherwise a card the user
  // clicked here stays selected across redraws.
  const moved = data.focus !== state.focus;
  if (moved) state.clicked = null;
  const selected = !moved && state.clicked !== null ? state.clicked : data.selected;

  const root = el("div", "tl");
  root.setAttribute("data-testid", "timeline");
  root.tabIndex = 0;

  // Header: where we are, paging, legend.
  const head = el("div", "tl-head");
  const where = el("div", "tl-where");
  const shown = data.end > data.start ? `#${data.start}\u2013#${data.end - 1}` : "none";
  where.appendChild(el("span", "tl-range", `Messages ${shown} of ${data.total}`));
  const nav = el("span", "tl-nav");
  const prev = el("button", "tl-btn", "\u2039 Prev");
  const next = el("button", "tl-btn", "Next \u203a");
  prev.disabled = data.page <= 0;
  next.disabled = data.page >= data.pages - 1;
  prev.setAttribute("data-nav", "prev");
  next.setAttribute("data-nav", "next");
  prev.onclick = () => setTriggerValue("page", data.page - 1);
  next.onclick = () => setTriggerValue("page", data.page + 1);
  nav.appendChild(prev);
  nav.appendChild(el("span", "tl-page", `page ${data.page + 1} of ${data.pages}`));
  nav.appendChild(next);
  where.appendChild(nav);
  head.appendChild(where);
  const legend = el("div", "tl-legend");
  for (const st of LEGEND) {
    const item = el("span", "lg st-" + st);
    item.appendChild(el("span", "sw"));
    item.appendChild(el("span", "", STATUS_TEXT[st]));
    legend.appendChild(item);
  }
  head.appendChild(legend);
  root.appendChild(head);

  // Overview: the whole transcript in slices coloured by their worst finding.
  if (data.overview && data.overview.length > 1) {
    const ov = el("div", "tl-overview");
    ov.setAttribute("data-overview", "1");
    const sev = ["", "info", "warning", "error"];
    for (const [a, z, worst, count, target] of data.overview) {
      const b = el("div", "ob" + (worst ? " sev-" + sev[worst] : ""));
      if (z >= data.start && a < data.end) b.classList.add("here");
      b.title = `#${a}\u2013#${z}: ` + (count ? `${count} finding${count > 1 ? "s" : ""}` : "no findings");
      b.setAttribute("data-first", num(a));
      b.onclick = () => setTriggerValue("jump", target);
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

  const callChip = new Map();
  const resChip = new Map();
  const ghostCard = new Map();
  const cards = new Map();
  const topBar = el("div", "tl-stubs top");
  const bottomBar = el("div", "tl-stubs bottom");
  body.appendChild(topBar);
  for (const it of data.items) {
    if (it.ghost !== undefined) {
      const g = buildGhost(it);
      g.onclick = () => select(it.call);
      ghostCard.set(it.ghost, g);
      body.appendChild(g);
      continue;
    }
    const c = buildCard(it, selected);
    c.onclick = () => select(it.i);
    cards.set(it.i, c);
    for (const ch of c.querySelectorAll(".chip.call")) callChip.set(it.i + ":" + ch.getAttribute("data-pos"), ch);
    for (const ch of c.querySelectorAll(".chip.result")) resChip.set(it.i + ":" + ch.getAttribute("data-pos"), ch);
    body.appendChild(c);
  }
  if (!data.items.length) body.appendChild(el("div", "tl-empty", "This transcript has no messages."));
  body.appendChild(bottomBar);

  // Stubs: a connector whose other end is on another page ends in a pill saying where.
  const stubEl = new Map();
  for (const l of data.links) {
    if (!l.stub) continue;
    const bar = l.stub.dir === "up" ? topBar : bottomBar;
    const arrow = l.stub.dir === "up" ? "\u2191" : "\u2193";
    const pill = el("button", "stub st-" + l.st, `${arrow} #${num(l.stub.other)}, page ${num(l.stub.page)}`);
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
    t.textContent = `${l.id || "(no id)"}: #${num(l.from)} \u2192 ${l.ghost !== undefined ? "missing" : "#" + num(l.to)} (${STATUS_TEXT[l.st] || l.st})`;
    p.appendChild(t);
    layer.appendChild(p);
    paths.push([p, l]);
  }

  function draw() {
    // Read every position first, then write: no layout thrash.
    const br = body.getBoundingClientRect();
    const x0 = br.width - gutter;
    const ys = [];
    for (const [, l] of paths) {
      const a = l.stub && l.stub.end === "from" ? stubEl.get(l.k) : callChip.get(l.from + ":" + l.fp);
      const b =
        l.stub && l.stub.end === "to" ? stubEl.get(l.k)
          : l.ghost !== undefined ? ghostCard.get(l.ghost)
            : resChip.get(l.to + ":" + l.tp) || cards.get(l.to);
      if (!a || !b) { ys.push(null); continue; }
      const ra = a.getBoundingClientRect();
      const rb = b.getBoundingClientRect();
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

  function select(i) {
    state.clicked = i;
    for (const c of body.querySelectorAll(".card.selected")) c.classList.remove("selected");
    const c = cards.get(i);
    if (c) c.classList.add("selected");
    for (const [p, l] of paths) p.classList.toggle("hl", l.from === i || l.to === i);
    setTriggerValue("select", i);
  }

  root.addEventListener("keydown", (e) => {
    const keys = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1 };
    if (!(e.key in keys)) return;
    e.preventDefault();
    const cur = state.clicked !== null && cards.has(state.clicked) ? state.clicked : selected;
    const nxt = (cur === null || cur === undefined ? data.start : cur + keys[e.key]);
    if (cards.has(nxt)) {
      select(nxt);
      cards.get(nxt).scrollIntoView({ block: "nearest" });
    } else if (nxt >= data.end && data.page < data.pages - 1) setTriggerValue("jump", nxt);
    else if (nxt < data.start && data.page > 0) setTriggerValue("jump", nxt);
  });

  scroller.addEventListener("scroll", () => { state.scroll = scroller.scrollTop; }, { passive: true });
  parentElement.appendChild(root);

  draw();
  const ro = new ResizeObserver(() => draw());
  ro.observe(body);

  // Scroll: keep the reader's place, except when Python asked to show a message (focus changed).
  const target = cards.get(selected);
  if (moved && target) {
    scroller.scrollTop = Math.max(0, target.offsetTop - scroller.clientHeight / 3);
  } else if (data.page !== state.page) {
    scroller.scrollTop = 0;
  } else {
    scroller.scrollTop = state.scroll;
  }
  state.focus = data.focus;
  state.page = data.page;
  state.scroll = scroller.scrollTop;
  return () => ro.disconnect();
}
