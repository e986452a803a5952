"""Headless Chromium for the HTML report's browser tests (report_html_test.py,
report_html_paging_test.py, report_status_matrix_test.py, report_html_causes_test.py): finding
the browser (a test is skipped, exit status 77, only when it is not installed), a page's DOM
after load (--dump-dom), Chromium driven through the DevTools protocol, what the checks read
from the dumped DOM, and no process of the browser outliving its run (its process group and
the crash handlers that leave it, found by the run's own profile folder, are killed).
"""
import fcntl
import html.parser
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time


def fail(msg):
    print('headless chromium: FAIL: ' + msg)
    sys.exit(1)


def find_chromium(test):
    """The browser's path; None (after saying so for `test`) when it is not installed."""
    browser = shutil.which('chromium')
    if browser is None:
        print('%s: chromium is not installed (scripts/install-deps.sh)' % test)
    return browser


def ours(marker):
    """Live processes whose command line holds `marker` (the browser's own folders): those
    this test started, including Chromium's crash handlers, which leave its process group."""
    pids = []
    for pid in os.listdir('/proc'):
        try:
            with open('/proc/%s/cmdline' % pid, 'rb') as f:
                cmdline = f.read()
            with open('/proc/%s/stat' % pid) as f:
                state = f.read().rsplit(')', 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker.encode() in cmdline and state != 'Z':
            pids.append(int(pid))
    return pids


def chromium_dom(browser, page, fragment, profile):
    """The page's DOM after load; no process of the browser outlives this call."""
    url = 'file://' + page + ('#' + fragment if fragment else '')
    cmd = [browser, '--headless', '--disable-gpu', '--no-sandbox', '--no-first-run',
           '--user-data-dir=' + profile, '--dump-dom', url]
    # The crash handler's database goes under XDG_CONFIG_HOME: inside `profile` too, so that
    # every process of this browser names `profile` on its command line.
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(profile, 'config'))
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            start_new_session=True, env=env)
    try:
        out, _ = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        fail('chromium did not finish within 60 s: ' + url)
    finally:
        reap(proc, profile)
    if proc.returncode != 0:
        fail('chromium exited with status %d for %s' % (proc.returncode, url))
    return out.decode('utf-8', 'replace')


def reap(proc, profile):
    """Kills what is left of a browser run: its process group, then any process naming its
    profile folder (the crash handlers leave the group)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
    for _ in range(50):
        left = ours(profile)
        if not left:
            break
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.1)
    else:
        fail('chromium processes outlived their run: %s' % ours(profile))


class Dom(html.parser.HTMLParser):
    """What the checks need from the dumped DOM."""

    def __init__(self):
        super().__init__()
        self.attrs_of = {}  # id -> attributes of that element
        self.cells = []  # (backend, op, verdict, count) of the matrix
        self.boxes = []  # failure boxes: attributes, red cells, slices
        self.title = ''
        self.imgs = 0
        self.scripts = 0
        self._stack = []
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if 'id' in a:
            self.attrs_of[a['id']] = a
        if tag in ('html', 'body'):
            self.attrs_of[tag] = a
        if tag == 'td' and 'data-count' in a:
            self.cells.append((a['data-backend'], a['data-op'], a['data-verdict'],
                               int(a['data-count'])))
        cls = a.get('class', '').split()
        if tag == 'div' and 'failure' in cls:
            self.boxes.append({'attrs': a, 'wrong': 0, 'slices': 0, 'titles': []})
        if tag == 'rect' and 'wrong' in cls and self.boxes:
            self.boxes[-1]['wrong'] += 1
        if tag == 'svg' and 'slice' in cls and self.boxes:
            self.boxes[-1]['slices'] += 1
        if tag == 'img':
            self.imgs += 1
        if tag == 'script':
            self.scripts += 1
        self._in_title = tag == 'title'
        self._stack.append(tag)

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            if self.boxes and self._stack and 'svg' in self._stack:
                self.boxes[-1]['titles'].append(data)
            elif not self.title:
                self.title = data


class DevTools:
    """Chromium driven through the DevTools protocol on a pipe (its fds 3 and 4), for what a
    person does with the page: choose a filter, press a button."""

    def __init__(self, browser, url, profile):
        self.profile = profile
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()

        def child():
            a, b = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(profile, 'config'))
        self.proc = subprocess.Popen(
            [browser, '--headless', '--disable-gpu', '--no-sandbox', '--no-first-run',
             '--remote-debugging-pipe', '--user-data-dir=' + profile, url],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, env=env, preexec_fn=child, close_fds=False)
        os.close(to_r)
        os.close(from_w)
        self.buf = b''
        self.next_id = 0
        page = [t for t in self.call('Target.getTargets')['targetInfos'] if t['type'] == 'page']
        self.session = self.call('Target.attachToTarget', targetId=page[0]['targetId'],
                                 flatten=True)['sessionId']

    def call(self, method, session=None, **params):
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params}
        if session:
            msg['sessionId'] = session
        os.write(self.to_w, json.dumps(msg).encode() + b'\0')
        deadline = time.time() + 60
        while time.time() < deadline:
            while b'\0' in self.buf:
                raw, self.buf = self.buf.split(b'\0', 1)
                reply = json.loads(raw)
                if reply.get('id') == self.next_id:
                    if 'error' in reply:
                        fail('DevTools %s: %s' % (method, reply['error']))
                    return reply['result']
            ready, _, _ = select.select([self.from_r], [], [], 1)
            if ready:
                chunk = os.read(self.from_r, 1 << 20)
                if not chunk:
                    fail('chromium closed the DevTools pipe')
                self.buf += chunk
        fail('DevTools %s: no answer within 60 s' % method)

    def eval(self, expression):
        r = self.call('Runtime.evaluate', self.session, expression=expression,
                      awaitPromise=True, returnByValue=True)
        if 'exceptionDetails' in r:
            fail('page script: %s' % r['exceptionDetails'])
        return r['result'].get('value')

    def close(self):
        try:
            # Not waiting for the answer: the browser may close the pipe first.
            os.write(self.to_w, json.dumps({'id': 0, 'method': 'Browser.close'}).encode() + b'\0')
        except OSError:
            pass
        finally:
            os.close(self.to_w)
            os.close(self.from_r)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            reap(self.proc, self.profile)
