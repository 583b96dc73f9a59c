(scope) => {
  // The contrast of each piece of text, from its computed colour over its computed background:
  // [where, text, ratio]. scope "page": every piece of text on the page (the document and every
  // shadow root: sidebar, toolbar, tabs, badges, captions, tables' DOM parts, the timeline); canvas-
  // drawn grid cells are not DOM text (the theme draws them). scope "timeline": the timeline's own
  // text (.tl, in the first component's shadow root), [class, text, ratio].
  const parse = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const over = (top, under) => { const a = top[3]; return [0, 1, 2].map((k) => top[k] * a + under[k] * (1 - a)).concat(1); };
  const up = (e) => e.parentElement || (e.getRootNode && e.getRootNode().host) || null;
  function background(el) {
    const layers = [];
    for (let e = el; e; e = up(e)) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let bg = [255, 255, 255, 1];
    for (let k = layers.length - 1; k >= 0; k--) bg = over(layers[k], bg);
    return bg;
  }
  function opacity(el) { let o = 1; for (let e = el; e; e = up(e)) o *= Number(getComputedStyle(e).opacity); return o; }
  function ratio(el, fg) {
    const bg = background(el);
    const c = over([fg[0], fg[1], fg[2], fg[3] * opacity(el)], bg);
    const L1 = lum(c), L2 = lum(bg);
    return Math.round((Math.max(L1, L2) + 0.05) / (Math.min(L1, L2) + 0.05) * 100) / 100;
  }
  const ownText = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  function where(el) {
    const parts = [];
    for (let e = el; e && parts.length < 4; e = up(e)) {
      const t = e.getAttribute && (e.getAttribute('data-testid') || [...e.classList].find((c) => c.startsWith('st-key-')));
      if (t) parts.push(t);
    }
    return parts.join(' < ');
  }
  const out = [];
  function walk(root) {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) walk(el.shadowRoot);
      if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'OPTION'].includes(el.tagName)) continue;
      if (!ownText(el)) continue;
      const r = el.getBoundingClientRect(); if (!r.width || !r.height) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility === 'hidden' || cs.display === 'none') continue;
      if (el.closest('button:disabled, [aria-disabled=true], [disabled]')) continue;  // exempt (WCAG 1.4.3)
      if (el.closest('[aria-hidden=true]') && !el.closest('[role=tooltip]')) continue;
      if (r.right < 0 || r.bottom < 0 || r.left > innerWidth) continue;  // off to the side: not shown
      const fg = parse(cs.color); if (!fg) continue;
      out.push([where(el) || el.tagName, el.textContent.trim().slice(0, 40), ratio(el, fg)]);
    }
  }
  if (scope === 'timeline') {
    const root = document.querySelector('[data-testid=stBidiComponentIsolated]');
    const shadow = root && root.shadowRoot ? root.shadowRoot : document;
    for (const el of shadow.querySelectorAll('.tl *')) {
      if (!ownText(el)) continue;
      const r = el.getBoundingClientRect(); if (!r.width || !r.height) continue;
      if (el.closest('button:disabled')) continue;  // disabled controls are exempt (WCAG 1.4.3)
      const fg = parse(getComputedStyle(el).color);
      out.push([el.className.baseVal !== undefined ? 'svg' : el.className, el.textContent.trim().slice(0, 30), ratio(el, fg)]);
    }
  } else if (scope === 'page') walk(document);
  else throw new Error('contrast.js: scope "page" or "timeline", not ' + scope);
  return out;
}
