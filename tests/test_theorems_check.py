"""posenc_math.theorems.check: the public decision procedure (the kernel's), proved only by both certificates."""

import pytest
import sympy
from kernel_checks import confirm_counterexample
from sympy import Matrix, cos, exp, pi, sin

from posenc_math.theorems import decide_equal, decide_zero
from posenc_math.theorems.check import sample_point, small_point

a, b, x = sympy.symbols("a b x", real=True)
w = sympy.Symbol("omega", positive=True)
base = sympy.Symbol("b", positive=True)
d = sympy.Symbol("d", even=True, positive=True)


@pytest.mark.parametrize(
    "lhs, rhs",
    [
        (sin(a + b), sin(a) * cos(b) + cos(a) * sin(b)),
        (cos(x) ** 2, 1 - sin(x) ** 2),
        (sin(x) ** 4 - cos(x) ** 4, sin(x) ** 2 - cos(x) ** 2),
        (2 - 2 * cos(w * x), 4 * sin(w * x / 2) ** 2),
        (exp(a + b) / (exp(a + b) + exp(a)), exp(b) / (exp(b) + 1)),
        (base ** (-a / (d / 2 - 1)), base ** (-2 * a / (d - 2))),
    ],
)
def test_true_identities_are_proved(lhs, rhs):
    decision = decide_equal(lhs, rhs)
    assert decision.proved, decision.method
    assert decision.method.startswith("normal form; intervals at")
    assert decision.residual == 0 and decision.counterexample is None


@pytest.mark.parametrize(
    "lhs, rhs",
    [
        (sin(a + b), sin(a) * cos(b) - cos(a) * sin(b)),  # sign slip
        (cos(x) ** 2, 1 + sin(x) ** 2),
        (2 - 2 * cos(w * x), 2 * sin(w * x / 2) ** 2),  # factor 2 off
        (sin(w * x), sin(x * w + 2)),  # frequency/phase off
        (base ** (-2 * a / d), base ** (-a / (d / 2 - 1))),  # the two spacings with one base
        (sin(pi * x), 0),  # true only at integer x, and x is real here
    ],
)
def test_wrong_identities_are_refuted_with_a_confirmed_counterexample(lhs, rhs):
    decision = decide_equal(lhs, rhs)
    assert not decision.proved
    assert decision.method == "counterexample"
    assert confirm_counterexample(lhs, rhs, decision.counterexample)


def test_a_wrong_matrix_identity_is_refuted():
    block = Matrix([[cos(x), sin(x)], [-sin(x), cos(x)]])
    decision = decide_equal(block * block.T, Matrix([[1, 0], [0, 2]]))
    assert not decision.proved and decision.counterexample is not None


def test_matrix_shapes_must_agree():
    decision = decide_equal(Matrix([1, 2]), Matrix([[1, 2]]))
    assert not decision.proved and "shapes differ" in decision.method


def test_zero_matrix_is_proved():
    block = Matrix([[cos(x), sin(x)], [-sin(x), cos(x)]])
    assert decide_zero(block.T * block - sympy.eye(2)).proved


@pytest.mark.parametrize(
    "lhs, rhs",
    [
        # 0/0 everywhere: after cancelling, "equal" to anything
        ((b * sin(x) ** 2 + b * cos(x) ** 2 - b) / (sin(x) ** 2 + cos(x) ** 2 - 1), b + 1),
        ((1 - sin(x) ** 2 - cos(x) ** 2) / (2 * sin(x) ** 2 + 2 * cos(x) ** 2 - 2), 5),
        ((7 * sin(x) - 14 * sin(x / 2) * cos(x / 2)) / (sin(x) - 2 * sin(x / 2) * cos(x / 2)), 7),
    ],
)
def test_identically_zero_denominators_are_refused(lhs, rhs):
    decision = decide_equal(lhs, rhs)
    assert not decision.proved
    assert "identically 0" in decision.method


def test_a_genuine_fraction_is_still_proved():
    assert decide_equal(exp(x) / (exp(x) + 1), 1 / (1 + exp(-x))).proved


def test_the_samplers_stay_in_the_domain():
    m = sympy.Symbol("m", odd=True, negative=True)
    assert sample_point([m])[m].is_odd
    assert small_point([sympy.Symbol("n", integer=True, positive=True)], 1) == {
        sympy.Symbol("n", integer=True, positive=True): 4
    }
