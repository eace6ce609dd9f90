"""A point-to-point operation described (mskernel.communication.p2p.P2POp): building one needs no peer, so it is
checked as MindSpore checks it; carrying it out (batch_isend_irecv) needs a peer process and is refused."""
_T = "from mindspore.mint.distributed import P2POp, isend, irecv\n"
CASES = {
    "p2p_string_ops": _T + "result = [(o.peer, o.group, o.tag) for o in (P2POp('isend', Tensor(1.0), 1), P2POp('irecv', Tensor(0.0), 0, group='g'))]",
    "p2p_function_ops": _T + "result = [o.peer for o in (P2POp(isend, Tensor(1.0), 3), P2POp(irecv, Tensor(0.0), 2))]",
    "p2p_ops_namespace": "from mindspore.ops.communication import P2POp, isend\nresult = P2POp(isend, Tensor(1.0), 1).peer",
    "p2p_bad_op_string": _T + "result = P2POp('send', Tensor(1.0), 1)",
    "p2p_bad_op_object": _T + "result = P2POp(3, Tensor(1.0), 1)",
    "p2p_bad_tensor": _T + "result = P2POp('isend', 1.0, 1)",
    "p2p_bad_peer": _T + "result = P2POp('isend', Tensor(1.0), 1.0)",
    "p2p_bad_tag": _T + "result = P2POp('isend', Tensor(1.0), 1, tag=2)",
}
OPTIONS = {k: {"message": True} for k in CASES if k.startswith("p2p_bad")}
