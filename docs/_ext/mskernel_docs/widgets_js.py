"""The ipywidgets HTML manager that renders the tutorials' saved widget state, served by the site itself.

myst-nb would load it from a CDN; the site serves its own copy instead, so pages work offline and the
version is pinned. The copy comes from the npm registry (``npm pack``), once, into a cache directory
(``$MSKERNEL_DOCS_CACHE``, default ``docs/_build/.cache``); nothing of it is kept in the repository.
``MSKERNEL_DOCS_WIDGETS=cdn`` uses myst-nb's CDN addresses instead (no npm needed).
"""
from __future__ import annotations

import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

#: @jupyter-widgets/html-manager 1.0.x renders ipywidgets 8 state (controls 2.0.0, base 2.0.0)
PACKAGE = "@jupyter-widgets/html-manager@1.0.15"


class WidgetJsError(RuntimeError):
    """The widget manager could not be fetched (npm missing or the registry unreachable)."""


def ensure(cache: Path) -> Path:
    """A static directory holding ``jupyter-widgets/embed.js`` (and the fonts it loads), fetched if needed."""
    static = cache / "widgets-static"
    target = static / "jupyter-widgets"
    if (target / "embed.js").exists():
        return static
    npm = shutil.which("npm")
    if npm is None:
        raise WidgetJsError("building the docs needs npm to fetch the ipywidgets HTML manager "
                            f"({PACKAGE}; apt-get install npm), or MSKERNEL_DOCS_WIDGETS=cdn to load it from a CDN")
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        proc = subprocess.run([npm, "pack", PACKAGE, "--pack-destination", tmp, "--silent"], cwd=tmp,
                              capture_output=True, text=True, timeout=300)
        tgz = sorted(Path(tmp).glob("*.tgz"))
        if proc.returncode != 0 or not tgz:
            raise WidgetJsError(f"npm pack {PACKAGE} failed (exit {proc.returncode}): {proc.stderr.strip()[-500:]}; "
                                "MSKERNEL_DOCS_WIDGETS=cdn loads it from a CDN instead")
        unpacked = Path(tmp) / "out"
        staged = Path(tmp) / "jupyter-widgets"
        staged.mkdir()
        with tarfile.open(tgz[0]) as tf:
            tf.extractall(unpacked, filter="data")
        dist = unpacked / "package" / "dist"
        for f in dist.iterdir():
            if f.suffix in (".js", ".woff", ".woff2", ".ttf", ".eot", ".svg", ".txt") and "amd" not in f.name:
                shutil.copy2(f, staged / f.name)
        shutil.copy2(unpacked / "package" / "package.json", staged / "package.json")
        static.mkdir(parents=True, exist_ok=True)
        try:
            staged.rename(target)
        except OSError:  # another build put it there first
            if not (target / "embed.js").exists():
                raise
    return static
