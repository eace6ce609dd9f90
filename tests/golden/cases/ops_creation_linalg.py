"""Creation, random (shapes and dtypes) and linear-algebra ops (table/creation.py, random.py, linalg.py)."""
_X = ''
CASES = {
    'arange_5': _X + 'result = ops.arange(5)',
    'arange_f': _X + 'result = ops.arange(0, 1, 0.25)',
    'arange_1': _X + 'result = ops.arange(5.)',
    'arange_t': _X + 'result = ops.arange(Tensor(5))',
    'arange_dtype': _X + 'result = ops.arange(1, 6, 2, dtype=ms.float32)',
    'arange_neg': _X + 'result = ops.arange(5, 0, -2)',
    'arange_0step': _X + 'result = ops.arange(0, 5, 0)',
    'linspace': _X + 'result = ops.LinSpace()(Tensor(0.0), Tensor(1.0), 3)',
    'linspace_t': _X + 'result = ops.linspace(Tensor(0.0), Tensor(1.0), 3)',
    'eye': _X + 'result = ops.Eye()(2, 2, ms.float32)',
    'eye_2_3': _X + 'result = ops.eye(2, 3, ms.int32)',
    'full': _X + 'result = ops.full((2,), 3)',
    'full_f': _X + 'result = ops.full((2,), 3.0)',
    'full_dt': _X + 'result = ops.full((2,), 3, dtype=ms.float32)',
    'full_t': _X + 'result = ops.full((2,), Tensor(3.0))',
    'full_like': _X + 'result = ops.full_like(Tensor([1, 2]), 3.7)',
    'full_bool': _X + 'result = ops.full((2,), True)',
    'zeros_int': _X + 'result = ops.zeros(3)',
    'zeros_dt': _X + 'result = ops.zeros((2,), ms.int32)',
    'ones': _X + 'result = ops.ones((2,))',
    'range': _X + 'result = ops.Range()(Tensor(0), Tensor(5), Tensor(2))',
    'randn': _X + 'result = ops.randn(2, 3).shape',
    'randn_dt': _X + 'result = ops.randn((2,), dtype=ms.float64).dtype',
    'rand': _X + 'result = ops.rand(2).dtype',
    'uniform': _X + 'result = ops.uniform((3,), Tensor(0.0), Tensor(1.0)).dtype',
    'uniform_int': _X + 'result = ops.uniform((3,), Tensor(0, ms.int32), Tensor(4, ms.int32), dtype=ms.int32).dtype',
    'normal': _X + 'result = ops.normal((3,), Tensor(0.0), Tensor(1.0)).dtype',
    'randint': _X + 'result = ops.randint(0, 5, (3,)).dtype',
    'randint_like': _X + 'result = ops.randint_like(Tensor([1.0, 2.0]), 0, 5).dtype',
    'rand_like': _X + 'result = ops.rand_like(Tensor([1, 2])).dtype',
    'randn_like': _X + 'result = ops.randn_like(Tensor([1.0, 2.0])).dtype',
    'randperm': _X + 'result = ops.randperm(4).dtype',
    'multinomial': _X + 'result = ops.multinomial(Tensor([0.0, 1.0]), 2).dtype',
    'standard_normal': _X + 'result = ops.standard_normal((2,)).dtype',
    'standardnormal': _X + 'result = ops.StandardNormal()((2,)).dtype',
    'uniformreal': _X + 'result = ops.UniformReal()((2,)).dtype',
    'uniformint': _X + 'result = ops.UniformInt()((2,), Tensor(0, ms.int32), Tensor(5, ms.int32)).dtype',
    'bmm': _X + 'result = ops.bmm(Tensor(np.ones((2,2,3),np.float32)), Tensor(np.ones((2,3,1),np.float32))).shape',
    'outer': _X + 'result = ops.outer(Tensor([1.0,2.0]), Tensor([3.0,4.0,5.0]))',
    'dot': _X + 'result = ops.dot(Tensor([1.0,2.0]), Tensor([3.0,4.0]))',
    'dot_2d': _X + 'result = ops.dot(Tensor([[1.0,2.0]]), Tensor([[3.0],[4.0]]))',
    'kron': _X + 'result = ops.kron(Tensor([1.0,2.0]), Tensor([1.0, 10.0]))',
    'cross': _X + 'result = ops.cross(Tensor([[1.0,0,0]]), Tensor([[0,1.0,0]]))',
    'cdist': _X + 'result = ops.cdist(Tensor([[[0.0,0.0],[1.0,1.0]]]), Tensor([[[3.0,4.0]]]))',
    'tensor_dot': _X + 'result = ops.tensor_dot(Tensor(np.ones((2,3),np.float32)), Tensor(np.ones((3,4),np.float32)), 1).shape',
    'batch_dot': _X + 'result = ops.batch_dot(Tensor(np.ones((2,3),np.float32)), Tensor(np.ones((2,3),np.float32)))',
    'addmm': _X + 'result = ops.addmm(Tensor([[1.0]]), Tensor([[1.0,2.0]]), Tensor([[3.0],[4.0]]), beta=2, alpha=0.5)',
    'baddbmm': _X + 'result = ops.baddbmm(Tensor([[[1.0]]]), Tensor([[[1.0,2.0]]]), Tensor([[[3.0],[4.0]]]), beta=2, alpha=0.5)',
    'inverse': _X + 'result = ops.inverse(Tensor([[2.0, 0.0], [0.0, 4.0]]))',
    'det': _X + 'result = ops.det(Tensor([[2.0, 1.0], [1.0, 4.0]]))',
    'matrix_power': _X + 'result = ops.matrix_power(Tensor([[1.0, 1.0], [0.0, 1.0]]), 3)',
    'vander': _X + 'result = ops.vander(Tensor([1.0, 2.0, 3.0]))',
    'logit': _X + 'result = ops.logit(Tensor([0.25, 0.5]))',
    'bmm_int': _X + 'result = ops.bmm(Tensor(np.ones((1,2,2),np.int32)), Tensor(np.ones((1,2,2),np.int32)))',
    'batchmatmul': _X + 'result = ops.BatchMatMul(transpose_b=True)(Tensor(np.ones((2,2,3),np.float32)), Tensor(np.ones((2,1,3),np.float32))).shape',
    'grad_outer': _X + 'result = ms.grad(lambda a, b: (ops.outer(a, b) * Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum(), (0, 1))(Tensor([1.0,2.0]), Tensor([3.0,4.0,5.0]))',
    'grad_inverse': _X + 'result = ms.grad(lambda a: ops.inverse(a).sum())(Tensor([[2.0, 1.0], [1.0, 4.0]]))',
    'grad_det': _X + 'result = ms.grad(lambda a: ops.det(a))(Tensor([[2.0, 1.0], [1.0, 4.0]]))',
    'grad_cdist': _X + 'result = ms.grad(lambda a: ops.cdist(a, Tensor([[[3.0,4.0]]])).sum())(Tensor([[[0.0,0.0],[1.0,1.0]]]))',
    'grad_addmm': _X + 'result = ms.grad(lambda a, b, c: ops.addmm(a, b, c, beta=2, alpha=0.5).sum(), (0,1,2))(Tensor([[1.0]]), Tensor([[1.0,2.0]]), Tensor([[3.0],[4.0]]))',
}
OPTIONS = {'grad_inverse': {'rtol': 1e-05, 'atol': 1e-06}, 'grad_cdist': {'rtol': 1e-05, 'atol': 1e-06}, 'cdist': {'rtol': 1e-05, 'atol': 1e-06}, 'logit': {'rtol': 1e-05, 'atol': 1e-06}, 'baddbmm': {}}

# Error texts (every error case checks one): MindSpore's word for word, or, where its text carries what a user
# cannot rely on, the parts that matter and why.
OPTIONS.setdefault('arange_0step', {})["message"] = True
OPTIONS.setdefault('rand_like', {})["message"] = True
OPTIONS.setdefault('randint_like', {})["message"] = True
OPTIONS.setdefault('dot', {}).update(message_parts=[
    'dot',
    'the inputs x1, x2 should have',
    'dimension >= 2',
    ',but got ',
    'len(x1_shape)',
    ': (1) and ',
    'len(x2_shape)',
    ': (1).'],
    why="the wheel escapes its quotes as \\\\' (a formatting slip in its text); mskernel prints plain quotes")

# ops.full without a dtype is Int64 whatever its value (MindSpore 2.10; numpy truncates as its kernel does)
CASES["full_frac"] = _X + 'result = ops.full((2, 3), -1.7)'
