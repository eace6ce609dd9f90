"""Sphinx configuration of mskernel's documentation site.

Build it with ``python -m mskernel docs`` (warnings are errors, broken internal references fail the
build). Tools, all in the ``docs`` extra: Sphinx; myst-nb (MyST markdown pages and the tutorial notebooks,
rendered with their stored outputs and widget state, never executed: nbval runs them in the tests);
the furo theme; sphinx-copybutton (copies examples without their ``>>>`` prompts).
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent))  # this checkout's mskernel and magics, not an installed copy

import mskernel  # noqa: E402
import mskernel_docs  # noqa: E402

mskernel_docs.generate(HERE)
_widgets = mskernel_docs.widget_js(HERE)

project = "mskernel"
author = "the mskernel authors"
copyright = "the mskernel authors"
release = version = mskernel.__version__

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx_copybutton",
    "mskernel_docs",
]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "jupyter_execute", "compatibility.md", "img", "howto/examples", "README.md",
                    "**/.ipynb_checkpoints"]
templates_path: list = []

# -- notebooks: stored outputs only ------------------------------------------------------------------------
nb_execution_mode = "off"
nb_merge_streams = True
if _widgets["js"] is not None:
    nb_ipywidgets_js = _widgets["js"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# -- API reference -----------------------------------------------------------------------------------------
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_member_order = "bysource"
autodoc_default_options = {"exclude-members": "__weakref__, __init__, __new__"}
autodoc_inherit_docstrings = False
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False

# ``-n``: every cross-reference must resolve. Other packages' names cannot (no network for intersphinx here);
# KNOWN_BROKEN would list references in docstrings still to fix at their source (each one fails the build once
# removed). Empty: a broken reference is fixed where it is written, not listed here.
nitpicky = True
nitpick_ignore_regex = [(r"py:.*", r"(numpy|np|collections|typing|t|os|ctypes|functools|IPython|ipywidgets|matplotlib"
                                   r"|pathlib|types|fractions|datetime)\..*")]
KNOWN_BROKEN: list = []
nitpick_ignore = [(role, target) for role, target in KNOWN_BROKEN]
add_module_names = False
python_display_short_literal_types = True

# -- HTML --------------------------------------------------------------------------------------------------
html_theme = "furo"
html_title = f"mskernel {release}"
html_static_path = [p for p in ("_static", _widgets["static"]) if p and (HERE / p).exists()]
html_show_sourcelink = False
html_favicon = "_static/mskernel.svg"
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = False
