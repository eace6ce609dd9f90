"""The refusal table: MindSpore names that cannot run on a CPU in one process, each with the reason.

mskernel has each of these names, so that MindSpore code importing them still imports, but using one
(calling the function, constructing the class) raises :class:`~mskernel.errors.RefusedError` naming it and
giving the reason. A name belongs here only when what it does cannot happen here at all: it needs a device
(the Ascend NPU's float-status register; the NPU's fused kernels, whose layouts, sparse modes and rounding
that device's implementation defines: for each of these the CPU wheel itself has no kernel, measured by calling
it there), MindSpore's graph
compiler (MindIR files, the strategy files of auto-parallel compilation), or another process (point-to-point
communication: in a group of one there is no peer, and the CPU wheel refuses a send to its own rank), or it is
an internal of MindSpore's own implementation whose result only that implementation reads (the index-lowering
plan ``Tensor.getitem_index_info`` returns: mskernel gives indexing's results directly). Names
that could run here but do not yet are *missing* in the compatibility table, not refused.

Each package puts its refused names in its namespace with :func:`refused_names`; the compatibility table
(:mod:`mskernel.compat_surface`) reads ``REFUSED``.

Example:
    >>> from mskernel.refusals import REFUSED, refused_names
    >>> send = refused_names("mindspore.ops")["Send"]
    >>> send(0, 1)
    Traceback (most recent call last):
    ...
    mskernel.errors.RefusedError: mindspore.ops.Send cannot run in mskernel: point-to-point communication ...
"""
from __future__ import annotations

from typing import Any, Dict, NoReturn

from mskernel.errors import RefusedError

__all__ = ["REFUSED", "refused_names", "is_refusal"]

_MINDIR = ("it reads or writes MindIR/AIR/ONNX graphs, and mskernel has no graph compiler (save weights with "
           "save_checkpoint and rebuild the network from its Python code)")
_STRATEGY = ("it works on the strategy files MindSpore's auto-parallel graph compiler writes for a multi-device "
             "run; mskernel has no graph compiler and runs one process")
_OBF = "it obfuscates MindSpore's compiled graphs, which mskernel does not build"
_P2P = ("point-to-point communication needs a peer process; mskernel runs one process (rank 0 of a group of 1), "
        "and the CPU wheel too refuses a send to its own rank")
_STATUS = ("it reads or clears the Ascend NPU's floating-point status register, which a CPU does not have (the "
           "CPU wheel has no kernel for it)")

def _fused(kernel: str, what: str) -> str:
    return (f"it is the Ascend NPU's fused {what} kernel, defined by that device's implementation; MindSpore 2.10's "
            f"CPU wheel has no kernel for it either (calling it there raises \"The kernel {kernel} unregistered\" or "
            "\"only supports Ascend\"). Write it with ops (e.g. softmax(q @ k.T * scale) @ v) to run it here")


_GRAPH_ONLY = ("it is exchanged only inside graphs MindSpore's compiler builds (the CPU wheel's PyNative call raises "
               "NotImplementedError), and it sends to and receives from neighbouring ranks, which one process does "
               "not have")
_PS = ("it pushes gradients to or pulls weights from a parameter server, another process (the CPU wheel has no kernel "
       "for it: \"Unsupported op [{op}] on CPU\"); mskernel runs one process")
_MOE = ("it is the Ascend NPU's fused mixture-of-experts dispatch/combine across expert-parallel ranks, whose layouts "
        "and quantisation are that device's; the CPU wheel raises \"'MoeDistributeDispatch' only support "
        "[ascend910b, ascend910_93]\" and \"The kernel MoeDistributeCombine unregistered\"")
_ADASUM = ("AdaSum combines the updates of at least 16 ranks (a power of 2) pairwise; the CPU wheel raises \"Stand "
           "alone mode is not supported to apply adasum.\" in one process, and mskernel runs one process")

_ATTN = "attention"
_INDEX_PLAN = ("it is an internal of MindSpore's own indexing, not a user API (its docstring is one line): it returns "
               "the plan the wheel's getitem/setitem lowering follows, codes of a C++ enum (ValueTransferType: 7 "
               "strided slice, 9 gather_nd, 27 just-return, ...) with their arguments, which only that lowering reads; "
               "mskernel indexes tensors directly (x[index], x[index] = value give the wheel's results) and has no "
               "such plan to return")

_POOL = ("it routes device memory through a custom allocator loaded from a shared library; mskernel's tensors are "
         "numpy arrays in host memory, and the CPU wheel itself fails to switch allocators (use_mem_pool raises "
         "NameError: _enable_pluggable_allocator is not defined)")

_GE = ("it is a control-flow primitive of the Ascend graph engine (GE), which MindSpore 2.10 runs only inside "
       "graphs compiled for GE; the CPU wheel raises NotImplementedError for it, and mskernel has no graph compiler")

#: MindSpore namespace -> refused name -> the reason its error gives (one line each)
REFUSED: Dict[str, Dict[str, str]] = {
    "mindspore": {
        "TrainFaultTolerance": ("it drives Huawei's MindIO TFT service (fault reporting, uce/arf recovery across an "
                                "Ascend cluster, Ascend graph mode only); the CPU wheel refuses it too (\"MindIO TFT "
                                "register need custom switch on one of: ['TTP:1', 'UCE:1', 'ARF:1', 'TSP:1', "
                                "'HCCE:1']\"), and mskernel runs one process with no MindIO"),
        "export": _MINDIR,
        "load": _MINDIR,
        "load_mindir": _MINDIR,
        "save_mindir": _MINDIR,
        "export_split_mindir": _MINDIR,
        "obfuscate_ckpt": _OBF,
        "load_obf_params_into_net": _OBF,
        "build_searched_strategy": _STRATEGY,
        "merge_pipeline_strategys": _STRATEGY,
        "restore_group_info_list": _STRATEGY,
        "transform_checkpoints": _STRATEGY,
        "transform_checkpoint_by_rank": _STRATEGY,
        "rank_list_for_transform": _STRATEGY,
        "load_distributed_checkpoint": _STRATEGY,
        "get_ckpt_path_with_strategy": _STRATEGY,
        "sync_pipeline_shared_parameters": "pipeline-parallel stages share parameters across processes; "
                                           "mskernel runs one process",
        "unified_safetensors": _STRATEGY,
        "flops_collection": ("it counts the FLOPs of the graph MindSpore's graph compiler built for a parallel run; "
                             "mskernel has no graph compiler (the CPU wheel raises \"The pointer[graph] is null\")"),
        "memory_replay": ("it replays a device memory-allocation trace on the Ascend NPU's allocator; the CPU wheel "
                          "raises \"Create device context failed\" for it"),
        "MemPool": _POOL,
        "use_mem_pool": _POOL,
        "PluggableAllocator": _POOL,
    },
    "mindspore.nn": {
        "GraphCell": "it runs a graph loaded from a MindIR file, and mskernel has no graph compiler",
        "GetNextSingleOp": ("it reads the next batch from a device data queue (GetNext); the CPU wheel has no "
                            "kernel for it (\"Unsupported op [GetNext] on CPU\") and mskernel has no device queue: "
                            "iterate the dataset instead"),
        "OptTFTWrapper": ("it registers the optimizer with MindIO TFT, the Ascend training-fault-tolerance service; "
                          "the wheel raises \"MindIO adataper only support on Ascend device!\" elsewhere"),
        "AdaSumByGradWrapCell": _ADASUM,
        "AdaSumByDeltaWeightWrapCell": _ADASUM,
    },
    "mindspore.ops": {
        "NPUAllocFloatStatus": _STATUS,
        "NPUGetFloatStatus": _STATUS,
        "NPUClearFloatStatus": _STATUS,
        "flash_attention_score": _fused("FlashAttentionScore", _ATTN),
        "prompt_flash_attention": _fused("PromptFlashAttention", _ATTN),
        "incre_flash_attention": _fused("IncreFlashAttention", _ATTN),
        "fused_infer_attention_score": _fused("FusedInferAttentionScore", _ATTN),
        "speed_fusion_attention": _fused("SpeedFusionAttention", _ATTN),
        "sparse_flash_attention": _fused("SparseFlashAttention", "sparse attention"),
        "ring_attention_update": _fused("RingAttentionUpdate", "ring-attention update"),
        "PagedAttention": _fused("PagedAttention", "paged (KV-cache) attention"),
        "PagedAttentionMask": _fused("PagedAttentionMask", "paged (KV-cache) attention"),
        "multi_scale_deformable_attn_function": _fused("MultiScaleDeformableAttn", "deformable attention"),
        "nsa_compress": _fused("NsaCompress", "native-sparse-attention compression"),
        "nsa_compress_attention": _fused("NsaCompressAttention", "native-sparse-attention"),
        "nsa_select_attention": _fused("NsaSelectAttention", "native-sparse-attention"),
        "lightning_indexer": _fused("LightningIndexer", "lightning-indexer"),
        "moe_init_routing_v2": _fused("MoeInitRoutingV2", "mixture-of-experts routing"),
        "moe_token_permute": _fused("MoeTokenPermute", "mixture-of-experts token permutation"),
        "moe_token_unpermute": _fused("MoeTokenUnpermute", "mixture-of-experts token permutation"),
        "Send": _P2P,
        "Receive": _P2P,
        "BatchISendIRecv": _P2P,
        "send": _P2P,
        "recv": _P2P,
        "isend": _P2P,
        "irecv": _P2P,
        "batch_isend_irecv": _P2P,
        "send_object_list": _P2P,
        "recv_object_list": _P2P,
        "Merge": _GE,
        "GeSwitch": _GE,
        "merge": _GE,
        "geswitch": _GE,
        "NeighborExchange": _GRAPH_ONLY,
        "NeighborExchangeV2": _GRAPH_ONLY,
        "Push": _PS.format(op="Push"),
        "Pull": _PS.format(op="Pull"),
        "moe_distribute_dispatch": _MOE,
        "moe_distribute_combine": _MOE,
        "distribute": ("it is a bare primitive of MindSpore's graph IR, used by its auto-parallel compiler; the CPU "
                       "wheel raises \"prim:distribute has no attr:__infer__\" when it is called"),
        "GroupTopk": _fused("GroupTopk", "grouped top-k (mixture-of-experts routing)"),
        "ApplyRotaryPosEmb": _fused("ApplyRotaryPosEmb", "rotary position embedding (its cos_format layouts)"),
        "ReshapeAndCache": _fused("ReshapeAndCache", "KV-cache write"),
        "GetNext": ("it takes batches from the device data queue that dataset sinking fills (a device run with "
                    "dataset_sink_mode=True); the CPU wheel has no kernel for it (\"Unsupported op [GetNext] on "
                    "CPU\"). Iterate the dataset (create_tuple_iterator) to get its batches here"),
        "make_map_parameter": ("it builds a MapParameter, the hash-table parameter of MindSpore's embedding caches, "
                               "inside a compiled graph; the CPU wheel has no kernels for MapParameter's operations "
                               "(\"Unsupported op [MapTensorGet] on CPU\") and its PyNative call fails (\"The input "
                               "value shape is empty\"); use an nn.Embedding or a Parameter and gather"),
        "PyExecute": ("it is the node MindSpore's graph compiler emits to run Python it cannot compile (JIT "
                      "fallback), and mskernel has no graph compiler; called directly the CPU wheel raises "
                      "\"Invalid primitive:PyExecute\""),
    },
    "mindspore.Tensor": {
        "pin_memory": ("it page-locks the tensor's host memory for fast copies to an Ascend or GPU device, and a CPU "
                       "run has no device to copy to (the CPU wheel fails creating the device context: \"Create "
                       "device context failed, please make sure target device:2 is available\"); is_pinned() is "
                       "False here"),
        "delete_": ("it frees the tensor's device memory; the CPU wheel has no kernel for that (\"Unsupported op "
                    "[Free] on CPU\"), and mskernel's tensors own host memory that Python frees when the last "
                    "reference goes (del x)"),
        "getitem_index_info": _INDEX_PLAN,
        "setitem_index_info": _INDEX_PLAN,
        "set_device_address": ("it points the tensor at a raw Ascend device address (address, shape, dtype); the CPU "
                               "wheel raises \"set_device_address now only support Ascend backend!\", and a CPU run "
                               "has no device memory to point at"),
    },
    "mindspore.mint": {
        "npu_gelu": ("it is the Ascend NPU's own GeLU kernel (the CPU wheel raises \"Not implement exception\"); "
                     "mint.nn.functional.gelu computes GeLU here"),
    },
    "mindspore.dataset": {
        "sync_wait_for_dataset": "it waits, through OBS cloud storage, for the other ranks of a multi-process "
                                 "ModelArts run to finish an epoch; mskernel runs one process and has no OBS",
        "OBSMindDataset": "it reads MindRecord files from cloud object storage (Huawei OBS, or an S3/Minio server) and "
                          "synchronises the ranks of a ModelArts job through it; mskernel has no object-storage "
                          "client (download the files and read them with MindDataset)",
        "DatasetCache": "it is a client of MindSpore's dataset cache server, a separate process (started with "
                        "`dataset-cache --start`, which also hands out the session ids); mskernel runs one process "
                        "and has no cache server (the CPU wheel without one fails the pipeline with \"Cache server "
                        "with port 50052 is unreachable\"); a pipeline gives the same rows with cache=None",
    },
    "mindspore.dataset.transforms": {
        "Plugin": "it loads a shared library written against MindSpore's C++ data engine (the MindData plugin "
                  "API), which mskernel does not have",
    },
    "mindspore.mint.distributed": {
        "send": _P2P,
        "recv": _P2P,
        "isend": _P2P,
        "irecv": _P2P,
        "batch_isend_irecv": _P2P,
        "send_object_list": _P2P,
        "recv_object_list": _P2P,
    },
}


def _home(namespace: str) -> str:
    return "mskernel" + namespace[len("mindspore"):]


def _doc(namespace: str, name: str, reason: str, call: str) -> str:
    if namespace == "mindspore.Tensor":  # a method: called on a tensor
        setup, path = "import mskernel", f"mskernel.Tensor([1.0]).{name}"
    else:
        setup, path = f"import {_home(namespace)}", f"{_home(namespace)}.{name}"
    return (f"Refused: ``{namespace}.{name}`` cannot run here ({reason}).\n\n"
            f"    Using it raises :class:`~mskernel.errors.RefusedError` naming it and giving the reason.\n\n"
            f"    Example:\n"
            f"        >>> {setup}\n"
            f"        >>> {path}{call}\n"
            f"        Traceback (most recent call last):\n"
            f"        ...\n"
            f"        mskernel.errors.RefusedError: {namespace}.{name} cannot run in mskernel: ...\n")


def _make(namespace: str, name: str, reason: str) -> Any:
    qualified = f"{namespace}.{name}"
    if name[:1].isupper():  # a class: constructing it is using it
        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            raise RefusedError(qualified, reason)
        return type(name, (), {"__init__": __init__, "__doc__": _doc(namespace, name, reason, "()"),
                               "__module__": _home(namespace), "_refused": reason})

    def refused(*args: Any, **kwargs: Any) -> NoReturn:
        raise RefusedError(qualified, reason)
    refused.__name__ = refused.__qualname__ = name
    refused.__module__ = _home(namespace)
    refused.__doc__ = _doc(namespace, name, reason, "()")
    refused._refused = reason  # type: ignore[attr-defined]
    return refused


_OBJECTS: Dict[str, Dict[str, Any]] = {ns: {n: _make(ns, n, r) for n, r in names.items()}
                                       for ns, names in REFUSED.items()}

#: every refused object, so that doctest runs their examples from here
__test__ = {f"{ns}.{n}": obj for ns, objs in _OBJECTS.items() for n, obj in objs.items()}


def refused_names(namespace: str) -> Dict[str, Any]:
    """The refused objects of one MindSpore namespace (``"mindspore.ops"``), by name, for its package to
    put in its own namespace.

    Example:
        >>> "GraphCell" in refused_names("mindspore.nn")
        True
    """
    return dict(_OBJECTS.get(namespace, {}))


def is_refusal(obj: Any) -> bool:
    """Whether ``obj`` is one of the refused objects of the table.

    Example:
        >>> import mskernel
        >>> is_refusal(mskernel.load_mindir), is_refusal(mskernel.Tensor)
        (True, False)
    """
    return any(obj is o for objs in _OBJECTS.values() for o in objs.values())
