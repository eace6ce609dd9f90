"""``mindspore.ops.function.random_func``: the random functions under the names MindSpore's own module gives them
(``rand_ext`` is ``mint.rand``, ...); each is the op table's function.

Example:
    >>> from mskernel.ops.function.random_func import randint_ext
    >>> randint_ext(0, 5, (2, 3)).shape
    (2, 3)
"""
from mskernel.ops.registry import FUNCTIONS as _F

#: name here -> the op table's function
_NAMES = {"rand_ext": "_rand_ext", "randn_ext": "_randn_ext", "randint_ext": "_randint_ext",
          "rand_like_ext": "_rand_like_ext", "randn_like_ext": "_randn_like_ext",
          "randint_like_ext": "_randint_like_ext", "randperm_ext": "_randperm_ext", "normal_ext": "_normal_ext",
          "multinomial_ext": "_multinomial_ext", "random_": "random_", "uniform_": "uniform_", "normal_": "normal_",
          "bernoulli_": "bernoulli_", "bernoulli_ext": "bernoulli_ext", "exponential_": "exponential_",
          "rand": "rand", "randn": "randn", "randint": "randint", "randperm": "randperm", "uniform": "uniform",
          "laplace": "laplace", "gamma": "gamma", "poisson": "poisson", "multinomial": "multinomial",
          "standard_laplace": "standard_laplace", "random_gamma": "random_gamma", "random_poisson": "random_poisson",
          "shuffle": "shuffle", "choice_with_mask": "choice_with_mask", "standard_normal": "standard_normal"}
globals().update({name: _F[target] for name, target in _NAMES.items()})

__all__ = sorted(_NAMES)
