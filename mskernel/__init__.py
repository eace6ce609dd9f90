"""mskernel: develop custom differentiable operators with MindSpore's API on an ordinary CPU.

Replace ``mindspore`` by ``mskernel`` in the imports of MindSpore code and it runs here, printing
what MindSpore prints.

Example:
    >>> import mskernel as ms
    >>> x = ms.Tensor(2.0, ms.float32)
    >>> print(ms.grad(lambda a: a * a)(x))
    4.0
"""
from os import PathLike as _PathLike
from pathlib import Path as _Path
from typing import Any

from mskernel._version import __version__
from mskernel import dtype
from mskernel.dtype import (Type, bool_, complex64, complex128, double, dtype_to_nptype, dtype_to_pytype, float16,
                            float32, float64, float_, half, int8, int16, int32, int64, pytype_to_dtype, single,
                            uint8, uint16, uint32, uint64)
from mskernel.common import Parameter, ParameterTuple, Tensor, get_seed, set_seed
from mskernel.common.tensor import from_numpy, is_tensor, tensor
from mskernel.common.sparse_tensor import COOTensor, CSRTensor, RowTensor, SparseTensor
from mskernel.common.generator import (Generator, default_generator, get_rng_state, initial_seed, manual_seed, seed,
                                       set_rng_state)
from mskernel import autograd
from mskernel.autograd import (GradOperation, enable_grad, get_grad, grad, no_grad,
                               value_and_grad)
from mskernel.autograd.function import _Function
from mskernel.common.api import JitConfig, jit, mutable
from mskernel.common.recompute import recompute
from mskernel.common.symbol import Symbol
from mskernel import ops
from mskernel.ops.composite import jacfwd, jacrev, jvp, vjp, vmap
from mskernel.gradcheck import GradcheckError, GradcheckReport, gradcheck, gradgradcheck
from mskernel.kernelcheck import KernelCheck, check_kernel
from mskernel import common, context, nn
from mskernel import amp, communication  # after nn: amp reaches into nn's cells
from mskernel import parallel
from mskernel.parallel import Layout
from mskernel.parallel.shard import parameter_broadcast, shard  # noqa: F401
from mskernel import train
from mskernel.train import *  # noqa: F401,F403  (Model, callbacks, checkpoints: MindSpore's top-level names)
from mskernel.context import (GRAPH_MODE, PYNATIVE_MODE, get_context, get_current_device, set_context,
                              set_device)
from mskernel.refusals import refused_names as _refused_names
from mskernel.common.obj_dtype import get_py_obj_dtype  # noqa: F401
from mskernel.dtype import (AbstractType, Int, TensorType, byte, cdouble, cfloat,  # noqa: F401
                            int_, intc, intp, list_, long, number, short, string, tensor_type, tuple_, type_none,
                            ubyte, uint, uintc, uintp, ushort)
from mskernel.common.tensor_buffer import frombuffer  # noqa: F401
from mskernel.dtype import (QuantDtype, _null, _NullType, bfloat16, float8_e4m3fn, float8_e5m2,  # noqa: F401
                            hifloat8, qint4x2)
from mskernel.common.swap import swap_tensors  # noqa: F401
from mskernel.autograd.saved_hooks import register_saved_tensors_hooks, saved_tensors_hooks  # noqa: F401
from mskernel.common.api import enable_dynamic  # noqa: F401
from mskernel.common.device import DeviceCtx  # noqa: F401
from mskernel.common.file_system import mindio_preload, set_mindio_server_info  # noqa: F401
from mskernel.tools import set_dump  # noqa: F401
from mskernel.profiler import Profiler  # noqa: F401
from mskernel.train.merge_sliced import merge_sliced_parameter  # noqa: F401
from mskernel.utils.dlpack import from_dlpack, to_dlpack  # noqa: F401
from mskernel.common import tensor_extras as _tensor_extras
from mskernel.parallel_context import *  # noqa: F401,F403  (auto-parallel, algorithm and PS contexts: kept)
from mskernel.device_memory import *  # noqa: F401,F403  (memory statistics: zero on the CPU, as the wheel's)
from mskernel import runtime
from mskernel.runtime import (Event, Stream, StreamCtx, StreamLimitCtx, communication_stream,  # noqa: F401
                              current_stream, default_stream, dispatch_threads_num, get_device_limit,
                              get_stream_limit, launch_blocking, reset_stream_limit, set_cpu_affinity,
                              set_cur_stream, set_device_limit, set_kernel_launch_capture, set_kernel_launch_group,
                              set_memory, set_stream_limit)
from mskernel.graph_settings import (COMPATIBLE, LAX, STRICT, jit_class, lazy_inline, no_inline,  # noqa: F401
                                     set_deterministic, set_recursion_limit)
from mskernel.environment import async_ckpt_thread_status, get_level, get_log_config, run_check  # noqa: F401

_tensor_extras.attach()  # Tensor's state queries and byte views (data, get_bytes, is_signed, device, ...)
from mskernel.ops import tensor_inplace_more as _tensor_inplace_more, tensor_runtime as _tensor_runtime  # noqa: E402
_tensor_inplace_more.attach()  # addmm_, index_copy_, scatter_, fills, top_k, reverse, index
_tensor_runtime.attach()  # storage, hooks, data_sync, dlpack, to_, set_, param_info, ...
from mskernel.common.storage import UntypedStorage  # noqa: E402,F401  (what untyped_storage() gives)
for _name, _method in _refused_names("mindspore.Tensor").items():  # pin_memory, delete_: refused with the reason
    setattr(Tensor, _name, _method)

# the top-level names refused with their reason (mskernel.refusals); export/load/obfuscate_ckpt come from train
_REFUSED = {n: obj for n, obj in _refused_names("mindspore").items() if n not in train.__all__}
globals().update(_REFUSED)

_no_grad = no_grad


def show_graph(source: object, *inputs: object, max_nodes: int = 150) -> "widgets.GraphView":  # noqa: F821,F405
    """Show the autograd graph of ``source(*inputs)`` — a function or Cell and its inputs — as a widget
    (also the graph behind Tensor(s) or a GraphSnapshot). No ``requires_grad`` is needed: every float
    Tensor input and every Parameter the call reads is traced, with gradient statistics.

    Loads :mod:`mskernel.widgets` (ipywidgets, matplotlib) on first use, so ``import mskernel``
    stays light. See :class:`mskernel.widgets.GraphView`.

    Example:
        >>> import mskernel as ms
        >>> print(ms.show_graph(lambda x: (x * x).sum(), ms.Tensor([1.0, 2.0])))
        GraphView: 3 nodes, 3 edges, 3 boxes; outputs: n2
    """
    __tracebackhide__ = True
    from mskernel.widgets import show_graph as _show

    return _show(source, *inputs, max_nodes=max_nodes)


def benchmark(impls: Any, *args: Any, **options: Any) -> Any:
    """Time one or several implementations of an op on the same inputs, stating the method with the numbers;
    check first that they agree; place hybrid kernels on the machine's roofline. See
    :func:`mskernel.bench.benchmark` for the options (sweeps: ``sizes=``, ``inputs=``).

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([1.0, 2.0])
        >>> r = ms.benchmark([ms.ops.square, lambda a: a * a], x, flush=False, warmup=0, max_rounds=5)
        >>> r.names, r.agreement.describe()
        (['square', '<lambda>'], 'agreement: <lambda> match square on values and gradients')
    """
    from mskernel.bench import benchmark as _benchmark

    return _benchmark(impls, *args, **options)


def export_mindspore(op: object, path: "str | _PathLike[str]", *, example: object = None,
                     targets: "tuple[str, ...]" = ("GPU", "CPU"), allow_races: bool = False) -> _Path:
    """Write ``op`` as code real MindSpore runs unchanged; returns the file (for C++, the directory) written.

    A hybrid op becomes one file: its forward ``@kernel``, the backward ``@kernel`` mskernel derived
    (or the cell's bprop kernel), and ``op = ops.Custom(forward, ..., func_type="hybrid", bprop=...)``
    registered for the dtypes it was used with; a pyfunc op carries its Python functions; a C++ cell or
    ``CustomOpBuilder`` becomes its sources and a loader calling MindSpore's ``CustomOpBuilder``.
    ``example`` (call arguments) picks the signature when the op was called with several. What does not
    carry over raises :class:`mskernel.mindspore_export.ExportError` naming the construct, its line and what to
    change -- among it a hybrid kernel whose parallel loop races on a device (``allow_races=True`` exports it
    anyway). See :mod:`mskernel.mindspore_export`.

    Example:
        >>> import tempfile, numpy as np
        >>> import mskernel as ms
        >>> from mskernel import ops
        >>> from mskernel.ops import kernel
        >>> @kernel
        ... def double(x):
        ...     y = output_tensor(x.shape, x.dtype)
        ...     for i in range(x.shape[0]):
        ...         y[i] = x[i] * 2.0
        ...     return y
        >>> op = ops.Custom(double, func_type="hybrid")
        >>> path = ms.export_mindspore(op, tempfile.mkdtemp(), example=(np.ones(3, np.float32),))
        >>> [line for line in path.read_text().splitlines() if line.startswith(("forward", "backward"))]
        ['forward = double', 'backward = double_grad']
    """
    from mskernel.mindspore_export import export_mindspore as export

    return export(op, path, example=example, targets=targets, allow_races=allow_races)


def load_ipython_extension(ipython: object) -> None:
    """``%load_ext mskernel``: register the ``%%custom_op`` magics (see the ``magics`` package).

    Example:
        >>> from IPython.core.interactiveshell import InteractiveShell
        >>> load_ipython_extension(InteractiveShell.instance())
        >>> InteractiveShell.instance().find_cell_magic("custom_op") is not None
        True
    """
    from magics import load_ipython_extension as load  # the IPython layer sits above the library

    load(ipython)


def __getattr__(name: str) -> Any:
    """``GraphView`` and ``GradCheckView`` are imported from mskernel.widgets on first access, ``numpy``
    (``mindspore.numpy``), ``mint`` and ``dataset`` from their packages, ``PortabilityWarning`` from mskernel.hybrid (so
    ``warnings.simplefilter("error", ms.PortabilityWarning)`` needs no import of the hybrid compiler up front)."""
    if name == "PortabilityWarning":
        from mskernel.hybrid.portability import PortabilityWarning

        return PortabilityWarning
    if name in ("GraphView", "GradCheckView"):
        from mskernel import widgets

        return getattr(widgets, name)
    if name in ("numpy", "mint", "dataset", "hal", "multiprocessing", "tools", "device_context", "profiler"):
        import importlib

        return importlib.import_module(f"mskernel.{name}")
    raise AttributeError(f"module 'mskernel' has no attribute {name!r}")

__all__ = ["__version__", "recompute", "parallel", "Layout", "shard", "parameter_broadcast", "Symbol", "runtime",
           *[n for n in runtime.__all__ if n not in ("SETTINGS", "synchronize")],
           "dtype", "Type", "bool_", "complex64", "complex128", "double", "float16", "float32",
           "float64", "float_", "half", "int8", "int16", "int32", "int64", "single", "uint8", "uint16", "uint32",
           "uint64", "dtype_to_nptype", "dtype_to_pytype", "pytype_to_dtype", "Parameter", "Tensor", "from_numpy",
           "is_tensor", "autograd", "GradOperation", "ParameterTuple", "enable_grad", "get_grad", "grad", "no_grad",
           "value_and_grad", "ops", "nn", "GRAPH_MODE", "PYNATIVE_MODE", "get_context", "get_current_device",
           "set_context", "set_device", "gradcheck", "gradgradcheck", "GradcheckReport", "GradcheckError",
           "check_kernel", "KernelCheck",
           "show_graph", "export_mindspore", "benchmark", "GraphView", "GradCheckView", "_Function", "jit",  # noqa: F405
           "JitConfig", "mutable",
           "PortabilityWarning",  # noqa: F405
           "ParameterTuple", "set_seed", "get_seed", "train", "tensor", "common", "context", "amp", "communication",
           "jacfwd", "jacrev", "jvp", "vjp", "vmap", "COOTensor", "CSRTensor", "RowTensor", "SparseTensor",
           "Generator", "default_generator", "get_rng_state", "initial_seed", "manual_seed", "seed", "set_rng_state",
           "UntypedStorage",
           *train.__all__, *sorted(_REFUSED)]

# MindSpore 2.10 also spells the boolean dtype ``mindspore.bool`` (measured); not star-exported, so
# ``from mskernel import *`` keeps Python's bool.
globals()["bool"] = bool_

from mskernel import experimental  # noqa: E402,F401  (mindspore.experimental: imported with the package, as there)
from mskernel import rewrite  # noqa: E402,F401
from mskernel import boost  # noqa: E402,F401  (mindspore.boost: imported with the package, as there)
from mskernel.rewrite import Node, NodeType, ScopedValue, SymbolTree  # noqa: E402,F401

from mskernel.ops import codecache as _codecache  # noqa: E402

_codecache.save()  # the op table's code compiled in this import, kept for the next one (as .pyc files are)
from mskernel import graph  # noqa: E402,F401  (mindspore.graph: imported with the package, as there)
