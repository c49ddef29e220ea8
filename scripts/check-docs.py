#!/usr/bin/env python3
"""make check-docs: the repository's Markdown stands alone, stays current and does not drift.

  check-docs.py [--root DIR] [FILE.md ...]   check (default: every *.md of the tree)
  check-docs.py --self-test                  prove that every rule fires, on a scratch copy
  check-docs.py --code [--root DIR]          the source-comment rules (not yet in make check)

Rules of the default check (exit 1, one line per finding):
  outside     a document names a path outside the repository (a workspace folder such as
              /work/..., shared/spec/..., or a ../ path that leaves the tree);
  spec-name   a document outside docs/README.md names one of the external spec files the
              references replaced (oetp-engine.txt, pci-device.md, rtl-interfaces.md,
              spec/endpoint.md): docs/README.md maps them to their new headings;
  link        a relative link ([text](target)) names a missing file, or an anchor (#...)
              that is no heading of the target;
  count       a hard-coded test count ("49 qtests", "24 passed");
  dates       a guide (README.md, docs/*.md outside docs/history/, rtl/README.md,
              tests/README.md) holds a date (YYYY-MM-DD) outside its one "Figures" section,
              more than one Figures section, or more than MAX_GUIDE_DATES dates; all guides
              together hold more than MAX_DATES;
  layout      README.md's "Layout" block does not name every top-level folder of the tree.

Rules of --code (phase 2 of the docs work: they pass once every spec reference in code cites
docs/<file>.md#<heading>):
  code-ref    a source file cites docs/<file>.md[#anchor] that does not exist, or an external
              spec file (endpoint.md, oetp-engine.txt, pci-device.md, rtl-interfaces.md);
  code-path   a source comment names a path outside the repository.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

MAX_GUIDE_DATES = 3
MAX_DATES = 20
DATE = re.compile(r'(?<![0-9])20[0-9]{2}-[01][0-9]-[0-3][0-9](?![0-9])')
OUTSIDE = re.compile(r'(^|[^A-Za-z0-9_.-])(/work/|shared/(spec|notes)/)')
UPDIR = re.compile(r'(?:\.\./)+[A-Za-z0-9_.-]+')
LINK = re.compile(r'\]\(([^) ]+)\)')
COUNT = re.compile(r'(?<![0-9.])[0-9]+ (qtests|tests|test cases|test programs|passed)\b(?!/)')
SPEC_NAMES = re.compile(r'oetp-engine\.txt|oetp-engine\b|pci-device\.md|rtl-interfaces\.md|spec/endpoint\.md')
HEADING = re.compile(r'^(#{1,6})\s+(.*?)\s*#*\s*$')
SOURCE_EXT = ('.c', '.h', '.cpp', '.sv', '.svh', '.py', '.sh', '.mk', '.lua', '.vec', '.inc',
              '.build', '.f', '.rdl', '.txt')
# an external spec file, bare or under spec/, but not docs/endpoint.md
CODE_SPEC_REF = re.compile(r'(?<![A-Za-z0-9_.-])(?<!docs/)(?:(?:shared/)?spec/)?'
                           r'(endpoint\.md|oetp-engine(?:\.txt)?|pci-device\.md|rtl-interfaces\.md)')
CODE_DOC_REF = re.compile(r'(docs/[A-Za-z0-9_/-]+\.md|rtl/README\.md|tests/README\.md)(#[a-z0-9_-]+)?')


def tree_files(root):
    """Every file of the tree: git's view (tracked and untracked, not ignored) in a checkout,
    else everything but build/ and .git/."""
    try:
        top = subprocess.run(['git', '-C', root, 'rev-parse', '--show-toplevel'],
                             capture_output=True, text=True, check=True).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        top = None
    if top and os.path.realpath(top) == os.path.realpath(root):
        out = subprocess.run(['git', '-C', root, 'ls-files', '--cached', '--others',
                              '--exclude-standard'], capture_output=True, text=True,
                             check=True).stdout
        return sorted(f for f in out.splitlines() if os.path.isfile(os.path.join(root, f)))
    files = []
    for d, dirs, names in os.walk(root):
        rel = os.path.relpath(d, root)
        dirs[:] = [x for x in dirs if not (rel == '.' and x in ('build', '.git'))]
        files += [os.path.normpath(os.path.join(rel, n)) for n in names]
    return sorted(files)


def slug(text):
    """The anchor GitHub gives a heading."""
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', text)
    text = text.strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


def headings(path):
    """Anchors of a Markdown file (duplicates numbered as GitHub does)."""
    seen, out, fence = {}, set(), False
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.lstrip().startswith('```'):
                fence = not fence
                continue
            m = None if fence else HEADING.match(line)
            if m:
                s = slug(m.group(2))
                n = seen.get(s, 0)
                seen[s] = n + 1
                out.add(s if n == 0 else '%s-%d' % (s, n))
    return out


def is_guide(rel):
    if rel in ('README.md', 'rtl/README.md', 'tests/README.md'):
        return True
    return rel.startswith('docs/') and rel.count('/') == 1 and rel.endswith('.md')


def sections(lines):
    """Per line: the heading text of the innermost section holding it, and whether it lies in a
    section headed "Figures" (any level, until the next heading of that level or higher)."""
    fig_level, fence, out = None, False, []
    for line in lines:
        if line.lstrip().startswith('```'):
            fence = not fence
        m = None if fence else HEADING.match(line)
        if m:
            level = len(m.group(1))
            if fig_level is not None and level <= fig_level:
                fig_level = None
            if m.group(2).strip() == 'Figures':
                fig_level = level
        out.append(fig_level is not None)
    return out


class Checker:
    def __init__(self, root):
        self.root = os.path.realpath(root)
        self.findings = []
        self.anchor_cache = {}

    def report(self, rule, where, msg):
        self.findings.append('check-docs: %s: %s [%s]' % (where, msg, rule))

    def anchors(self, path):
        if path not in self.anchor_cache:
            self.anchor_cache[path] = headings(path)
        return self.anchor_cache[path]

    def check_doc(self, rel):
        path = os.path.join(self.root, rel)
        if not os.path.isfile(path):
            self.report('link', rel, 'no such file')
            return 0
        with open(path, encoding='utf-8') as f:
            lines = f.read().split('\n')
        d = os.path.dirname(path)
        in_fig = sections(lines)
        dates = 0
        guide = is_guide(rel)
        for n, line in enumerate(lines, 1):
            at = '%s:%d' % (rel, n)
            if OUTSIDE.search(line):
                self.report('outside', at, 'names a path outside the repository')
            for m in UPDIR.finditer(line):
                if not os.path.realpath(os.path.join(d, m.group(0))).startswith(self.root + os.sep):
                    self.report('outside', at, 'names a path outside the repository (%s)' % m.group(0))
            if rel != 'docs/README.md' and SPEC_NAMES.search(line):
                self.report('spec-name', at, 'names an external spec file; cite docs/oetp.md, '
                            'docs/endpoint.md or docs/pci.md (docs/README.md maps the sections)')
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r'(https?|mailto):', target):
                    continue
                file_part, _, anchor = target.partition('#')
                tpath = os.path.join(d, file_part) if file_part else path
                if not os.path.exists(tpath):
                    self.report('link', at, 'link to missing %s' % file_part)
                elif anchor and tpath.endswith('.md') and os.path.isfile(tpath) \
                        and anchor not in self.anchors(tpath):
                    self.report('link', at, 'link to missing heading #%s of %s'
                                % (anchor, os.path.relpath(tpath, self.root)))
            if COUNT.search(line):
                self.report('count', at, 'hard-codes a test count')
            if guide:
                for _ in DATE.finditer(line):
                    dates += 1
                    if not in_fig[n - 1]:
                        self.report('dates', at, 'a date outside the guide\'s Figures section '
                                    '(history goes to docs/history/)')
        if guide:
            figs = sum(1 for l in lines if HEADING.match(l) and HEADING.match(l).group(2).strip() == 'Figures')
            if figs > 1:
                self.report('dates', rel, '%d Figures sections (at most one)' % figs)
            if dates > MAX_GUIDE_DATES:
                self.report('dates', rel, '%d dates (at most %d, in its Figures section)'
                            % (dates, MAX_GUIDE_DATES))
        return dates if guide else 0

    def check_layout(self, files):
        tops = sorted({f.split('/', 1)[0] for f in files if '/' in f})
        readme = os.path.join(self.root, 'README.md')
        text = open(readme, encoding='utf-8').read() if os.path.isfile(readme) else ''
        m = re.search(r'^## Layout\s*\n+```[^\n]*\n(.*?)\n```', text, re.S | re.M)
        if not m:
            self.report('layout', 'README.md', 'no "## Layout" section with a code block')
            return
        named = {re.match(r'([^\s/]+)/', l).group(1) for l in m.group(1).split('\n')
                 if re.match(r'[^\s/]+/', l)}
        for t in tops:
            if t not in named:
                self.report('layout', 'README.md', 'the Layout does not name the top-level folder %s/' % t)

    def run(self, docs=None):
        files = tree_files(self.root)
        if docs is None:
            docs = [f for f in files if f.endswith('.md')]
        total = sum(self.check_doc(rel) for rel in docs)
        if total > MAX_DATES:
            self.report('dates', 'guides', '%d dates in all (at most %d)' % (total, MAX_DATES))
        self.check_layout(files)
        return len(docs), total

    def run_code(self):
        files = tree_files(self.root)
        srcs = [f for f in files if f.endswith(SOURCE_EXT) or os.path.basename(f) == 'Makefile']
        srcs = [f for f in srcs if f != 'scripts/check-docs.py' and not f.startswith('docs/')]
        for rel in srcs:
            try:
                text = open(os.path.join(self.root, rel), encoding='utf-8').read()
            except UnicodeDecodeError:
                continue
            for n, line in enumerate(text.split('\n'), 1):
                at = '%s:%d' % (rel, n)
                for m in CODE_SPEC_REF.finditer(line):
                    self.report('code-ref', at, 'cites the external %s; cite docs/<file>.md#<heading> '
                                '(docs/README.md maps the sections)' % m.group(1))
                for m in CODE_DOC_REF.finditer(line):
                    tpath = os.path.join(self.root, m.group(1))
                    if not os.path.isfile(tpath):
                        self.report('code-ref', at, 'cites missing %s' % m.group(1))
                    elif m.group(2) and m.group(2)[1:] not in self.anchors(tpath):
                        self.report('code-ref', at, 'cites missing heading %s of %s'
                                    % (m.group(2), m.group(1)))
                if OUTSIDE.search(line):
                    self.report('code-path', at, 'names a path outside the repository')


def self_test():
    """Each rule must fire on a seeded break of a scratch copy, and not on the clean copy."""
    top = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    files = tree_files(top)
    ok = True
    with tempfile.TemporaryDirectory() as scratch:
        def fresh():
            d = os.path.join(scratch, 'tree')
            shutil.rmtree(d, ignore_errors=True)
            for f in files:
                if f.endswith('.md'):
                    os.makedirs(os.path.dirname(os.path.join(d, f)), exist_ok=True)
                    shutil.copy(os.path.join(top, f), os.path.join(d, f))
                else:   # the rest only as empty files: the layout and links need them to exist
                    os.makedirs(os.path.dirname(os.path.join(d, f)) or d, exist_ok=True)
                    open(os.path.join(d, f), 'w').close()
            return d

        def append(d, rel, text):
            with open(os.path.join(d, rel), 'a', encoding='utf-8') as f:
                f.write(text)

        def expect(name, seed, rule, where, code=False):
            nonlocal ok
            d = fresh()
            seed(d)
            c = Checker(d)
            c.run_code() if code else c.run()
            hit = [x for x in c.findings if '[%s]' % rule in x and where in x]
            if not hit:
                print('check-docs: self-test: "%s" did not fire (%s); findings: %s'
                      % (name, rule, c.findings or 'none'))
                ok = False

        d = fresh()
        c = Checker(d)
        c.run()
        if c.findings:
            print('check-docs: self-test: the clean copy fails:\n' + '\n'.join(c.findings))
            ok = False
        expect('a date outside Figures', lambda d: append(d, 'docs/qemu.md', '\nOn 2026-01-02 it got faster.\n'),
               'dates', 'docs/qemu.md:')
        expect('too many dates in Figures', lambda d: append(
            d, 'rtl/README.md', '\n2026-01-01 2026-01-02 2026-01-03 2026-01-04\n'), 'dates', 'rtl/README.md')
        expect('a second Figures section', lambda d: append(d, 'docs/guest.md', '\n## Figures\n\nmore\n'),
               'dates', 'docs/guest.md')
        expect('a date in a guide without Figures', lambda d: append(d, 'tests/README.md', '\nSince 2026-01-02.\n'),
               'dates', 'tests/README.md:')
        expect('a top-level folder missing from the Layout',
               lambda d: (os.makedirs(os.path.join(d, 'newpart')), open(os.path.join(d, 'newpart', 'x.c'), 'w').close()),
               'layout', 'newpart/')
        expect('a workspace path', lambda d: append(d, 'docs/cosim.md', '\nSee /work/shared/x.\n'),
               'outside', 'docs/cosim.md:')
        expect('a ../ path out of the tree', lambda d: append(d, 'docs/cosim.md', '\nSee ../../../elsewhere.\n'),
               'outside', 'docs/cosim.md:')
        expect('an external spec file named', lambda d: append(d, 'docs/oetp.md', '\nAs oetp-engine.txt says.\n'),
               'spec-name', 'docs/oetp.md:')
        expect('a link to a missing file', lambda d: append(d, 'docs/pci.md', '\n[x](nothere.md)\n'),
               'link', 'docs/pci.md:')
        expect('a link to a missing heading', lambda d: append(d, 'docs/pci.md', '\n[x](endpoint.md#no-such-heading)\n'),
               'link', 'docs/pci.md:')
        expect('a hard-coded test count', lambda d: append(d, 'docs/qemu.md', '\nAll 49 qtests pass.\n'),
               'count', 'docs/qemu.md:')
        expect('code citing an external spec file', lambda d: append(d, 'hw/engine/rx.c', '/* endpoint.md 7 */\n'),
               'code-ref', 'hw/engine/rx.c:', code=True)
        expect('code citing a missing heading', lambda d: append(
            d, 'hw/engine/rx.c', '/* docs/endpoint.md#no-such-heading */\n'), 'code-ref', 'hw/engine/rx.c:', code=True)
        expect('a source comment with an outside path', lambda d: append(
            d, 'rtl/openenoc_endpoint_if.sv', '// /work/shared/spec/x\n'), 'code-path', 'rtl/openenoc_endpoint_if.sv:', code=True)
        # and the code rules pass a correct citation
        d = fresh()
        append(d, 'hw/engine/rx.c', '/* docs/endpoint.md#receive-classification */\n')
        c = Checker(d)
        c.run_code()
        if any('hw/engine/rx.c:' in x and 'receive-classification' in x for x in c.findings):
            print('check-docs: self-test: a correct code citation was refused')
            ok = False
    if ok:
        print('check-docs: self-test: every rule fires on its seeded break, the clean tree passes')
    return ok


def main(argv):
    if argv and argv[0] in ('-h', '--help'):
        print(__doc__.strip())
        return 0
    if argv and argv[0] == '--self-test':
        return 0 if self_test() else 1
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    code = False
    args = []
    i = 0
    while i < len(argv):
        if argv[i] == '--root' and i + 1 < len(argv):
            root = argv[i + 1]
            i += 2
            continue
        if argv[i] == '--code':
            code = True
        elif argv[i].startswith('-'):
            print('check-docs: unknown option %s (--help)' % argv[i], file=sys.stderr)
            return 2
        else:
            args.append(argv[i])
        i += 1
    c = Checker(root)
    if code:
        c.run_code()
        print('\n'.join(c.findings))
        if not c.findings:
            print('check-docs: every spec reference in code resolves, no outside path in comments')
        return 1 if c.findings else 0
    ndocs, dates = c.run(args or None)
    if c.findings:
        print('\n'.join(c.findings))
        return 1
    print('check-docs: %d documents stand alone, links and anchors resolve, no test counts, '
          '%d dates in the guides (at most %d, only in Figures), the Layout names every folder'
          % (ndocs, dates, MAX_DATES))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
