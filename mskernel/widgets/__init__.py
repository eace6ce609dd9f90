"""Views of gradients for notebooks: the autograd graph and the numerical-vs-analytic gradient check.

``GraphView`` / ``show_graph`` draw the graph behind a result (layout computed here, no graphviz);
``GradCheckView`` shows where a function's analytic and numerical gradients disagree. Both are
ipywidgets with static HTML/text fallbacks. ``import mskernel`` does not import this package:
``ms.show_graph``, ``ms.GraphView`` and ``ms.GradCheckView`` load it on first use.

Example:
    >>> import mskernel as ms
    >>> from mskernel.widgets import GradCheckView
    >>> print(GradCheckView(lambda a: a * a, (ms.Tensor([3.0]),)).report)  # doctest: +ELLIPSIS
    gradcheck passed (full mode, float64: eps 1e-06 (2-point stencil), atol 1e-05, rtol 0.001)
      [ok  ] input 0 shape [1]: max abs error ...
"""
from mskernel.widgets.gradcheck_view import GradCheckView
from mskernel.widgets.graph_view import GraphView, show_graph
from mskernel.widgets.layout import layout

__all__ = ["GraphView", "GradCheckView", "show_graph", "layout"]
