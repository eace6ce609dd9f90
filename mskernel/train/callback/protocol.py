"""The callback protocol: what a callback is, what it sees, and how ``Model`` runs a list of them.

A callback overrides any of ``on_train_begin``, ``on_train_epoch_begin``, ``on_train_step_begin``,
``on_train_step_end``, ``on_train_epoch_end``, ``on_train_end`` and their ``on_eval_*`` twins; by
default each calls MindSpore's older name (``begin``, ``epoch_begin``, ``step_begin``, ``step_end``,
``epoch_end``, ``end``), so callbacks written either way run; :class:`LambdaCallback` is a callback given
as functions, one per hook. A callback sees a :class:`RunContext`: ``run_context.original_args()`` is the
dict-like ``cb_params`` (``cur_epoch_num``, ``cur_step_num``, ``batch_num``, ``net_outputs``,
``train_network``, ``epoch_num``, ``optimizer``, ``mode``, ...; :func:`handle_loss` reads the loss out of
``net_outputs``), and ``request_stop()`` ends training after the current step. ``Model`` runs its
callbacks through a :class:`CallbackManager`. The callbacks that ship are grouped by family:
:mod:`~mskernel.train.callback.progress` (printed progress), :mod:`~mskernel.train.callback.epoch_results`
(what each epoch produced) and :mod:`~mskernel.train.callback.checkpoint` (saving the network).

Example:
    >>> class Count(Callback):
    ...     def step_end(self, run_context):
    ...         print("step", run_context.original_args().cur_step_num)
    >>> params = InternalCallbackParam(cur_step_num=3)
    >>> Count().on_train_step_end(RunContext(params))
    step 3
"""
from __future__ import annotations

import logging
from contextlib import ExitStack
from typing import Any, Callable, List, Optional

from mskernel.common.tensor import Tensor

__all__ = ["Callback", "RunContext", "LambdaCallback"]

logger = logging.getLogger(__name__)


class Callback:
    """Base class of training/evaluation callbacks; every hook does nothing unless overridden.

    Example:
        >>> class Hello(Callback):
        ...     def on_train_begin(self, run_context):
        ...         print("hello")
        >>> Hello().on_train_begin(RunContext({}))
        hello
    """

    def __enter__(self) -> "Callback":
        return self

    def __exit__(self, *err: Any) -> None:
        return None

    def begin(self, run_context: "RunContext") -> None:
        """Once before training or evaluation (older name of ``on_train_begin``/``on_eval_begin``).

        Example:
            >>> Callback().begin(RunContext({}))
        """

    def epoch_begin(self, run_context: "RunContext") -> None:
        """Before each epoch.

        Example:
            >>> Callback().epoch_begin(RunContext({}))
        """

    def epoch_end(self, run_context: "RunContext") -> None:
        """After each epoch.

        Example:
            >>> Callback().epoch_end(RunContext({}))
        """

    def step_begin(self, run_context: "RunContext") -> None:
        """Before each step.

        Example:
            >>> Callback().step_begin(RunContext({}))
        """

    def step_end(self, run_context: "RunContext") -> None:
        """After each step.

        Example:
            >>> Callback().step_end(RunContext({}))
        """

    def end(self, run_context: "RunContext") -> None:
        """Once after training or evaluation.

        Example:
            >>> Callback().end(RunContext({}))
        """

    def on_train_begin(self, run_context: "RunContext") -> None:
        """Before training (calls ``begin``).

        Example:
            >>> Callback().on_train_begin(RunContext({}))
        """
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context: "RunContext") -> None:
        """Before each training epoch (calls ``epoch_begin``).

        Example:
            >>> Callback().on_train_epoch_begin(RunContext({}))
        """
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context: "RunContext") -> None:
        """After each training epoch (calls ``epoch_end``).

        Example:
            >>> Callback().on_train_epoch_end(RunContext({}))
        """
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context: "RunContext") -> None:
        """Before each training step (calls ``step_begin``).

        Example:
            >>> Callback().on_train_step_begin(RunContext({}))
        """
        self.step_begin(run_context)

    def on_train_step_end(self, run_context: "RunContext") -> None:
        """After each training step (calls ``step_end``).

        Example:
            >>> Callback().on_train_step_end(RunContext({}))
        """
        self.step_end(run_context)

    def on_train_end(self, run_context: "RunContext") -> None:
        """After training (calls ``end``).

        Example:
            >>> Callback().on_train_end(RunContext({}))
        """
        self.end(run_context)

    def on_eval_begin(self, run_context: "RunContext") -> None:
        """Before evaluation (calls ``begin``).

        Example:
            >>> Callback().on_eval_begin(RunContext({}))
        """
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context: "RunContext") -> None:
        """Before the evaluation pass (calls ``epoch_begin``).

        Example:
            >>> Callback().on_eval_epoch_begin(RunContext({}))
        """
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context: "RunContext") -> None:
        """After the evaluation pass (calls ``epoch_end``).

        Example:
            >>> Callback().on_eval_epoch_end(RunContext({}))
        """
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context: "RunContext") -> None:
        """Before each evaluation step (calls ``step_begin``).

        Example:
            >>> Callback().on_eval_step_begin(RunContext({}))
        """
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context: "RunContext") -> None:
        """After each evaluation step (calls ``step_end``).

        Example:
            >>> Callback().on_eval_step_end(RunContext({}))
        """
        self.step_end(run_context)

    def on_eval_end(self, run_context: "RunContext") -> None:
        """After evaluation (calls ``end``).

        Example:
            >>> Callback().on_eval_end(RunContext({}))
        """
        self.end(run_context)


_HOOKS = ("begin", "epoch_begin", "epoch_end", "step_begin", "step_end", "end",
          "on_train_begin", "on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin", "on_train_step_end",
          "on_train_end", "on_eval_begin", "on_eval_epoch_begin", "on_eval_epoch_end", "on_eval_step_begin",
          "on_eval_step_end", "on_eval_end")


class CallbackManager(Callback):
    """Runs a list of callbacks in order at every hook (entering each as a context manager).

    Example:
        >>> class Say(Callback):
        ...     def __init__(self, word):
        ...         self.word = word
        ...     def step_end(self, run_context):
        ...         print(self.word)
        >>> with CallbackManager([Say("a"), Say("b")]) as cbs:
        ...     cbs.on_train_step_end(RunContext({}))
        a
        b
    """

    def __init__(self, callbacks: Any) -> None:
        self._members: List[Callback] = _checked_callbacks(callbacks)
        self._exits: Optional[ExitStack] = None

    @property
    def callbacks(self) -> List[Callback]:
        """The callbacks this manager runs (after ``with``: what each one's ``__enter__`` returned).

        Example:
            >>> cb = Callback(); CallbackManager(cb).callbacks == [cb]
            True
        """
        return list(self._members)

    def __enter__(self) -> "CallbackManager":
        if self._exits is not None:  # entered already: a nested ``with`` enters nothing twice
            return self
        self._exits = ExitStack()
        self._exits.__enter__()
        try:
            self._members = [self._enter_one(cb) for cb in self._members]
        except BaseException:  # a callback that cannot enter: the ones entered before it are exited
            exits, self._exits = self._exits, None
            exits.close()
            raise
        return self

    def _enter_one(self, cb: Callback) -> Callback:
        got = self._exits.enter_context(cb)
        if isinstance(got, Callback):
            return got
        logger.warning("Please return 'self' or a Callback as the enter target.")
        return cb

    def __exit__(self, *err: Any) -> Any:
        exits, self._exits = self._exits, None
        if exits is None:
            return None
        return exits.__exit__(*err)


def _checked_callbacks(callbacks: Any) -> List[Callback]:
    """None, one Callback or a list of Callbacks, as a new list; MindSpore's TypeErrors for anything else."""
    if callbacks is None:
        return []
    if isinstance(callbacks, Callback):
        return [callbacks]
    if not isinstance(callbacks, list):
        raise TypeError("The 'callbacks' is not a Callback or a list of Callback.")
    if not all(isinstance(cb, Callback) for cb in callbacks):
        raise TypeError("When the 'callbacks' is a list, the elements in 'callbacks' must be Callback functions.")
    return list(callbacks)


def _fan_out(hook: str) -> Any:
    def run(self: CallbackManager, run_context: "RunContext") -> None:
        for cb in self._members:
            getattr(cb, hook)(run_context)
    run.__name__ = hook
    run.__doc__ = f"Call ``{hook}`` of every callback."
    return run


for _hook in _HOOKS:
    setattr(CallbackManager, _hook, _fan_out(_hook))


class InternalCallbackParam(dict):
    """``cb_params``: a dict whose keys read and write as attributes.

    Example:
        >>> p = InternalCallbackParam(); p.cur_epoch_num = 2; p["cur_epoch_num"]
        2
    """

    __setattr__ = dict.__setitem__

    def __getattr__(self, key: str) -> Any:
        if key in self:
            return self[key]
        raise AttributeError(key)


class RunContext:
    """What a callback sees: ``original_args()`` (the cb_params) and a way to stop training.

    Example:
        >>> rc = RunContext({"cur_step_num": 1})
        >>> rc.request_stop(); rc.get_stop_requested(), rc.original_args()
        (True, {'cur_step_num': 1})
    """

    def __init__(self, original_args: dict) -> None:
        if not isinstance(original_args, dict):
            raise TypeError(f"The argument 'original_args' of RunContext should be dict type, but got "
                            f"{type(original_args)}.")
        self._params = original_args
        self._stop = False

    def original_args(self) -> dict:
        """The model's information for callbacks (cb_params).

        Example:
            >>> RunContext({"mode": "train"}).original_args()["mode"]
            'train'
        """
        return self._params

    def request_stop(self) -> None:
        """Ask the training (or evaluation) loop to stop after the current step.

        Example:
            >>> rc = RunContext({}); rc.request_stop(); rc.get_stop_requested()
            True
        """
        self._stop = True

    def get_stop_requested(self) -> bool:
        """Whether a stop was requested.

        Example:
            >>> RunContext({}).get_stop_requested()
            False
        """
        return self._stop


def handle_loss(loss: Any) -> Any:
    """The loss as LossMonitor prints it: a Tensor as the Python float of its mean; a tuple or list whose
    first item is a Tensor as that Tensor; anything else as it is.

    Example:
        >>> handle_loss(Tensor([1.0, 2.0]))
        1.5
        >>> handle_loss((Tensor([1.0]), 2))
        Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00])
    """
    if isinstance(loss, Tensor):
        return float(loss.asnumpy().mean())
    first_is_tensor = isinstance(loss, (tuple, list)) and len(loss) > 0 and isinstance(loss[0], Tensor)
    return loss[0] if first_is_tensor else loss


def check_non_negative_int(value: Any) -> int:
    """``value`` if it is an int >= 0 (a count or an interval of a callback), else MindSpore's TypeError or ValueError.

    Example:
        >>> check_non_negative_int(3)
        3
        >>> check_non_negative_int(-1)
        Traceback (most recent call last):
        ...
        ValueError: The input value must be int and must >= 0, but got '-1' with type 'int'.
    """
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"The input value must be int, but got '{type(value).__name__}'")
    if value < 0:
        raise ValueError(f"The input value must be int and must >= 0, but got '{value}' with type 'int'.")
    return value


_LAMBDA_HOOKS = tuple(hook for hook in _HOOKS if hook.startswith("on_"))  # the hooks a LambdaCallback takes


class LambdaCallback(Callback):
    """A callback made of functions ``f(run_context)`` given per hook; hooks not given do nothing.

    Example:
        >>> cb = LambdaCallback(on_train_step_end=lambda rc: print("step", rc.original_args()["cur_step_num"]))
        >>> cb.on_train_step_end(RunContext({"cur_step_num": 7})); cb.on_train_begin(RunContext({}))
        step 7
    """

    def __init__(self, on_train_epoch_begin: Optional[Callable] = None, on_train_epoch_end: Optional[Callable] = None,
                 on_train_step_begin: Optional[Callable] = None, on_train_step_end: Optional[Callable] = None,
                 on_train_begin: Optional[Callable] = None, on_train_end: Optional[Callable] = None,
                 on_eval_epoch_begin: Optional[Callable] = None, on_eval_epoch_end: Optional[Callable] = None,
                 on_eval_step_begin: Optional[Callable] = None, on_eval_step_end: Optional[Callable] = None,
                 on_eval_begin: Optional[Callable] = None, on_eval_end: Optional[Callable] = None) -> None:
        super().__init__()
        given = locals()
        for hook in _LAMBDA_HOOKS:
            fn = given[hook]
            setattr(self, hook, fn if fn else _nothing)


def _nothing(run_context: RunContext) -> None:
    return None
