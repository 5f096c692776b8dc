# SPDX-License-Identifier: GPL-2.0
#
# Sphinx configuration: make htmldocs builds Documentation/ into
# Documentation/output/ (python3-sphinx), as the kernel's own docs build.

project = 'perf-persistent'
copyright = 'The perf-persistent developers'
master_doc = 'index'
exclude_patterns = ['output', 'ABI']
html_theme = 'alabaster'
