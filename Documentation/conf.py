# SPDX-License-Identifier: GPL-2.0
#
# Sphinx configuration: make htmldocs builds Documentation/ into
# Documentation/output/ (python3-sphinx), as the kernel's own docs build.

project = 'perf-persistent'
copyright = 'The perf-persistent developers'
master_doc = 'index'
exclude_patterns = ['output', 'ABI']
html_theme = 'alabaster'


# The lock order is written once, in the comment at the top of
# module/event.c (from its "Lock order" line to the next empty comment
# line).  A ".. lock-order::" line in a document becomes that block, as a
# literal block, when the documentation is built: the two cannot drift.
import os


def lock_order():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..',
                        'module', 'event.c')
    lines, inside = [], False
    with open(path) as f:
        for line in f:
            if line.startswith(' * Lock order'):
                inside = True
            elif inside and line.rstrip() == ' *':
                break
            elif inside:
                lines.append(line[3:].rstrip())
    if not lines:
        raise RuntimeError('module/event.c has no "Lock order" block')
    return lines


def include_lock_order(app, docname, source):
    marker = '.. lock-order::'
    if marker in source[0]:
        block = '.. code-block:: none\n\n' + ''.join('    ' + line + '\n' for line in lock_order())
        source[0] = source[0].replace(marker, block)


def setup(app):
    app.connect('source-read', include_lock_order)
