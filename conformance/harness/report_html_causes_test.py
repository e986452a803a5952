#!/usr/bin/env python3
"""Failures grouped by cause, and the source map of a layout bug's shrunk case, in the report
and on the HTML page (headless Chromium).

    report_html_causes_test.py DMCONF SOURCE_DIR WORK_DIR SEEDED_PLUGIN

SEEDED_PLUGIN is the vendor example plugin (examples/vendor-cmake/acme_depth.c) built with its
seeded bug: depth_first read as blocks_first, a layout bug. It runs on DepthToSpace and
SpaceToDepth with shrinking on. Checks, every expected figure computed here:
- the JSON report: each shrunk case with a source map is checked against the spec's formula
  applied to its saved minimal vector file: `expected` is where DepthToSpace / SpaceToDepth of
  the case's own mode takes each output element from, `holds` where the other mode takes it
  (the seeded bug), and every wrong output element of a small positional shrunk case has a map;
- the page: per backend one "by cause" block whose groups (verdict, named mistake) and counts
  equal a grouping of the JSON's new failures, largest first, the largest being
  wrong_values depth.mode_swapped, all collapsed; its group shows a source map whose cells are
  the JSON's; each shown failure box with a source map in the JSON draws it, its heat map
  folded away;
- the "named mistake" filter (the group's link) lists exactly the JSON's failures of that cause;
- `dmconf report merge` of the report keeps every source map.
Exit status 77 (skipped) only when chromium is not installed (after the JSON checks).
"""
import collections
import html.parser
import json
import os
import shutil
import subprocess
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import headless_chromium as browser_lib  # noqa: E402


def fail(msg):
    print('report_html_causes_test: FAIL: ' + msg)
    sys.exit(1)


def flat(shape, idx):
    f = 0
    for d, i in zip(shape, idx):
        f = f * d + i
    return f


def spec_sources(op, shape, b, mode):
    """For each output element (row-major), the flat index of the data element it takes.
    DepthToSpace-1, C' = C / b^2, for i, j in [0, b):
      blocks_first: out[n, c, h*b + i, w*b + j] = in[n, (i*b + j) * C' + c, h, w]
      depth_first:  out[n, c, h*b + i, w*b + j] = in[n, c * b^2 + i*b + j, h, w]
    SpaceToDepth-1 is its inverse: out[n, <the same channel>, h, w] = in[n, c, h*b + i, w*b + j]
    (C' = C there)."""
    n_, c_, h_, w_ = shape
    d2s = op == 'DepthToSpace'
    cd = c_ // (b * b) if d2s else c_
    out_shape = [n_, cd, h_ * b, w_ * b] if d2s else [n_, c_ * b * b, h_ // b, w_ // b]
    src = [None] * (out_shape[0] * out_shape[1] * out_shape[2] * out_shape[3])
    h_small, w_small = (h_, w_) if d2s else (h_ // b, w_ // b)
    for n in range(n_):
        for c in range(cd):
            for h in range(h_small):
                for w in range(w_small):
                    for i in range(b):
                        for j in range(b):
                            deep = c * b * b + i * b + j if mode == 'depth_first' \
                                else (i * b + j) * cd + c
                            if d2s:
                                src[flat(out_shape, [n, c, h * b + i, w * b + j])] = \
                                    flat(shape, [n, deep, h, w])
                            else:
                                src[flat(out_shape, [n, deep, h, w])] = \
                                    flat(shape, [n, c, h * b + i, w * b + j])
    return out_shape, src


class Page(html.parser.HTMLParser):
    """The by-cause blocks, their groups and source maps, and the failure boxes."""

    def __init__(self):
        super().__init__()
        self.blocks = []  # {attrs, groups: [{attrs, maps: [...]}]}
        self.boxes = []  # failure boxes: {attrs, maps, folded}
        self.maps = []  # every source map: {case, cells: {out: (holds, expected, class)}}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get('class', '').split()
        if tag == 'div' and 'causes' in cls:
            self.blocks.append({'attrs': a, 'groups': []})
        if tag == 'details' and 'cause' in cls:
            self.blocks[-1]['groups'].append({'attrs': a, 'maps': []})
        if tag == 'div' and 'failure' in cls:
            self.boxes.append({'attrs': a, 'maps': [], 'heat_in_details': False,
                               'heat_bare': False})
            self._in = 'box'
        if tag == 'table' and 'srcmap' in cls:
            m = {'case': a['data-case'], 'cells': {}}
            self.maps.append(m)
            if self.boxes and getattr(self, '_in', '') == 'box':
                self.boxes[-1]['maps'].append(m)
            elif self.blocks and self.blocks[-1]['groups']:
                self.blocks[-1]['groups'][-1]['maps'].append(m)
        if tag == 'td' and 'data-out' in a and self.maps:
            self.maps[-1]['cells'][int(a['data-out'])] = (int(a['data-holds']),
                                                         int(a['data-expected']), cls)
        if tag == 'details' and self.boxes and getattr(self, '_in', '') == 'box':
            self._details_open = True
        if tag == 'div' and 'heatmap' in cls and self.boxes:
            if getattr(self, '_details_open', False):
                self.boxes[-1]['heat_in_details'] = True
            else:
                self.boxes[-1]['heat_bare'] = True

    def handle_endtag(self, tag):
        if tag == 'details':
            self._details_open = False


def run(cmd, timeout=600):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=timeout)


def check_source_maps(report):
    """Every source map against the spec's formula on its saved minimal vector file."""
    checked = 0
    for b in report['backends']:
        for c in b['cases']:
            s = c.get('shrunk')
            if not c['failure'] or not s:
                continue
            with open(s['vector_file']) as f:
                v = json.load(f)
            data = v['inputs'][0]
            small = len(v['expectation']['output']['data']) <= 64
            positional = sorted(data['data']) == list(range(1, len(data['data']) + 1))
            if 'source_map' not in s:
                if small and positional and c['verdict'] == 'wrong_values':
                    fail('%s: a small positional wrong output without a source map' % s['id'])
                continue
            m = s['source_map']
            attrs = v['attributes']
            other = 'blocks_first' if attrs['mode'] == 'depth_first' else 'depth_first'
            out_shape, right = spec_sources(v['op'], data['shape'], attrs['block_size'],
                                            attrs['mode'])
            _, swapped = spec_sources(v['op'], data['shape'], attrs['block_size'], other)
            if m['shape'] != out_shape or m['input_shape'] != data['shape']:
                fail('%s: source map shapes %s %s, spec %s %s' %
                     (s['id'], m['shape'], m['input_shape'], out_shape, data['shape']))
            if m['expected'] != right:
                fail('%s: expected sources %s, the spec says %s' % (s['id'], m['expected'], right))
            if m['holds'] != swapped:
                fail('%s: held sources %s, the seeded bug (other mode) gives %s' %
                     (s['id'], m['holds'], swapped))
            checked += 1
    if checked == 0:
        fail('no source map in the report')
    return checked


def main():
    dmconf, src, work, plugin = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    report = os.path.join(work, 'report.json')
    page = os.path.join(work, 'report.html')
    r = run([dmconf, 'run', '--backend-lib', plugin, '--ops', 'DepthToSpace,SpaceToDepth',
             '--count', '30', '--quiet', '--report', report, '--html', page, '--failures',
             os.path.join(work, 'failures')])
    if r.returncode != 1:
        fail('dmconf run: expected status 1 (new failures), got %d: %s' %
             (r.returncode, r.stderr[-400:]))
    with open(report) as f:
        rep = json.load(f)
    maps = check_source_maps(rep)
    # `report merge` carries the source maps (a single report is a whole shard set).
    merged = os.path.join(work, 'merged.json')
    r = run([dmconf, 'report', 'merge', report, '-o', merged])
    with open(merged) as f:
        again = json.load(f)
    def source_maps(x):
        return [c.get('shrunk', {}).get('source_map') for b in x['backends'] for c in b['cases']]
    if source_maps(again) != source_maps(rep):
        fail('report merge lost or changed the source maps')

    # The grouping, by the JSON: (verdict, named mistake) of each new failure.
    groups = {}
    for b in rep['backends']:
        g = collections.Counter((c['verdict'], c.get('diagnosis', {}).get('mistake', ''))
                                for c in b['cases'] if c['failure'])
        if g:
            groups[b['name']] = g
    (name, g), = groups.items()
    top, n_top = g.most_common(1)[0]
    if top != ('wrong_values', 'depth.mode_swapped') or n_top < 10:
        fail('the largest cause is %s x %d, expected wrong_values depth.mode_swapped' %
             (top, n_top))

    chromium = browser_lib.find_chromium('report_html_causes_test')
    if chromium is None:
        return 77
    profile = os.path.join(work, 'profile')
    text = browser_lib.chromium_dom(chromium, page, '', profile)
    if 'data-js-errors' in text.split('<body', 1)[0] or 'data-ready="1"' not in text:
        fail('the page script failed or did not finish')
    dom = Page()
    dom.feed(text)
    if len(dom.blocks) != 1 or dom.blocks[0]['attrs']['data-backend'] != name:
        fail('by-cause blocks: %s' % [b['attrs'] for b in dom.blocks])
    block = dom.blocks[0]
    if int(block['attrs']['data-failures']) != sum(g.values()) or \
            int(block['attrs']['data-causes']) != len(g):
        fail('block counts %s, JSON %d failures in %d causes' %
             (block['attrs'], sum(g.values()), len(g)))
    shown = [((x['attrs']['data-verdict'], x['attrs']['data-mistake']),
              int(x['attrs']['data-count'])) for x in block['groups']]
    if sorted(shown) != sorted(g.items()) or \
            [n for _, n in shown] != sorted((n for _, n in shown), reverse=True):
        fail('page groups %s, JSON %s (largest first)' % (shown, dict(g)))
    if any('open' in x['attrs'] for x in block['groups']):
        fail('a cause group is open at first; they start collapsed')
    first = block['groups'][0]
    if len(first['maps']) != 1:
        fail('the largest cause shows %d source maps, expected 1' % len(first['maps']))
    by_id = {c['shrunk']['id']: c['shrunk'] for b in rep['backends'] for c in b['cases']
             if 'shrunk' in c}
    for m in dom.maps:
        sm = by_id[m['case']]['source_map']
        want = {k: (h, e, ['n', 'wrong' if h != e else 'right'])
                for k, (h, e) in enumerate(zip(sm['holds'], sm['expected']))}
        if m['cells'] != want:
            fail('%s: page source map %s, JSON %s' % (m['case'], m['cells'], want))
    failing = [c for b in rep['backends'] for c in b['cases'] if c['failure'] or 'known' in c]
    boxed = 0
    for box, c in zip(dom.boxes, failing):
        has = 'source_map' in c.get('shrunk', {})
        if len(box['maps']) != has or (has and [m['case'] for m in box['maps']] !=
                                       [c['shrunk']['id']]):
            fail('%s: %d source maps in its box, JSON has %s' % (c['id'], len(box['maps']), has))
        if has and 'mismatch' in c and (box['heat_bare'] or not box['heat_in_details']):
            fail('%s: the heat map is not folded away beside the source map' % c['id'])
        boxed += has
    if boxed == 0:
        fail('no failure box with a source map was shown')

    # The group's filter: the named mistake.
    frag = urllib.parse.urlencode({'backend': name, 'verdict': top[0], 'mistake': top[1]})
    text = browser_lib.chromium_dom(chromium, page, frag, profile)
    listing = browser_lib.Dom()
    listing.feed(text)
    matching = int(listing.attrs_of['failures']['data-matching'])
    want = sum(1 for c in failing if c['verdict'] == top[0] and
               c.get('diagnosis', {}).get('mistake', '') == top[1])
    if matching != want:
        fail('filter %s: page %s cases, JSON %d' % (frag, matching, want))
    print('report_html_causes_test: ok (%d failures, %d causes, largest %d x %s; %d source maps '
          'checked against the spec, %d drawn)' % (sum(g.values()), len(g), n_top, ' '.join(top),
                                                   maps, len(dom.maps)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
