() => {
  const parse = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const over = (top, under) => { const a = top[3]; return [0, 1, 2].map((k) => top[k] * a + under[k] * (1 - a)).concat(1); };
  function background(el) {
    const layers = [];
    for (let e = el; e; e = e.parentElement || (e.getRootNode && e.getRootNode().host)) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let bg = [255, 255, 255, 1];
    for (let k = layers.length - 1; k >= 0; k--) bg = over(layers[k], bg);
    return bg;
  }
  function opacity(el) { let o = 1; for (let e = el; e; e = e.parentElement || (e.getRootNode && e.getRootNode().host)) o *= Number(getComputedStyle(e).opacity); return o; }
  const out = [];
  const root = document.querySelector('[data-testid=stBidiComponentIsolated]');
  const shadow = root && root.shadowRoot ? root.shadowRoot : document;
  for (const el of shadow.querySelectorAll('.tl *')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const r = el.getBoundingClientRect(); if (!r.width || !r.height) continue;
    if (el.closest('button:disabled')) continue;  // disabled controls are exempt (WCAG 1.4.3)
    const bg = background(el);
    let fg = parse(getComputedStyle(el).color); fg = [fg[0], fg[1], fg[2], fg[3] * opacity(el)];
    const c = over(fg, bg);
    const L1 = lum(c), L2 = lum(bg);
    const ratio = (Math.max(L1, L2) + 0.05) / (Math.min(L1, L2) + 0.05);
    out.push([el.className.baseVal !== undefined ? 'svg' : el.className, el.textContent.trim().slice(0, 30), Math.round(ratio * 100) / 100]);
  }
  return out;
}
