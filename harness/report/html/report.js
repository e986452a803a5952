// dmconf HTML report: renders the report embedded in <script id="report-data"> into the page.
// Plain DOM and SVG, no library. Every string from the report reaches the page through
// textContent or setAttribute, never as markup. The filter state and the page of the list
// live in the URL fragment (#backend=..&op=..&verdict=..&rule=..&type=..&page=..), so a
// count's link, the back button and a bookmark all land on the same list.
//
// The page's data comes in two parts (html_report.h): "report-data" before this script, what
// the summary, the matrices and every count need; "report-failures" after it, the failing
// cases the page embeds (at most its cap). The first part is drawn at once; the failing cases
// are read and listed, a page at a time, when the document has been read.
'use strict';
(function () {
  const started = performance.now();
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const SVG = 'http://www.w3.org/2000/svg';
  // The orders of the rows and columns: the page data's vocabulary, written from the op table,
  // the verdict table and the element types (html_report.h, HtmlVocabulary).
  const OPS = data.vocabulary.ops;
  const VERDICTS = data.vocabulary.verdicts;
  const TYPES = data.vocabulary.element_types;
  // A status-matrix cell of the page (op x element type) sums the report's cells over rank and
  // lane: failing when any is failing, implemented when all are, unsupported when none ran,
  // else partial (some ranks or lanes implemented, others unsupported).
  const MARKS = {implemented: '\u2713', partial: '\u25d0', unsupported: '\u2013',
                 failing: '\u2717'};
  const FILTERS = [['backend', 'backend'], ['op', 'op'], ['verdict', 'verdict'],
                   ['rule', 'rule'], ['type', 'element type'], ['mistake', 'named mistake']];
  const PAGE = 100;         // failures per page of the list
  const MAX_SLICES = 4;     // output slices drawn per failure
  const MAX_CELLS = 64;     // cells per side of a slice; bigger slices are binned
  const ALL = '\u0001all';  // the value of a filter's "(all)" option

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    for (const c of children) e.append(c instanceof Node ? c : String(c));
    return e;
  }
  function svg(tag, attrs) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    return e;
  }
  function byOrder(order) {
    return (a, b) => {
      const i = order.indexOf(a), j = order.indexOf(b);
      if (i !== j) return (i < 0 ? 1e9 : i) - (j < 0 ? 1e9 : j);
      return a < b ? -1 : a > b ? 1 : 0;
    };
  }
  function text(v) { return typeof v === 'string' ? v : JSON.stringify(v); }
  function row(th, ...tds) { return el('tr', {}, el('th', {}, th), ...tds.map(d => el('td', {}, d))); }
  function section(id, title) {
    const s = el('section', {id: id}, el('h2', {}, title));
    document.getElementById('main').append(s);
    return s;
  }

  // Every failing case the page embeds (a new failure or a known one), with its backend:
  // read by readFailures() once the document has been read.
  const failures = [];
  function readFailures() {
    const lists = JSON.parse(document.getElementById('report-failures').textContent);
    data.backends.forEach((b, i) => { for (const c of lists[i]) failures.push({b: b.name, c: c}); });
  }
  const capped = data.embedded.failing > data.embedded.embedded;

  function summary() {
    const s = data.summary;
    const main = document.getElementById('main');
    const bad = s.new_failures > 0 || (s.file_errors || 0) > 0;
    main.append(el('p', {}, el('span', {class: 'banner ' + (bad ? 'bad' : 'good'), id: 'verdict'},
        bad ? s.new_failures + ' new failure(s)' : 'No new failure')));
    const t = el('table', {id: 'summary'});
    for (const k of ['backends', 'cases', 'new_failures', 'known_failures', 'file_errors',
                     'stale_expectations', 'unexercised_slices']) {
      if (k in s) t.append(row(k.replace(/_/g, ' '), el('span', {'data-key': k}, text(s[k]))));
    }
    main.append(t);
    if (capped) main.append(capNote());
  }

  // Above the cap: how many failing cases the page leaves out, and where they are.
  function capNote() {
    const e = data.embedded, out = e.failing - e.embedded;
    const report = e.report || 'REPORT.json';
    const p = el('p', {id: 'cap-note', class: 'banner warn'},
        'This page embeds ' + e.embedded + ' of the ' + e.failing + ' failing cases (its cap is ' +
        e.cap + '); the other ' + out + ' are not in the page. Every case, these included, is ' +
        'counted in the summary, the matrices, the causes and the expectations; ' +
        'the list of failures shows the embedded ones. ',
        e.report ? el('span', {}, 'All of them are in the JSON report ', el('code', {}, e.report),
                      ' (backends[].cases), e.g. ')
                 : el('span', {}, 'The run wrote no JSON report (dmconf run --report FILE ' +
                      'writes every case); with one, e.g. '),
        el('code', {}, 'jq \'.backends[].cases[] | select(.failure or .known)\' ' + report),
        '; to embed more: ',
        el('code', {}, 'dmconf report html ' + report + ' --max-failures N -o page.html'), '.');
    p.dataset.failing = e.failing;
    p.dataset.embedded = e.embedded;
    p.dataset.leftOut = out;
    p.dataset.cap = e.cap;
    return p;
  }

  // backend x op x verdict, summed over element types from the report's "counts".
  function matrix() {
    const s = section('matrix-section', 'Backend x op x verdict');
    // A count links to its failing cases: those of the op and verdict, over every case.
    const linkable = new Set();
    for (const b of data.backends) {
      for (const [op, verdicts] of Object.entries(b.failing_counts)) {
        for (const v of Object.keys(verdicts)) linkable.add(b.name + '\u0000' + op + '\u0000' + v);
      }
    }
    const seen = new Set();
    const rows = [];
    for (const b of data.backends) {
      for (const op of Object.keys(b.counts).sort(byOrder(OPS))) {
        const sums = {};
        for (const verdicts of Object.values(b.counts[op])) {
          for (const [v, n] of Object.entries(verdicts)) {
            sums[v] = (sums[v] || 0) + n;
            seen.add(v);
          }
        }
        rows.push({b: b.name, op: op, sums: sums});
      }
    }
    const cols = [...seen].sort(byOrder(VERDICTS));
    const t = el('table', {id: 'matrix'});
    t.append(el('tr', {}, el('th', {}, 'backend'), el('th', {}, 'op'),
                ...cols.map(v => el('th', {}, v)), el('th', {}, 'cases')));
    for (const r of rows) {
      const tr = el('tr', {}, el('td', {}, r.b), el('td', {}, r.op));
      let total = 0;
      for (const v of cols) {
        const n = r.sums[v] || 0;
        total += n;
        const key = r.b + '\u0000' + r.op + '\u0000' + v;
        const failing = linkable.has(key);
        const td = el('td', {class: 'n ' + (n === 0 ? '' : failing ? 'fail' : 'ok')});
        if (n > 0) {
          td.dataset.backend = r.b;
          td.dataset.op = r.op;
          td.dataset.verdict = v;
          td.dataset.count = n;
          td.append(failing ? el('a', {href: '#' + new URLSearchParams(
              {backend: r.b, op: r.op, verdict: v})}, n) : String(n));
        }
        tr.append(td);
      }
      tr.append(el('td', {class: 'n'}, total));
      t.append(tr);
    }
    s.append(t, el('p', {class: 'legend'},
        'A red count links to its failing cases; known failures are listed with their reason.'));
  }

  // Per backend: op rows x element type columns from the report's status_matrix; a cell's
  // hover text lists its ranks and lanes, and "rank and lane detail" lists every report cell.
  function statusMatrix() {
    const s = section('status-section', 'Implementation status (op x element type)');
    for (const b of data.backends) {
      if (!b.status_matrix) continue;
      const cells = new Map();
      for (const m of b.status_matrix) {
        const key = m.op + '\u0000' + m.element_type;
        if (!cells.has(key)) cells.set(key, []);
        cells.get(key).push(m);
      }
      const ops = [...new Set(b.status_matrix.map(m => m.op))].sort(byOrder(OPS));
      const types = [...new Set(b.status_matrix.map(m => m.element_type))].sort(byOrder(TYPES));
      const t = el('table', {class: 'status'});
      t.dataset.backend = b.name;
      t.append(el('tr', {}, el('th', {}, 'op'), ...types.map(ty => el('th', {}, ty))));
      for (const op of ops) {
        const tr = el('tr', {}, el('th', {}, op));
        for (const ty of types) tr.append(statusCell(cells.get(op + '\u0000' + ty) || []));
        t.append(tr);
      }
      const detail = el('details', {class: 'status-detail'},
                        el('summary', {}, 'rank and lane detail (' + b.status_matrix.length +
                                       ' cells)'));
      const dt = el('table', {});
      dt.append(el('tr', {}, ...['op', 'element type', 'rank', 'lane', 'status', 'cases']
                                 .map(h => el('th', {}, h))));
      for (const m of b.status_matrix) {
        dt.append(el('tr', {}, el('td', {}, m.op), el('td', {}, m.element_type),
                     el('td', {class: 'n'}, m.rank < 0 ? '?' : m.rank), el('td', {}, m.lane),
                     el('td', {class: 'st-' + m.status}, m.status),
                     el('td', {class: 'n'}, m.cases)));
      }
      detail.append(dt);
      s.append(el('h3', {}, b.name), el('div', {class: 'status-wrap'}, t), detail);
    }
    s.append(el('p', {class: 'legend'}, MARKS.implemented + ' implemented (its cases ran and ' +
        'passed), ' + MARKS.failing + ' failing (a case failed, new or known), ' +
        MARKS.unsupported + ' unsupported (no case ran), ' + MARKS.partial + ' partial (some ' +
        'ranks or lanes unsupported); the number is the cases. Hover a cell for its ranks and ' +
        'lanes.'));
  }

  function statusCell(list) {
    if (list.length === 0) return el('td', {});
    const has = st => list.some(m => m.status === st);
    const status = has('failing') ? 'failing' : !has('unsupported') ? 'implemented'
                 : !has('implemented') ? 'unsupported' : 'partial';
    const cases = list.reduce((n, m) => n + m.cases, 0);
    const td = el('td', {class: 'n st-' + status,
                         title: list.map(m => 'rank ' + (m.rank < 0 ? '?' : m.rank) + ', ' +
                                         m.lane + ': ' + m.status + ' (' + m.cases +
                                         ' cases)').join('\n')},
                  MARKS[status] + ' ' + cases);
    td.dataset.op = list[0].op;
    td.dataset.type = list[0].element_type;
    td.dataset.status = status;
    td.dataset.cases = cases;
    return td;
  }

  function mistakeOf(f) { return f.c.diagnosis ? f.c.diagnosis.mistake : ''; }

  // Per backend, its new failures grouped by cause: the verdict and the mistake the diagnosis
  // names (as the text summary groups them), the largest group first, counted over every case
  // (the report-data's "causes"). Each group is collapsed: its embedded cases, a link to them
  // in the list, and the source map of its smallest shrunk case.
  function causes(s) {
    let shown = 0;
    for (const b of data.backends) {
      const embedded = new Map();
      for (const f of failures) {
        if (f.b !== b.name || !f.c.failure) continue;
        const key = f.c.verdict + '\u0000' + mistakeOf(f);
        if (!embedded.has(key)) embedded.set(key, []);
        embedded.get(key).push(f.c);
      }
      if (b.causes.length === 0) continue;
      ++shown;
      const list = b.causes.map(g => ({verdict: g.verdict, mistake: g.mistake, count: g.cases,
                                       summary: g.summary,
                                       cases: embedded.get(g.verdict + '\u0000' + g.mistake) || []}))
                           .sort((x, y) => y.count - x.count);
      const n = list.reduce((k, g) => k + g.count, 0);
      const box = el('div', {class: 'causes'});
      box.dataset.backend = b.name;
      box.dataset.failures = n;
      box.dataset.causes = list.length;
      box.append(el('h3', {}, b.name + ': ' + n + ' new failure(s), ' + list.length +
                    ' cause(s)' + (list.length === 1 ? ': ' + causeName(list[0]) : '')));
      for (const g of list) box.append(causeGroup(b.name, g));
      s.append(box);
    }
    if (shown === 0) s.append(el('p', {}, 'No new failure.'));
  }

  function causeName(g) {
    return g.verdict + ' ' + (g.mistake || '(no mistake named)');
  }

  const MAX_LISTED = 200;  // case ids listed per cause; the link shows them all
  function causeGroup(backend, g) {
    const d = el('details', {class: 'cause'},
                 el('summary', {}, g.count + ' \u00d7 ' + causeName(g) +
                    (g.mistake && g.summary ? ': ' + g.summary : '')));
    d.dataset.verdict = g.verdict;
    d.dataset.mistake = g.mistake;
    d.dataset.count = g.count;
    d.dataset.embedded = g.cases.length;
    d.append(el('p', {}, el('a', {href: '#' + new URLSearchParams(
        {backend: backend, verdict: g.verdict, mistake: g.mistake})},
        'show them in the list of failures (with any known failures of the same cause)')));
    const mapped = g.cases.filter(c => c.shrunk && c.shrunk.source_map)
                          .sort((x, y) => x.shrunk.to_elements - y.shrunk.to_elements)[0];
    if (mapped) d.append(sourceMap(mapped.shrunk));
    const ul = el('ul', {class: 'cause-cases'});
    for (const c of g.cases.slice(0, MAX_LISTED)) {
      const li = el('li', {}, el('code', {}, c.id));
      if (c.shrunk) {
        li.append(' \u2192 ', el('code', {}, c.shrunk.id), ' (' + c.shrunk.to_elements +
                  ' data elements)');
      }
      ul.append(li);
    }
    d.append(ul);
    const notes = [];
    if (g.cases.length > MAX_LISTED) notes.push((g.cases.length - MAX_LISTED) + ' more: follow the link above');
    if (g.count > g.cases.length) notes.push((g.count - g.cases.length) + ' not embedded in this page');
    if (notes.length) d.append(el('p', {class: 'legend'}, notes.join('; ')));
    return d;
  }

  // Where each output element of a shrunk case came from: one row per index over the leading
  // axes, one column per index of the last axis; a cell holds the flat index of the data
  // element it holds (red, with the one it should hold, when that is another).
  function sourceMap(shrunk) {
    const m = shrunk.source_map;
    const rank = m.shape.length;
    const W = rank >= 1 ? Math.max(1, m.shape[rank - 1]) : 1;
    const fig = el('figure', {class: 'srcmap'});
    const t = el('table', {class: 'srcmap'});
    t.dataset.case = shrunk.id;
    t.append(el('tr', {}, el('th', {}, 'output'),
                ...Array.from({length: W}, (_, j) => el('th', {}, rank >= 1 ? '[.., ' + j + ']'
                                                                          : '[]'))));
    const name = i => i < 0 ? 'none' : '[' + multiIndex(m.input_shape, i).join(',') + '] (#' +
                                       i + ')';
    for (let r = 0; r * W < m.holds.length; ++r) {
      const lead = multiIndex(m.shape, r * W).slice(0, Math.max(0, rank - 1));
      const tr = el('tr', {}, el('th', {}, '[' + lead.concat([':']).join(',') + ']'));
      for (let j = 0; j < W && r * W + j < m.holds.length; ++j) {
        const k = r * W + j, h = m.holds[k], e = m.expected[k];
        const wrong = h !== e;
        const td = el('td', {class: 'n' + (wrong ? ' wrong' : ' right'),
                             title: 'output [' + multiIndex(m.shape, k).join(',') + '] holds input ' +
                                    name(h) + (wrong ? '; should hold input ' + name(e) : '')},
                      h < 0 ? '\u00b7' : String(h));
        if (wrong) td.append(el('small', {}, ' (' + (e < 0 ? '\u00b7' : e) + ')'));
        td.dataset.out = k;
        td.dataset.holds = h;
        td.dataset.expected = e;
        tr.append(td);
      }
      t.append(tr);
    }
    fig.append(t, el('figcaption', {}, 'Source map of the shrunk case ', el('code', {}, shrunk.id),
        ': each output element shows the input element it holds, as a flat index over the ' +
        'input shape [' + m.input_shape.join(',') + '] (hover: both indices); red: moved, with ' +
        'the index it should hold in brackets.'));
    return fig;
  }

  function filters(s) {
    const box = el('div', {class: 'filters', id: 'filters'});
    const fields = {backend: f => f.b, op: f => f.c.op, verdict: f => f.c.verdict,
                    rule: f => f.c.rule, type: f => f.c.element_type, mistake: mistakeOf};
    for (const [key, label] of FILTERS) {
      const values = [...new Set(failures.map(fields[key]))].sort();
      // The first option (all) is told apart by its index: '' is a real rule value (none).
      const sel = el('select', {id: 'filter-' + key}, el('option', {value: ALL}, '(all)'));
      for (const v of values) sel.append(el('option', {value: v}, v === '' ? '(none)' : v));
      sel.addEventListener('change', () => {
        const p = state();
        if (sel.selectedIndex === 0) p.delete(key); else p.set(key, sel.value);
        p.delete('page');
        location.hash = p.toString();
      });
      box.append(el('label', {}, label + ' ', sel));
    }
    const pager = () => el('nav', {class: 'pager'},
        el('button', {type: 'button', class: 'page-prev'}, '\u2190 previous'), ' ',
        el('span', {class: 'page-info'}), ' ',
        el('button', {type: 'button', class: 'page-next'}, 'next \u2192'));
    s.replaceChildren(s.firstChild, box, el('p', {id: 'failure-count'}), pager(),
                      el('div', {id: 'failures'}), pager());
    for (const [cls, step] of [['page-prev', -1], ['page-next', 1]]) {
      for (const b of s.querySelectorAll('.' + cls)) {
        b.addEventListener('click', () => {
          const p = state();
          p.set('page', String(Number(document.getElementById('failures').dataset.page) + step));
          location.hash = p.toString();
        });
      }
    }
    return fields;
  }

  function state() { return new URLSearchParams(location.hash.replace(/^#/, '')); }

  // The failing cases that match the filters, PAGE of them a page; the page in the fragment
  // (from 1; out of range: the nearest page).
  function renderFailures(fields) {
    const p = state();
    for (const [key] of FILTERS) {
      const sel = document.getElementById('filter-' + key);
      sel.value = p.has(key) ? p.get(key) : ALL;
    }
    const match = failures.filter(f => FILTERS.every(([key]) => !p.has(key) ||
                                                      fields[key](f) === p.get(key)));
    const pages = Math.max(1, Math.ceil(match.length / PAGE));
    const page = Math.min(pages, Math.max(1, Math.floor(Number(p.get('page'))) || 1));
    const first = (page - 1) * PAGE;
    const shown = match.slice(first, first + PAGE);
    const list = document.getElementById('failures');
    list.replaceChildren(...shown.map(failureBox));
    list.dataset.matching = match.length;
    list.dataset.shown = shown.length;
    list.dataset.page = page;
    list.dataset.pages = pages;
    list.dataset.first = first;
    document.getElementById('failure-count').textContent =
        match.length + ' of the ' + failures.length + ' failing cases in this page match' +
        (capped ? ' (' + (data.embedded.failing - data.embedded.embedded) +
                  ' more failing cases are not embedded: see the note at the top)' : '') +
        (match.length > 0 ? '; cases ' + (first + 1) + '\u2013' + (first + shown.length) +
                            ' are shown' : '');
    for (const e of document.querySelectorAll('#failures-section .page-info')) {
      e.textContent = 'page ' + page + ' of ' + pages;
    }
    for (const e of document.querySelectorAll('#failures-section .page-prev')) e.disabled = page <= 1;
    for (const e of document.querySelectorAll('#failures-section .page-next')) e.disabled = page >= pages;
  }

  function failureBox(f) {
    const c = f.c;
    const box = el('div', {class: 'failure' + (c.known ? ' known' : '')});
    box.dataset.backend = f.b;
    box.dataset.case = c.id;
    box.dataset.op = c.op;
    box.dataset.verdict = c.verdict;
    box.dataset.rule = c.rule;
    box.dataset.type = c.element_type;
    box.append(el('h3', {}, f.b + ' \u2014 ' + c.verdict + (c.known ? ' (known)' : '') + ': ',
                  el('code', {}, c.id)));
    const t = el('table', {});
    t.append(row('op', c.op + (c.lane ? ' (' + c.lane + ')' : '')));
    if (c.invocation) {
      t.append(row('attributes', el('code', {}, c.invocation.attributes)));
      t.append(row('inputs', el('code', {}, c.invocation.inputs.map(
          i => i.name + ': ' + i.element_type + ' ' + (i.partial_shape !== undefined ?
              i.partial_shape : '[' + i.shape.join(',') + ']')).join('; '))));
    } else {
      t.append(row('element type', c.element_type));
    }
    t.append(row('expected', c.expected + (c.rule ? ' (' + c.rule + ')' : '')));
    t.append(row('came back', c.verdict + (c.detail ? ': ' + c.detail : '')));
    if (c.mismatch) {
      const m = c.mismatch;
      t.append(row('first wrong', el('code', {}, '[' + m.index.join(',') + '] expected ' +
                   m.expected_bits + ', got ' + m.actual_bits + ' (' + m.differing + ' of ' +
                   m.total + ' elements differ)')));
    }
    if (c.diagnosis) {
      t.append(row('diagnosis', (c.diagnosis.mistake ? c.diagnosis.mistake + ': ' : '') +
                   c.diagnosis.summary));
    }
    if (c.witness) {
      const w = c.witness;
      const cell = el('span', {class: 'witness'}, el('code', {}, w.instance));
      if (w.case_file) cell.append(' saved as ', el('code', {}, w.case_file));
      t.append(row('witness', cell));
      if (w.repro) t.append(row('witness repro', el('code', {class: 'repro'}, w.repro)));
    }
    if (c.known) {
      t.append(row('known', c.known.reason + (c.known.link ? ' \u2014 ' + c.known.link : '')));
    }
    if (c.backend_output) {
      t.append(row('backend output', el('pre', {class: 'output'}, c.backend_output)));
    }
    if (c.repro) t.append(row('repro', el('code', {class: 'repro'}, c.repro)));
    if (c.vector_file) t.append(row('saved vector', el('code', {}, c.vector_file)));
    if (c.replays) {
      t.append(row('replays', c.replays.failed + ' of ' + c.replays.count +
                   ' replays failed (first run: ' + c.replays.first_verdict + '); not shrunk'));
    }
    if (c.shrunk) {
      const s = c.shrunk;
      const cell = el('span', {class: 'shrunk'}, el('code', {}, s.id),
                      s.case ? ' (' + s.case + ')'
                             : ' (' + s.from_elements + ' -> ' + s.to_elements + ' data elements)');
      for (const th of s.thresholds || []) {
        cell.append(el('br'), 'fails from ' + th.what + (th.what.startsWith('dim ') ? ' = ' : ' ') +
                    th.fails_from + '; passes at ' + th.passes_at);
      }
      if (s.repro) cell.append(el('br'), el('code', {class: 'repro'}, s.repro));
      if (s.vector_file) cell.append(el('br'), el('code', {}, s.vector_file));
      t.append(row('shrunk to', cell));
      if (s.diagnosis) {
        t.append(row('shrunk diagnosis', (s.diagnosis.mistake ? s.diagnosis.mistake + ': ' : '') +
                     s.diagnosis.summary));
      }
    }
    box.append(t);
    const mapped = c.shrunk && c.shrunk.source_map;
    if (mapped) box.append(sourceMap(c.shrunk));
    if (c.mismatch && c.mismatch.listed.length > 0) {
      // A layout bug's heat map is mostly red: with a source map it is folded away.
      box.append(mapped ? el('details', {}, el('summary', {}, 'heat map of the original case'),
                             heatmap(c.mismatch))
                        : heatmap(c.mismatch));
    }
    return box;
  }

  function multiIndex(shape, flat) {
    const idx = new Array(shape.length).fill(0);
    for (let d = shape.length - 1; d >= 0; --d) {
      if (shape[d] > 0) {
        idx[d] = flat % shape[d];
        flat = Math.floor(flat / shape[d]);
      }
    }
    return idx;
  }

  // Where the output is wrong: the last two axes are rows and columns; each slice over the
  // leading axes that holds a listed wrong element is drawn, binned above MAX_CELLS a side.
  function heatmap(m) {
    const shape = m.shape, rank = shape.length;
    const H = rank >= 2 ? shape[rank - 2] : 1, W = rank >= 1 ? shape[rank - 1] : 1;
    const per = Math.max(1, H * W);
    const slices = new Map();
    for (const w of m.listed) {
      const k = Math.floor(w[0] / per);
      if (!slices.has(k)) slices.set(k, []);
      slices.get(k).push(w);
    }
    const bh = Math.ceil(H / MAX_CELLS) || 1, bw = Math.ceil(W / MAX_CELLS) || 1;
    const rows = Math.ceil(H / bh) || 1, cols = Math.ceil(W / bw) || 1;
    const cs = Math.max(3, Math.min(16, Math.floor(320 / Math.max(rows, cols))));
    const div = el('div', {class: 'heatmap'});
    let drawn = 0;
    for (const [k, list] of slices) {
      if (drawn++ >= MAX_SLICES) break;
      const s = svg('svg', {width: cols * cs, height: rows * cs, class: 'slice',
                            viewBox: '0 0 ' + cols * cs + ' ' + rows * cs});
      s.append(svg('rect', {width: cols * cs, height: rows * cs, fill: '#e3f4e3'}));
      const bins = new Map();
      for (const w of list) {
        const rem = w[0] % per, i = Math.floor(rem / W), j = rem % W;
        const key = Math.floor(i / bh) * cols + Math.floor(j / bw);
        if (!bins.has(key)) bins.set(key, []);
        bins.get(key).push(w);
      }
      for (const [key, ws] of bins) {
        const r = Math.floor(key / cols), c = key % cols;
        const frac = ws.length / (bh * bw);
        const rect = svg('rect', {x: c * cs, y: r * cs, width: cs, height: cs, class: 'wrong',
                                  fill: 'rgba(211,51,51,' + (0.35 + 0.65 * frac).toFixed(3) + ')'});
        const first = ws[0];
        const where = '[' + multiIndex(shape, first[0]).join(',') + ']';
        const tip = svg('title', {});
        tip.textContent = bh * bw === 1
            ? where + ': expected ' + first[1] + ', got ' + first[2]
            : 'rows ' + r * bh + '-' + (Math.min(H, (r + 1) * bh) - 1) + ', columns ' +
              c * bw + '-' + (Math.min(W, (c + 1) * bw) - 1) + ': ' + ws.length + ' wrong; first ' +
              where + ' expected ' + first[1] + ', got ' + first[2];
        rect.append(tip);
        s.append(rect);
      }
      const lead = multiIndex(shape, k * per).slice(0, Math.max(0, rank - 2));
      const label = '[' + lead.concat(rank >= 2 ? [':', ':'] : rank === 1 ? [':'] : [])
                              .join(', ') + ']' +
                    (bh * bw > 1 ? ' (one cell = ' + bh + 'x' + bw + ' elements)' : '');
      div.append(el('figure', {}, s, el('figcaption', {}, label)));
    }
    const notes = [];
    if (slices.size > MAX_SLICES) notes.push((slices.size - MAX_SLICES) + ' more slice(s) not drawn');
    if (m.differing > m.listed.length) {
      notes.push('the first ' + m.listed.length + ' of ' + m.differing +
                 ' wrong elements are drawn');
    }
    div.append(el('p', {class: 'legend'}, 'Red: wrong elements (hover for expected and actual ' +
                  'bits); green: right, or beyond the listed ones. ' + notes.join('; ')));
    return div;
  }

  function coverage() {
    const s = section('coverage', 'Class coverage (declared slices)');
    const t = el('table', {});
    t.append(el('tr', {}, ...['backend', 'slice', 'cases in run', 'ran', 'unsupported', '']
                               .map(h => el('th', {}, h))));
    for (const b of data.backends) {
      for (const sl of b.slices) {
        t.append(el('tr', {}, el('td', {}, b.name), el('td', {}, sl.slice),
                    el('td', {class: 'n'}, sl.cases_in_run), el('td', {class: 'n'}, sl.ran),
                    el('td', {class: 'n'}, sl.unsupported),
                    el('td', {class: sl.unexercised ? 'fail' : ''},
                       sl.unexercised ? 'nothing ran' : '')));
      }
      if (b.startup_error) s.append(el('p', {class: 'banner bad'}, b.name + ': ' + b.startup_error));
      for (const e of b.worker_errors || []) {
        s.append(el('p', {class: 'banner bad'}, b.name + ' (no case\'s): ' + e));
      }
    }
    s.append(t);
  }

  function expectations() {
    const s = section('expectations', 'Expectations that matched');
    const groups = [];
    for (const b of data.backends) {
      for (const k of b.known_reasons) groups.push([b.name, k.reason, k.link, k.cases]);
    }
    if (groups.length === 0) s.append(el('p', {}, 'No known failure matched.'));
    else {
      const t = el('table', {id: 'known'});
      t.append(el('tr', {}, ...['backend', 'reason', 'link', 'cases'].map(h => el('th', {}, h))));
      for (const [b, reason, link, n] of groups) {
        t.append(el('tr', {}, el('td', {}, b), el('td', {}, reason), el('td', {}, link),
                    el('td', {class: 'n'}, n)));
      }
      s.append(t);
    }
    if (data.stale_expectations) {
      s.append(el('h3', {}, 'Entries that matched nothing (stale)'));
      const t = el('table', {});
      for (const e of data.stale_expectations) {
        t.append(row(e.source, e.backend + ' ' + e.case + ' ' + e.verdict + ': ' + e.reason));
      }
      s.append(t);
    }
    if (data.file_errors) {
      s.append(el('h3', {}, 'Vector files that could not be read'));
      const t = el('table', {});
      for (const e of data.file_errors) t.append(row(e.file, e.message));
      s.append(t);
    }
    if (data.mutation) {
      const mu = data.mutation;
      s.append(el('h3', {}, 'Mutation score: ' + mu.killed + ' of ' + mu.total + ' (' +
                  mu.score + ')'));
    }
  }

  function metadata() {
    const s = section('run', 'Run');
    for (const [title, obj] of [['run', data.run], ['options', data.options]]) {
      const t = el('table', {id: 'run-' + title});
      for (const [k, v] of Object.entries(obj)) t.append(row(k, el('code', {}, text(v))));
      s.append(el('h3', {}, title), t);
    }
  }

  // At once: what report-data holds, with the sections of the failing cases waiting.
  summary();
  matrix();
  statusMatrix();
  const causeSection = section('causes-section', 'Failures by cause');
  const failureSection = section('failures-section', 'Failures');
  for (const s of [causeSection, failureSection]) {
    s.append(el('p', {class: 'legend loading'}, 'Reading the failing cases\u2026'));
  }
  coverage();
  expectations();
  metadata();
  // Milliseconds since navigation started when the summary and the matrices were drawn.
  document.body.dataset.summaryMs = performance.now().toFixed(1);

  // Once the document has been read: the failing cases, their causes and their list.
  function rest() {
    readFailures();
    causeSection.replaceChildren(causeSection.firstChild);
    causes(causeSection);
    const fields = filters(failureSection);
    renderFailures(fields);
    window.addEventListener('hashchange', () => renderFailures(fields));
    // Milliseconds since the script started, and since navigation started (ready to use).
    document.body.dataset.renderMs = (performance.now() - started).toFixed(1);
    document.body.dataset.readyMs = performance.now().toFixed(1);
    document.body.dataset.ready = '1';
  }
  document.addEventListener('DOMContentLoaded', rest);
})();
