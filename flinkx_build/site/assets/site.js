/* flinkx docs: search (every page) and the lineage view (lineage.html). No network: the data
   files are scripts of the site itself, loaded on demand. Workspace text only ever reaches the
   page through textContent and setAttribute, never as HTML. */
(function () {
  'use strict';
  var root = document.body.getAttribute('data-root') || '';
  var page = document.body.getAttribute('data-page') || '';

  function loadScript(src, done) {
    var s = document.createElement('script');
    s.src = root + src;
    s.onload = done;
    document.head.appendChild(s);
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* ---- search ------------------------------------------------------------------------- */
  var input = document.getElementById('search');
  var list = document.getElementById('search-results');
  var index = null, loading = false, waiting = null, results = [], active = -1;
  var KIND_RANK = { column: 0, table: 1, task: 2, view: 3, function: 4, project: 5 };

  function withIndex(then) {
    if (index) { then(); return; }
    if (window.FLINKX_SEARCH) { index = window.FLINKX_SEARCH; then(); return; }
    waiting = then;  // the latest request runs once the index has loaded (typing while it loads)
    if (loading) return;
    loading = true;
    loadScript('data/search.js', function () {
      index = window.FLINKX_SEARCH || [];
      if (waiting) waiting();
      waiting = null;
    });
  }

  var lowered = null;  // [name, detail] of each row in lower case, made once

  function find(query) {
    var q = query.trim().toLowerCase();
    if (!q) return [];
    if (!lowered) lowered = index.map(function (row) { return [row[0].toLowerCase(), row[2].toLowerCase()]; });
    var found = [];
    for (var i = 0; i < index.length; i++) {
      var name = lowered[i][0], score;
      if (name === q) score = 0;
      else if (name.indexOf(q) === 0) score = 1;
      else if (name.indexOf(q) >= 0) score = 2;
      else if (lowered[i][1].indexOf(q) >= 0) score = 3;
      else continue;
      found.push([score, KIND_RANK[index[i][1]] || 9, name.length, i]);
      if (found.length > 5000) break;
    }
    found.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || a[3] - b[3]; });
    return found.slice(0, 50).map(function (f) { return index[f[3]]; });
  }

  function setActive(i) {
    var items = list.querySelectorAll('[role=option]');
    if (active >= 0 && items[active]) items[active].setAttribute('aria-selected', 'false');
    active = i;
    if (active >= 0 && items[active]) {
      items[active].setAttribute('aria-selected', 'true');
      input.setAttribute('aria-activedescendant', items[active].id);
      items[active].scrollIntoView({ block: 'nearest' });
    } else {
      input.removeAttribute('aria-activedescendant');
    }
  }

  function show() {
    list.textContent = '';
    results = find(input.value);
    results.forEach(function (row, i) {
      var li = el('li', 'result');
      li.id = 'search-result-' + i;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', 'false');
      var a = el('a', 'result-link');
      a.href = root + row[3];
      a.tabIndex = -1;
      a.appendChild(el('span', 'result-name', row[0]));
      a.appendChild(el('span', 'result-kind kind-' + row[1], row[1]));
      a.appendChild(el('span', 'result-detail', row[2]));
      li.appendChild(a);
      list.appendChild(li);
    });
    if (!results.length && input.value.trim()) list.appendChild(el('li', 'empty', 'Nothing found'));
    var open = !!input.value.trim();
    list.hidden = !open;
    input.setAttribute('aria-expanded', open ? 'true' : 'false');
    active = -1;
    if (results.length) setActive(0);
  }

  function go(i) {
    if (results[i]) window.location.href = root + results[i][3];
  }

  if (input && list) {
    input.addEventListener('input', function () { withIndex(show); });
    input.addEventListener('focus', function () { withIndex(function () {}); });
    input.addEventListener('keydown', function (ev) {
      if (ev.key === 'ArrowDown') { ev.preventDefault(); if (results.length) setActive((active + 1) % results.length); }
      else if (ev.key === 'ArrowUp') { ev.preventDefault(); if (results.length) setActive((active - 1 + results.length) % results.length); }
      else if (ev.key === 'Enter') { ev.preventDefault(); go(active < 0 ? 0 : active); }
      else if (ev.key === 'Escape') { input.value = ''; show(); }
    });
    document.addEventListener('keydown', function (ev) {
      var t = ev.target, typing = t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA');
      if (ev.key === '/' && !typing) { ev.preventDefault(); input.focus(); }
    });
  }

  /* ---- lineage view ------------------------------------------------------------------- */
  if (page !== 'lineage') return;
  var COLUMN_CAP = 40;
  var G, ids = {}, ups = [], downs = [];
  var state = { center: -1, up: 1, down: 1, expanded: [], caps: {} };
  var view = document.getElementById('lineage');
  var status = document.getElementById('lineage-status');
  var upSel = document.getElementById('depth-up'), downSel = document.getElementById('depth-down');

  function readHash() {
    var params = {};
    window.location.hash.replace(/^#/, '').split('&').forEach(function (part) {
      var eq = part.indexOf('=');
      if (eq > 0) {
        try { params[part.slice(0, eq)] = decodeURIComponent(part.slice(eq + 1)); } catch (err) { /* a bad escape: ignore */ }
      }
    });
    state.center = ids.hasOwnProperty(params.node) ? ids[params.node] : busiest();
    state.up = clampDepth(params.up, 1);
    state.down = clampDepth(params.down, 1);
    state.expanded = [];
    state.caps = {};
    upSel.value = String(state.up);
    downSel.value = String(state.down);
  }

  function clampDepth(text, fallback) {
    var n = parseInt(text, 10);
    return isNaN(n) ? fallback : Math.max(0, Math.min(5, n));
  }

  function busiest() {
    var best = 0, most = -1;
    for (var i = 0; i < G.nodes.length; i++) {
      var n = ups[i].length + downs[i].length;
      if (G.nodes[i][1] === 'table' && n > most) { most = n; best = i; }
    }
    return best;
  }

  function writeHash() {
    var h = 'node=' + encodeURIComponent(G.nodes[state.center][0]) + '&up=' + state.up + '&down=' + state.down;
    if (window.location.hash.replace(/^#/, '') !== h) window.location.hash = h;
    else render();
  }

  function placement() {
    var column = {};
    column[state.center] = 0;
    function walk(start, edges, sign, depth) {
      var frontier = [start];
      for (var d = 1; d <= depth; d++) {
        var next = [];
        frontier.forEach(function (n) {
          edges[n].forEach(function (m) {
            if (!column.hasOwnProperty(m)) { column[m] = sign * d; next.push(m); }
          });
        });
        frontier = next;
      }
    }
    walk(state.center, ups, -1, state.up);
    walk(state.center, downs, 1, state.down);
    state.expanded.forEach(function (n) {
      if (!column.hasOwnProperty(n)) return;
      ups[n].forEach(function (m) { if (!column.hasOwnProperty(m)) column[m] = column[n] - 1; });
      downs[n].forEach(function (m) { if (!column.hasOwnProperty(m)) column[m] = column[n] + 1; });
    });
    return column;
  }

  function label(n) { return G.nodes[n][2] + '.' + G.nodes[n][3]; }

  function render() {
    var column = placement();
    var byColumn = {};
    Object.keys(column).forEach(function (k) {
      var c = column[k];
      (byColumn[c] = byColumn[c] || []).push(+k);
    });
    var order = Object.keys(byColumn).map(Number).sort(function (a, b) { return a - b; });
    view.textContent = '';
    var grid = el('div', 'lineage-grid');
    var shown = {};
    var hidden = 0;
    order.forEach(function (c) {
      var col = el('div', 'lineage-column');
      col.setAttribute('role', 'group');
      col.setAttribute('aria-label', c === 0 ? 'Centre' : (c < 0 ? -c + ' step(s) upstream' : c + ' step(s) downstream'));
      col.appendChild(el('p', 'column-title', c === 0 ? 'centre' : (c < 0 ? 'upstream ' + -c : 'downstream ' + c)));
      var members = byColumn[c].sort(function (a, b) { return label(a) < label(b) ? -1 : label(a) > label(b) ? 1 : 0; });
      var cap = state.caps[c] || COLUMN_CAP;
      members.slice(0, cap).forEach(function (n) { col.appendChild(nodeBox(n)); shown[n] = true; });
      if (members.length > cap) {
        hidden += members.length - cap;
        var more = el('button', 'more', 'Show ' + Math.min(COLUMN_CAP, members.length - cap) + ' more of ' + (members.length - cap));
        more.type = 'button';
        more.addEventListener('click', function () { state.caps[c] = cap + COLUMN_CAP; render(); });
        col.appendChild(more);
      }
      grid.appendChild(col);
    });
    view.appendChild(grid);
    drawEdges(grid, shown);
    var count = Object.keys(shown).length;
    status.textContent = 'Centred on ' + label(state.center) + ' (' + G.nodes[state.center][1] + '): ' + count + ' nodes shown' +
      (hidden ? ', ' + hidden + ' more behind "Show more"' : '') + '.';
  }

  function nodeBox(n) {
    var node = G.nodes[n];
    var box = el('div', 'lnode kind-' + node[1] + (n === state.center ? ' centre' : ''));
    box.setAttribute('data-id', node[0]);
    var expand = el('button', 'expand', node[3]);
    expand.type = 'button';
    var open = state.expanded.indexOf(n) >= 0 || n === state.center;
    expand.setAttribute('aria-label', node[1] + ' ' + label(n) + ': show its neighbours');
    expand.setAttribute('aria-expanded', open ? 'true' : 'false');
    expand.title = label(n) + ' (' + node[1] + ', ' + ups[n].length + ' in, ' + downs[n].length + ' out)';
    expand.addEventListener('click', function () {
      if (state.expanded.indexOf(n) < 0) state.expanded.push(n);
      render();
      var again = view.querySelector('.lnode[data-id="' + cssEscape(node[0]) + '"] .expand');
      if (again) again.focus();
    });
    box.appendChild(expand);
    box.appendChild(el('span', 'project', node[2]));
    var links = el('span', 'links');
    var pageLink = el('a', 'open', 'page');
    pageLink.href = 'pages/' + node[4];
    pageLink.setAttribute('aria-label', 'Open the page of ' + label(n));
    var centre = el('a', 'recentre', 'centre');
    centre.href = '#node=' + encodeURIComponent(node[0]) + '&up=' + state.up + '&down=' + state.down;
    centre.setAttribute('aria-label', 'Centre the lineage on ' + label(n));
    links.appendChild(pageLink);
    links.appendChild(centre);
    box.appendChild(links);
    return box;
  }

  function cssEscape(text) {
    return window.CSS && CSS.escape ? CSS.escape(text) : text.replace(/["\\]/g, '\\$&');
  }

  function drawEdges(grid, shown) {
    var NS = 'http://www.w3.org/2000/svg';
    var svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('class', 'edges');
    svg.setAttribute('aria-hidden', 'true');
    var base = grid.getBoundingClientRect();
    svg.setAttribute('width', grid.scrollWidth);
    svg.setAttribute('height', grid.scrollHeight);
    var boxes = {};
    grid.querySelectorAll('.lnode').forEach(function (b) { boxes[ids[b.getAttribute('data-id')]] = b.getBoundingClientRect(); });
    G.edges.forEach(function (edge) {
      var a = boxes[edge[0]], b = boxes[edge[1]];
      if (!a || !b || !shown[edge[0]] || !shown[edge[1]] || b.left <= a.left) return;
      var x1 = a.right - base.left, y1 = a.top + a.height / 2 - base.top;
      var x2 = b.left - base.left, y2 = b.top + b.height / 2 - base.top;
      var mid = (x1 + x2) / 2;
      var path = document.createElementNS(NS, 'path');
      path.setAttribute('d', 'M' + x1 + ',' + y1 + ' C' + mid + ',' + y1 + ' ' + mid + ',' + y2 + ' ' + x2 + ',' + y2);
      path.setAttribute('class', 'edge rel-' + G.relations[edge[2]]);
      svg.appendChild(path);
    });
    grid.insertBefore(svg, grid.firstChild);
  }

  loadScript('data/graph.js', function () {
    G = window.FLINKX_GRAPH;
    G.nodes.forEach(function (n, i) { ids[n[0]] = i; ups.push([]); downs.push([]); });
    G.edges.forEach(function (e) { downs[e[0]].push(e[1]); ups[e[1]].push(e[0]); });
    readHash();
    render();
    window.addEventListener('hashchange', function () { readHash(); render(); });
    upSel.addEventListener('change', function () { state.up = +upSel.value; writeHash(); });
    downSel.addEventListener('change', function () { state.down = +downSel.value; writeHash(); });
    document.getElementById('lineage-reset').addEventListener('click', function () { state.expanded = []; state.caps = {}; render(); });
  });
})();
