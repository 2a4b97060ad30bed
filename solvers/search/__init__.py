"""The one packing search: a ``PackingProblem`` answered by the compiled ``Packer``."""

from solvers.search.fastpack import Packer, pack, warm_up
from solvers.search.problem import PackingProblem, PackResult

__all__ = ["PackResult", "Packer", "PackingProblem", "pack", "warm_up"]
