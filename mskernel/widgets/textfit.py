"""Fitting text into the graph view's boxes: widths measured from the font the SVG asks for, and wrapping.

The SVG draws its labels in DejaVu Sans (``fonts-dejavu-core`` in Debian; matplotlib ships the same
files). :func:`text_width` adds up the font's own advance widths (read once per character from
matplotlib's copy, unhinted, as browsers lay text out), plus a small margin for kerning and rounding,
so a label that :func:`wrap` says fits does fit when drawn. :func:`wrap` breaks a label at spaces,
underscores, dots, slashes, commas and arrows (inside a word only when a word is wider than the
line), and says whether it had to shorten the last line -- the caller then shows the full text on
hover, so nothing is cut silently.

Example:
    >>> lines, cut = wrap("Custom square_with_a_long_name (pyfunc)", 170, size=11, bold=True)
    >>> lines, cut
    (['Custom square_with_a_', 'long_name (pyfunc)'], False)
    >>> all(text_width(line, 11, bold=True) <= 170 for line in lines)
    True
"""
from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Dict, List, Tuple

__all__ = ["text_width", "wrap"]

_MARGIN = 1.04  # kerning, subpixel rounding and a browser's own font (if DejaVu is missing) stay inside the box
_BREAK = re.compile(r"[^ _./,→]*[ _./,→]+|[^ _./,→]+")  # chunks that end at a break opportunity


@lru_cache(maxsize=2)
def _advances(bold: bool) -> Tuple[object, Dict[str, float]]:
    import matplotlib
    from matplotlib import ft2font

    path = os.path.join(matplotlib.get_data_path(), "fonts", "ttf", "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    font = ft2font.FT2Font(path)
    font.set_size(100, 72)  # 100 px per em: advances read in px / 100 = em
    return font, {}


def _em(ch: str, bold: bool) -> float:
    font, cache = _advances(bold)
    em = cache.get(ch)
    if em is None:
        from matplotlib import ft2font
        flags = ft2font.LoadFlags.NO_HINTING if hasattr(ft2font, "LoadFlags") else ft2font.LOAD_NO_HINTING
        if font.get_char_index(ord(ch)) == 0:  # not in DejaVu: the browser takes another font; assume wide
            em = 1.0
        else:
            em = font.load_char(ord(ch), flags=flags).linearHoriAdvance / 65536 / 100
        cache[ch] = em
    return em


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width in px of ``text`` drawn in DejaVu Sans (bold or not) at ``size`` px, with a 4 % margin.

    Example:
        >>> round(text_width("Mul", 11, bold=True))
        23
    """
    return _MARGIN * size * sum(_em(c, bold) for c in text)


def _split_wide(chunk: str, width: float, size: float, bold: bool) -> List[str]:
    """A chunk wider than a line, cut into pieces that each fit (at least one character each)."""
    pieces, cur = [], ""
    for ch in chunk:
        if cur and text_width(cur + ch, size, bold) > width:
            pieces.append(cur)
            cur = ""
        cur += ch
    return pieces + [cur] if cur else pieces


def wrap(text: str, width: float, size: float, bold: bool = False, max_lines: int = 2) -> Tuple[List[str], bool]:
    """Lines of ``text`` at most ``width`` px wide, at most ``max_lines`` of them; the flag says whether the
    text was shortened (the last line then ends in "…").

    Example:
        >>> wrap("Sin → … → Add (100 ops)", 100, size=11, bold=True)
        (['Sin → … → Add', '(100 ops)'], False)
        >>> wrap("a_very_long_kernel_name_that_goes_on", 80, size=11, max_lines=1)
        (['a_very_long…'], True)
    """
    lines: List[str] = []
    cur = ""
    for chunk in _BREAK.findall(text):
        if text_width((cur + chunk).rstrip(), size, bold) <= width:
            cur += chunk
            continue
        if cur:
            lines.append(cur)
            cur = ""
        if text_width(chunk.rstrip(), size, bold) <= width:
            cur = chunk
        else:
            *full, cur = _split_wide(chunk, width, size, bold)
            lines.extend(full)
    if cur or not lines:
        lines.append(cur)
    lines = [line.rstrip() for line in lines]
    if len(lines) <= max_lines:
        return lines, False
    last = lines[max_lines - 1]
    while last and text_width(last + "…", size, bold) > width:
        last = last[:-1]
    return lines[:max_lines - 1] + [last.rstrip() + "…"], True
