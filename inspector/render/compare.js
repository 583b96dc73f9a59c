// Compare view: two transcripts side by side, aligned pair by pair (the rows of
// inspector/render/pairs.py PairView.page, built on `inspector diff`'s alignment).
//
// Each row is one turn: A's messages on the left, B's on the right, drawn as the timeline draws
// them (buildCard, cards.js: the same cards, call -> and result <- chips, finding marks), and
// between them what became of each aligned call (= same, ~ other arguments, != answered
// differently, + added, - removed). A row whose calls differ is marked; the row of the first
// divergence carries a badge and is scrolled into view. Transcript text enters the page only
// through textContent (cards.js). No innerHTML anywhere.
// Events sent back: trigger "page" (0-based page of rows).

const CMP_STATUS = {
  same: "same", other_arguments: "other arguments", answered_differently: "answered differently",
  added: "added in B", removed: "removed in B", before: "before the first call",
};

function cmpSide(side, which, status) {
  const col = el("div", "cmp-side cmp-" + which);
  if (!side) {
    const none = status === "added" && which === "a" ? "no such call in A"
      : status === "removed" && which === "b" ? "no such call in B" : "\u2014";
    col.appendChild(el("div", "cmp-none", none));
    return col;
  }
  col.setAttribute("data-first", num(side.first));
  if (side.again !== null && side.again !== undefined) {
    col.appendChild(el("div", "cmp-none", `the same message #${fmt(side.again)} as above`));
    return col;
  }
  for (const it of side.cards) {
    const c = buildCard(it, null);
    col.appendChild(c);
  }
  if (side.more > 0) {
    col.appendChild(el("div", "cmp-more", `\u2026 ${fmt(side.more)} more message${side.more > 1 ? "s" : ""} `
      + `(to #${fmt(side.last)})`));
  }
  return col;
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (!data || !parentElement) return;
  if (data.shapes) SHAPES = data.shapes;
  const old = parentElement.querySelector(".cmp");
  if (old) old.remove();
  const state = parentElement.__cmp || (parentElement.__cmp = { page: null, scroll: 0 });

  const root = el("div", "tl cmp");
  root.setAttribute("data-testid", "compare-timelines");
  const head = el("div", "tl-head cmp-head");
  const where = el("div", "tl-where");
  where.appendChild(el("span", "tl-range", `${fmt(data.total)} aligned turn${data.total !== 1 ? "s" : ""}`));
  where.appendChild(pager(data, setTriggerValue, "\u2039 Earlier", "Later \u203a"));
  let goFirst = null;
  if (data.first !== null && data.first !== undefined) {
    goFirst = el("button", "tl-btn", "First divergence");
    goFirst.setAttribute("data-nav", "first-divergence");
    goFirst.title = data.first_text || "";
    where.appendChild(goFirst);
  }
  head.appendChild(where);
  root.appendChild(head);

  // The two timelines' headings, over their columns.
  const cols = el("div", "cmp-row cmp-titles");
  data.labels.forEach((label, k) => {
    const s = data.sides[k];
    const t = el("div", "cmp-side cmp-title");
    t.appendChild(el("span", "cmp-letter", k ? "B" : "A"));
    t.appendChild(el("span", "cmp-label", label));
    t.appendChild(el("span", "meta", `${s.dialect}, ${fmt(s.messages)} messages, ${fmt(s.calls)} calls`));
    cols.appendChild(t);
    if (!k) cols.appendChild(el("div", "cmp-join", ""));
  });
  root.appendChild(cols);

  const scroller = el("div", "tl-scroll cmp-scroll");
  const body = el("div", "cmp-body");
  scroller.appendChild(body);
  root.appendChild(scroller);
  let firstRow = null;
  for (const r of data.rows) {
    const row = el("div", "cmp-row st-" + r.status);
    row.setAttribute("data-row", num(r.row));
    row.setAttribute("data-status", r.status);
    row.setAttribute("data-testid", "compare-pair");
    if (r.status !== "same" && r.status !== "before") row.classList.add("differs");
    row.appendChild(cmpSide(r.a, "a", r.status));
    const join = el("div", "cmp-join");
    if (r.first_divergence) {
      row.classList.add("first-divergence");
      row.setAttribute("data-first-divergence", "1");
      const badge = el("div", "cmp-badge", "first divergence");
      badge.title = data.first_text || "";
      join.appendChild(badge);
      firstRow = row;
    }
    if (r.status === "before") join.appendChild(el("div", "cmp-call muted", "before the first call"));
    for (const [mark, st, tool] of r.calls) {
      const c = el("div", "cmp-call st-" + st);
      c.setAttribute("data-call-status", st);
      c.appendChild(el("span", "cmp-mark", mark));
      c.appendChild(el("span", "cmp-tool", tool));
      c.title = tool + ": " + (CMP_STATUS[st] || st);
      join.appendChild(c);
    }
    row.appendChild(join);
    row.appendChild(cmpSide(r.b, "b", r.status));
    body.appendChild(row);
  }
  if (!data.rows.length) body.appendChild(el("div", "tl-empty", "Neither transcript has messages."));
  const legend = el("div", "tl-legend");
  for (const st of ["same", "other_arguments", "answered_differently", "added", "removed"]) {
    const item = el("span", "lg cmp-call st-" + st);
    item.appendChild(el("span", "cmp-mark", { same: "=", other_arguments: "~", answered_differently: "\u2260", added: "+", removed: "\u2212" }[st]));
    item.appendChild(el("span", "", CMP_STATUS[st]));
    legend.appendChild(item);
  }
  root.appendChild(legend);
  parentElement.appendChild(root);

  function showFirst() {
    // The first divergence in view: at the top of the rows' scroll box, and on the page.
    if (!firstRow || !firstRow.isConnected) return;
    const sr = scroller.getBoundingClientRect(), rr = firstRow.getBoundingClientRect();
    scroller.scrollTop += rr.top - sr.top - 8;
    const fr = firstRow.getBoundingClientRect();
    if (fr.top < 0 || fr.bottom > window.innerHeight) firstRow.scrollIntoView({ block: "center" });
  }
  if (goFirst) {
    goFirst.onclick = () => {
      if (firstRow) showFirst();
      else setTriggerValue("page", data.first_page);
    };
  }
  // A new page (or the first drawing) shows its first divergence; a redraw keeps the place.
  if (data.page !== state.page) {
    scroller.scrollTop = 0;
    requestAnimationFrame(showFirst);
  } else scroller.scrollTop = state.scroll;
  scroller.addEventListener("scroll", () => { state.scroll = scroller.scrollTop; }, { passive: true });
  state.page = data.page;
}
