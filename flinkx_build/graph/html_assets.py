"""The graph page's inline CSS and script (no library, no network).

The script reads the page's JSON (`#graph-data`) and gives: search by name,
zoom (wheel, buttons), pan (drag), fit to width or to the whole graph, and a
side panel with the clicked node's columns, effective options, source file
and neighbours, highlighting everything upstream and downstream of it.
`#node=ID&q=TEXT&zoom=N` in the address selects a node, searches and zooms
on load, so a link can point at a node (and a test can drive the page with
Chromium's --dump-dom).
"""
from __future__ import annotations

import base64
import hashlib

STYLE = """
* { box-sizing: border-box; }
body { font-family: Helvetica, Arial, sans-serif; margin: 0; color: #1f2328; }
header { padding: 10px 16px 0; } h1 { font-size: 20px; margin: 0; } .summary { margin: 2px 0 6px; color: #57606a; }
.toolbar { display: flex; gap: 6px; align-items: center; padding: 6px 16px; border-bottom: 1px solid #d0d7de; }
.toolbar input { width: 280px; padding: 4px 8px; } .toolbar button { padding: 3px 10px; cursor: pointer; }
.hint, #matches { color: #57606a; font-size: 12px; }
main { display: flex; height: calc(100vh - 118px); min-height: 360px; }
#canvas { flex: 1; min-width: 0; position: relative; }
#graph { width: 100%; height: 100%; display: block; cursor: grab; user-select: none; }
#graph.panning { cursor: grabbing; }
.node { cursor: pointer; } .node.match .shape { stroke: #bf8700; stroke-width: 3; } .node.picked .shape { stroke: #0969da; stroke-width: 3; }
.dim { opacity: 0.15; }
#panel { width: 360px; border-left: 1px solid #d0d7de; padding: 10px 14px; overflow: auto; font-size: 13px; }
#panel h2 { font-size: 15px; margin: 4px 0; word-break: break-all; } #panel h3 { font-size: 13px; margin: 12px 0 4px; }
#panel table { border-collapse: collapse; width: 100%; } #panel td { border-bottom: 1px solid #eee; padding: 2px 6px 2px 0; vertical-align: top; overflow-wrap: anywhere; } #panel td:first-child { white-space: nowrap; }
#panel .meta, .empty { color: #57606a; } #panel a { color: #0969da; cursor: pointer; text-decoration: none; }
.warn { background: #ffebe9; border: 1px solid #cf222e; padding: 4px 12px; border-radius: 6px; margin: 8px 16px; }
details { padding: 8px 16px; } table.nodes { border-collapse: collapse; font-size: 12px; } table.nodes td { border-bottom: 1px solid #eee; padding: 2px 10px 2px 0; }
"""

SCRIPT = r"""
(function () {
  const DATA = JSON.parse(document.getElementById('graph-data').textContent);
  const svg = document.getElementById('graph');
  const W = +svg.dataset.width, H = +svg.dataset.height;
  const panel = document.getElementById('panel');
  const nodes = Array.from(document.querySelectorAll('.node'));
  const edges = Array.from(document.querySelectorAll('.edge'));
  let vb = {x: 0, y: 0, w: W, h: H};

  function apply() { svg.setAttribute('viewBox', [vb.x, vb.y, vb.w, vb.h].map(v => +v.toFixed(1)).join(' ')); }
  function aspect() { const r = svg.getBoundingClientRect(); return r.width > 0 && r.height > 0 ? r.height / r.width : H / W; }
  function fitWidth() { vb = {x: 0, y: 0, w: W, h: W * aspect()}; apply(); }
  function fitAll() {
    const a = aspect();
    vb = H / W > a ? {x: (W - H / a) / 2, y: 0, w: H / a, h: H} : {x: 0, y: (H - W * a) / 2, w: W, h: W * a};
    apply();
  }
  function toGraph(clientX, clientY) {
    const r = svg.getBoundingClientRect();
    return {x: vb.x + (clientX - r.left) / r.width * vb.w, y: vb.y + (clientY - r.top) / r.height * vb.h};
  }
  function zoom(factor, at) {
    const p = at || {x: vb.x + vb.w / 2, y: vb.y + vb.h / 2};
    const w = Math.min(Math.max(vb.w * factor, 80), W * 8);
    const f = w / vb.w;
    vb = {x: p.x - (p.x - vb.x) * f, y: p.y - (p.y - vb.y) * f, w: vb.w * f, h: vb.h * f};
    apply();
  }
  function centre(id) {
    const g = nodes.find(n => n.dataset.id === id);
    if (!g) return;
    const b = g.getBBox();
    vb = {x: b.x + b.width / 2 - vb.w / 2, y: b.y + b.height / 2 - vb.h / 2, w: vb.w, h: vb.h};
    apply();
  }

  function walk(start, next) {
    const seen = new Set([start]), todo = [start];
    while (todo.length) { for (const m of next[todo.pop()] || []) if (!seen.has(m)) { seen.add(m); todo.push(m); } }
    return seen;
  }
  function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }
  function link(id) {
    const a = el('a', DATA.nodes[id] ? DATA.nodes[id].full : id);
    a.addEventListener('click', () => { select(id); centre(id); });
    return a;
  }
  function rows(title, items, cells) {
    if (!items.length) return;
    panel.appendChild(el('h3', title));
    const t = el('table');
    for (const item of items) { const tr = el('tr'); for (const c of cells(item)) { const td = el('td'); td.append(c); tr.appendChild(td); } t.appendChild(tr); }
    panel.appendChild(t);
  }
  function show(id) {
    panel.replaceChildren();
    const n = DATA.nodes[id];
    if (!n) { panel.appendChild(el('p', 'Click a node to see its columns, effective options and source file.', 'empty')); return; }
    panel.appendChild(el('h2', n.full));
    panel.appendChild(el('p', n.kind + ' in project ' + n.project + (n.table_kind && n.table_kind !== 'stream' ? ' (' + n.table_kind + ')' : '') + (n.type ? ', type ' + n.type : ''), 'meta'));
    const src = el('p'); src.append('Source: '); src.appendChild(el('code', n.source, 'source')); panel.appendChild(src);
    if (n.description) panel.appendChild(el('p', n.description));
    const pk = new Set(n.primary_key || []);
    rows('Columns', n.columns || [], c => [c.name + (pk.has(c.name) ? ' (PK)' : ''), c.type, c.comment || '']);
    const locked = new Set(n.locked || []);
    rows('Effective options' + (n.mode ? ' (' + n.mode + ' mode)' : ''), Object.keys(n.options || {}).sort(),
         k => [k, n.options[k] + (locked.has(k) ? '  [locked]' : '')]);
    if (n.class_name) rows('Function', [['class', n.class_name], ['language', n.language || ''], ['returns', n.returns || '']], r => r);
    const inbound = DATA.edges.filter(e => e.to === id), outbound = DATA.edges.filter(e => e.from === id);
    rows(n.kind === 'task' ? 'Reads' : 'Written by', inbound, e => [link(e.from), e.relation + (e.columns.length ? ': ' + e.columns.join(', ') : '')]);
    rows(n.kind === 'task' ? 'Writes' : 'Read by', outbound, e => [link(e.to), e.relation + (e.columns.length ? ': ' + e.columns.join(', ') : '')]);
  }
  let picked = null;
  function select(id) {
    picked = id && DATA.nodes[id] ? id : null;
    const keep = picked ? new Set([...walk(picked, DATA.up), ...walk(picked, DATA.down)]) : null;
    for (const g of nodes) { g.classList.toggle('dim', !!keep && !keep.has(g.dataset.id)); g.classList.toggle('picked', g.dataset.id === picked); }
    for (const e of edges) e.classList.toggle('dim', !!keep && !(keep.has(e.dataset.from) && keep.has(e.dataset.to)));
    show(picked);
  }
  function search(text) {
    const q = text.trim().toLowerCase();
    const found = [];
    for (const g of nodes) {
      const n = DATA.nodes[g.dataset.id];
      const hit = !!q && [n.label, n.full, g.dataset.id].some(s => s.toLowerCase().includes(q));
      g.classList.toggle('match', hit);
      if (hit) found.push(g.dataset.id);
    }
    if (!picked) for (const g of nodes) g.classList.toggle('dim', !!q && !found.includes(g.dataset.id));
    document.getElementById('matches').textContent = q ? found.length + (found.length === 1 ? ' match' : ' matches') : '';
    return found;
  }

  const box = document.getElementById('search');
  box.addEventListener('input', () => search(box.value));
  box.addEventListener('keydown', ev => { if (ev.key === 'Enter') { const f = search(box.value); if (f.length) { select(f[0]); centre(f[0]); } } });
  document.getElementById('zoom-in').addEventListener('click', () => zoom(1 / 1.25));
  document.getElementById('zoom-out').addEventListener('click', () => zoom(1.25));
  document.getElementById('fit-width').addEventListener('click', fitWidth);
  document.getElementById('fit-all').addEventListener('click', fitAll);
  svg.addEventListener('wheel', ev => { ev.preventDefault(); zoom(ev.deltaY > 0 ? 1.15 : 1 / 1.15, toGraph(ev.clientX, ev.clientY)); }, {passive: false});
  let drag = null;
  svg.addEventListener('pointerdown', ev => { drag = {x: ev.clientX, y: ev.clientY, vb: {...vb}, moved: false}; });
  svg.addEventListener('pointermove', ev => {
    if (!drag) return;
    const r = svg.getBoundingClientRect(), dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) { drag.moved = true; svg.classList.add('panning'); }
    if (drag.moved) { vb = {x: drag.vb.x - dx / r.width * vb.w, y: drag.vb.y - dy / r.height * vb.h, w: vb.w, h: vb.h}; apply(); }
  });
  window.addEventListener('pointerup', () => { svg.classList.remove('panning'); setTimeout(() => { drag = null; }, 0); });
  for (const g of nodes) g.addEventListener('click', ev => { ev.stopPropagation(); if (!drag || !drag.moved) select(g.dataset.id); });
  svg.addEventListener('click', () => { if (!drag || !drag.moved) { select(null); search(box.value); } });
  window.addEventListener('resize', () => { vb.h = vb.w * aspect(); apply(); });

  fitWidth();
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get('zoom') > 0) zoom(1 / +hash.get('zoom'));
  if (hash.get('q')) { box.value = hash.get('q'); search(box.value); }
  if (hash.get('node')) { select(hash.get('node')); centre(hash.get('node')); }
  window.flinkxGraph = {fitWidth, fitAll, zoom, select, search, centre, viewBox: () => ({...vb})};
  document.body.dataset.ready = 'yes';
})();
"""


def _script_hash(script: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")


# no request of any kind: only this page's own script and styles run
CSP = f"default-src 'none'; script-src '{_script_hash(SCRIPT)}'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
