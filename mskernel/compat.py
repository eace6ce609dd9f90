"""The compatibility table: every MindSpore name real code uses, and what mskernel does with it.

``CENSUS`` lists the names public MindSpore code uses most (model zoo, tutorials, MindCV, course
code), grouped as MindSpore exposes them. :func:`status` looks each one up in mskernel itself, so the
table is generated and cannot drift: a name *runs* when mskernel has it, *runs on the CPU* when
MindSpore would use a device for it, is *refused* (with the reason) when mskernel provides it only to
say why it cannot run, is *not in MindSpore 2.10* when the wheel itself lacks it (measured), and is
*missing* otherwise. The page also lists every public name of MindSpore 2.10's namespaces, each as runs,
refused or missing (:mod:`mskernel.compat_surface`). ``python -m mskernel compat`` prints the page;
``--write`` regenerates ``docs/compatibility.md`` (a test checks it is current).

Example:
    >>> status("ops", "softplus")[0] in ("runs", "missing")
    True
    >>> status("top", "export")[0]
    'refused'
"""
from __future__ import annotations

import importlib
from typing import Any, Dict, List, Optional, Tuple

from mskernel import compat_audit, compat_surface
from mskernel.refusals import REFUSED as _REFUSALS

__all__ = ["CENSUS", "REFUSED", "status", "rows", "markdown"]

_W = str.split
CENSUS: Dict[str, List[str]] = {
    "ops": _W("""cast depend stop_gradient reshape partial clip_by_value shape transpose concat dtype matmul assign
        expand_dims norm ones_like mul zeros stack sqrt value_and_grad broadcast_to interpolate normal fill zeros_like
        mean one_hot ones select log exp softmax cat squeeze tile split gather sum max min argmax abs pow where
        maximum minimum sigmoid tanh relu gelu silu log_softmax cumsum flatten pad topk sort tril triu masked_fill
        bmm einsum unsqueeze permute chunk gather_elements scatter unique arange linspace randn rand uniform dropout
        layer_norm batch_norm conv2d max_pool2d avg_pool2d adaptive_avg_pool2d cross_entropy
        binary_cross_entropy_with_logits mse_loss l1_loss smooth_l1_loss nll_loss kl_div cosine_similarity erf erfinv
        floor ceil round clamp rsqrt reciprocal atan2 logsumexp var std prod all any isnan isinf equal ne gt ge lt le
        logical_and logical_or logical_not flip roll repeat_interleave meshgrid outer diag eye softplus narrow lerp
        leaky_relu jvp vjp jacfwd jacrev vmap"""),
    "primitives": _W("""Concat Add Cast Reshape Shape Mul ReduceSum Transpose Split ExpandDims ReduceMean Squeeze Tile
        ReLU OneHot MatMul Sigmoid GradOperation Select Fill BatchMatMul Zeros ArgMaxWithValue Softmax Sqrt Greater
        GatherNd Equal Stack Log Slice Exp Pow TopK Gather Pad Sub RealDiv Div Neg Abs Square Maximum Minimum
        ReduceMax ReduceMin Argmax Less LessEqual GreaterEqual NotEqual LogicalAnd LogicalNot Tanh Sin Cos
        StridedSlice ScatterNd Ones ZerosLike OnesLike Erf Floor Rsqrt Reciprocal SigmoidCrossEntropyWithLogits
        SoftmaxCrossEntropyWithLogits SparseSoftmaxCrossEntropyWithLogits LayerNorm BatchNorm Conv2D MaxPool AvgPool
        Dropout Assign AssignAdd Print Identity HyperMap MultitypeFuncGraph HookBackward InsertGradientOf"""),
    "tensor": _W("""shape asnumpy astype set_data reshape dtype view transpose copy sum size mean squeeze flatten item
        max T ndim expand_as argmax min abs exp log sqrt pow clip norm std var unsqueeze expand_dims permute repeat
        tile to float int long bool numpy tolist any all nonzero masked_fill fill zero_ add_ mul_ sub_ copy_
        index_select gather scatter split chunk cumsum sort topk where init_data is_contiguous contiguous detach
        requires_grad grad from_numpy"""),
    "nn": _W("""Cell Conv2d ReLU SequentialCell BatchNorm2d Dense CellList MaxPool2d Dropout Adam
        SoftmaxCrossEntropyWithLogits LayerNorm AvgPool2d LeakyReLU Momentum Flatten Softmax SGD TrainOneStepCell
        Embedding GELU MSELoss WithLossCell CrossEntropyLoss L1Loss AdamWeightDecay Conv1d Conv2dTranspose
        BatchNorm1d GroupNorm AdaptiveAvgPool2d Sigmoid Tanh SiLU ELU PReLU Identity CellDict SmoothL1Loss
        BCEWithLogitsLoss BCELoss NLLLoss KLDivLoss AdamW RMSProp Adagrad LARS WithEvalCell
        TrainOneStepWithLossScaleCell DynamicLossScaleUpdateCell FixedLossScaleUpdateCell piecewise_constant_lr
        exponential_decay_lr cosine_decay_lr warmup_lr CosineDecayLR PolynomialDecayLR Accuracy Loss MAE MSE
        Top1CategoricalAccuracy Top5CategoricalAccuracy"""),
    "paths": _W("""mindspore.ops mindspore.nn mindspore.common mindspore.train.serialization mindspore.train.callback
        mindspore.dataset mindspore.common.dtype mindspore.context mindspore.common.initializer
        mindspore.common.tensor mindspore.train.model mindspore.common.parameter mindspore.ops.operations
        mindspore.ops.functional mindspore.ops.composite mindspore.nn.cell mindspore.train mindspore.communication
        mindspore.amp mindspore.ops.operations._inner_ops mindspore._extends mindspore._extends.parse
        mindspore.common.api"""),
    "top": _W("""Tensor float32 set_context load_checkpoint int32 load_param_into_net Parameter float16 Model set_seed
        ModelCheckpoint save_checkpoint LossMonitor TimeMonitor jit value_and_grad grad ParameterTuple context
        dtype int64 float64 bool_ uint8 export load CheckpointConfig Callback get_context set_device PYNATIVE_MODE
        GRAPH_MODE mutable ops nn amp numpy tensor from_numpy vmap jacfwd jacrev jvp vjp"""),
    "dataset": _W("""GeneratorDataset NumpySlicesDataset MnistDataset Cifar10Dataset ImageFolderDataset config.set_seed
        transforms.TypeCast transforms.Compose transforms.OneHot vision.Resize vision.Rescale vision.Normalize
        vision.HWC2CHW vision.ToTensor vision.RandomCrop vision.RandomHorizontalFlip"""),
}

#: the MindSpore namespace of each census group whose refusals come from the refusal table (mskernel.refusals)
_NAMESPACES = {"top": "mindspore", "ops": "mindspore.ops", "primitives": "mindspore.ops", "nn": "mindspore.nn"}
#: names mskernel provides only to refuse them, with the reason the error gives
REFUSED: Dict[Tuple[str, str], str] = {
    ("paths", "mindspore.ops.operations._inner_ops"): "resolves the op table's primitives; MindSpore-internal ones "
                                                      "(communication, graph mode, devices) raise saying so",
    **{(group, name): reason for group, ns in _NAMESPACES.items() for name, reason in _REFUSALS.get(ns, {}).items()
       if name in CENSUS[group]},
}
#: names that run here on the CPU where MindSpore would use a device or several processes
ON_CPU: Dict[Tuple[str, str], str] = {
    ("top", "set_device"): "'GPU'/'Ascend' accepted with a one-time warning; runs on the CPU",
    ("top", "set_context"): "device_target accepted; GRAPH_MODE runs eagerly",
    ("paths", "mindspore.communication"): "one process: rank 0 of a group of 1",
    ("top", "jit"): "runs the function eagerly (what 2.10 does not compile, a functools.partial or a callable "
                    "object, is returned unchanged as there)",
}

#: census names MindSpore 2.10 itself does not have where real code looks them up (measured on the wheel)
NOT_IN_MINDSPORE: Dict[Tuple[str, str], str] = {
    ("tensor", "detach"): "MindSpore 2.10's Tensor has no detach; ops.stop_gradient(x) is MindSpore's way",
    ("tensor", "grad"): "MindSpore 2.10's Tensor has no grad attribute; gradients come from ms.grad/value_and_grad",
    ("nn", "AdamW"): "MindSpore 2.10 has no nn.AdamW (mindspore.mint.optim.AdamW is the torch-style one); "
                     "nn.AdamWeightDecay is its nn optimizer with decoupled weight decay",
}
#: census Tensor names that MindSpore 2.10 has on Parameter only (so has mskernel)
ON_PARAMETER = {"set_data", "requires_grad"}

_GROUP_TITLES = {"ops": "Functional ops (`ops.x`)", "primitives": "Primitive classes (`ops.X`)",
                 "tensor": "Tensor methods and attributes", "nn": "`mindspore.nn`", "paths": "Import paths",
                 "top": "Top-level names (`mindspore.x`)", "dataset": "`mindspore.dataset`"}


def _lookup(group: str, name: str) -> Optional[Any]:
    import mskernel
    try:
        if group == "ops":
            return getattr(mskernel.ops, name)
        if group == "primitives":
            return getattr(mskernel.ops, name)
        if group == "tensor":
            return getattr(mskernel.Parameter if name in ON_PARAMETER else mskernel.Tensor, name)
        if group == "nn":
            return getattr(mskernel.nn, name)
        if group == "paths":
            return importlib.import_module(name.replace("mindspore", "mskernel", 1))
        if group == "top":
            return getattr(mskernel, name)
        if group == "dataset":
            obj: Any = importlib.import_module("mskernel.dataset")
            for part in name.split("."):
                obj = getattr(obj, part)
            return obj
    except (AttributeError, ImportError):
        return None
    raise ValueError(f"unknown census group {group!r}")


def status(group: str, name: str) -> Tuple[str, str]:
    """(``runs`` | ``runs on the CPU`` | ``refused`` | ``not in MindSpore 2.10`` | ``missing``, note) for one
    census name.

    Example:
        >>> status("nn", "Cell")
        ('runs', '')
    """
    if (group, name) in REFUSED:
        return "refused", REFUSED[(group, name)]
    if (group, name) in NOT_IN_MINDSPORE:
        return "not in MindSpore 2.10", NOT_IN_MINDSPORE[(group, name)]
    if group == "tensor" and name in ON_PARAMETER and _lookup(group, name) is not None:
        return "runs", "on Parameter, as in MindSpore 2.10 (a plain Tensor has none)"
    if _lookup(group, name) is None:
        return "missing", ""
    if (group, name) in ON_CPU:
        return "runs on the CPU", ON_CPU[(group, name)]
    return "runs", ""


def rows() -> List[Tuple[str, str, str, str]]:
    """(group, name, status, note) for every census name, in census order.

    Example:
        >>> ("ops", "cast", "runs", "") in rows()
        True
    """
    return [(g, n, *status(g, n)) for g, names in CENSUS.items() for n in names]


def markdown() -> str:
    """The compatibility page: a summary, one table per census group, every public name of MindSpore 2.10's
    namespaces (:mod:`mskernel.compat_surface`) and the op table's entries.

    Example:
        >>> markdown().splitlines()[0]
        '# MindSpore compatibility'
    """
    from mskernel.ops.registry import compat_rows

    table = rows()
    count: Dict[str, int] = {}
    for _, _, st, _ in table:
        count[st] = count.get(st, 0) + 1
    out = ["# MindSpore compatibility", "",
           "Generated by `python -m mskernel compat --write` from `mskernel/compat.py` (the names real MindSpore code",
           "uses, most used first), `mskernel/compat_surface.py` (every public name of MindSpore 2.10),",
           "`mskernel/compat_audit.py` (MindSpore's own examples, run here) and the op table; `tests/test_compat.py`",
           "checks it is current.", "",
           "Summary: " + ", ".join(f"{n} {st}" for st, n in sorted(count.items())) + f" (of {len(table)} names).",
           ""]
    for group, title in _GROUP_TITLES.items():
        out += [f"## {title}", "", "| name | status | note |", "|---|---|---|"]
        out += [f"| `{n}` | {st} | {note} |" for g, n, st, note in table if g == group]
        out.append("")
    out += compat_surface.markdown_lines()
    out += compat_audit.markdown_lines()
    ops_rows = compat_rows()
    out += ["## The op table", "", f"{len(ops_rows)} entries; each gives the functional op, its primitive classes "
            "and Tensor methods.", "", "| functional | primitive | Tensor methods | note |", "|---|---|---|---|"]
    out += [f"| {f} | {p} | {m} | {note} |" for f, p, m, note in ops_rows]
    return "\n".join(out) + "\n"
