"""Theorems of the context-extension page: the NTK-aware base and YaRN's ramp.

Both are proved for every width ``d``, base and stretch: ``d`` is symbolic
(``d = 2q + 4`` where SymPy needs ``d > 2``), and YaRN's ramp ends are the
pair indices where a pair turns ``beta`` times over the trained context,
with the base entering through ``lambda = ln b > 0``.  Which pairs YaRN
keeps, blends or divides is then a statement about the ramp's argument
``(j - low) / (high - low)``; the library's floor/ceil/clamp of the ends is
compared with 40-digit arithmetic by the witness.

Examples
--------
>>> from posenc_math.theorems import get
>>> get("yarn-ramp").scope
'general'
"""

from __future__ import annotations

import math

import numpy as np
import sympy
from sympy import Max, Min, Mul, exp, log, pi

from .. import encodings
from ..witnesses import context_extension as numeric
from .core import Conclusion, Equal, Fact, Theorem, Witness
from .kernel import decide_equal
from .language import Definition
from .registry import register

PAGE = "context-extension"


#: Base, stretch, even width d >= 4, pair index.
BASE = sympy.Symbol("b", positive=True)
STRETCH = sympy.Symbol("s", positive=True)
WIDTH = sympy.Symbol("d", positive=True, even=True)
INDEX = sympy.Symbol("i", integer=True, nonnegative=True)
AT_LEAST_FOUR = sympy.GreaterThan(WIDTH, 4, evaluate=False)
_base = sympy.Symbol("beta", positive=True)
#: omega_i(beta) = beta^(-2i/d): the frequency of pair i with base beta.
FREQUENCY = Definition("omega_base", (INDEX, _base), _base ** (-2 * INDEX / WIDTH), r"\omega_{{{0}}}({1})")
#: The NTK-aware base b' = b s^(d/(d-2)).
NTK_BASE = Definition("ntk", (), BASE * STRETCH ** (WIDTH / (WIDTH - 2)), r"b'")


# --------------------------------------------------------------------------
@register("ntk-base", page=PAGE)
def ntk_base() -> Theorem:
    b, s, d, i = BASE, STRETCH, WIDTH, INDEX
    new = NTK_BASE()
    b_new = sympy.Symbol("b'", positive=True)
    log_new, log_b, log_s = sympy.symbols("beta' beta sigma", real=True)  # logs of b', b, s
    lowest = d / 2 - 1
    condition = -(d - 2) / d * log_new - (-(d - 2) / d * log_b - log_s)
    solved_log = log_b + d / (d - 2) * log_s

    def solved() -> bool:
        solutions = sympy.linsolve([condition], [log_new])
        if len(solutions) != 1:
            return False
        ((value,),) = solutions
        return decide_equal(value, solved_log).proved

    def numpy_check() -> bool:
        for dim in (4, 8, 64, 128, 256):
            for base in (10000.0, 500000.0):
                default = encodings.rope_frequencies(dim, base=base)[0]
                for scale in (1.0, 2.0, 8.0, 32.0):
                    new_base = encodings.ntk_aware_base(base, scale, dim)
                    if not math.isclose(new_base, base * scale ** (dim / (dim - 2)), rel_tol=1e-15):
                        return False
                    stretched = encodings.rope_frequencies(dim, base=new_base)[0]
                    if stretched[0] != 1.0 or not math.isclose(stretched[-1], default[-1] / scale, rel_tol=1e-13):
                        return False
                    trained = 4096
                    dynamic = encodings.rope_frequencies(
                        dim,
                        base=base,
                        scaling={"rope_type": "dynamic", "factor": 1.0},
                        seq_len=int(scale * trained),
                        max_position_embeddings=trained,
                    )[0]
                    if not np.allclose(dynamic, stretched, rtol=1e-13, atol=0):
                        return False
        return True

    hypotheses = (AT_LEAST_FOUR,)
    slowest = Conclusion(FREQUENCY(lowest, new), FREQUENCY(lowest, b) / s, (b, s, d), assuming=hypotheses)
    fastest = Conclusion(FREQUENCY(sympy.S.Zero, new), FREQUENCY(sympy.S.Zero, b), (b, s, d), assuming=hypotheses)
    every = Conclusion(
        Mul(FREQUENCY(i, new), sympy.Pow(FREQUENCY(i, b), -1, evaluate=False), evaluate=False),
        s ** (-2 * i / (d - 2)),
        (b, s, d, i),
        assuming=hypotheses,
    )
    steps = (
        Equal(FREQUENCY(sympy.S.Zero, b_new), 1, r"$i = 0$: the fastest pair has frequency 1 for every base"),
        Equal(
            FREQUENCY(lowest, b_new), b_new ** (-(d - 2) / d), r"$i = d/2 - 1$: the slowest pair", assuming=hypotheses
        ),
        Equal(
            log(b_new ** (-(d - 2) / d)), -(d - 2) / d * log(b_new), "logarithm of the left side", assuming=hypotheses
        ),
        Equal(
            log(FREQUENCY(lowest, b) / s),
            -(d - 2) / d * log(b) - log(s),
            "logarithm of the right side",
            assuming=hypotheses,
        ),
        Fact(
            "linsolve: -(d-2)/d beta' = -(d-2)/d beta - sigma has the one solution "
            "beta' = beta + d/(d-2) sigma (beta = log b, sigma = log s)",
            solved,
            r"solve the condition for $\ln b'$",
        ),
        Equal(exp(log(b) + d / (d - 2) * log(s)), new, r"$b' = e^{\beta'}$", assuming=hypotheses),
        Equal(slowest.lhs, slowest.rhs, r"check: the slowest frequency is divided by $s$", assuming=hypotheses),
        Equal(fastest.lhs, fastest.rhs, "check: the fastest is unchanged", assuming=hypotheses),
        Equal(
            every.lhs,
            every.rhs,
            r"every pair: $\omega_i(b') / \omega_i(b) = (b'/b)^{-2i/d} = s^{-2i/(d-2)}$, "
            r"from 1 down to $1/s$",
            assuming=hypotheses,
        ),
        Fact(
            "ntk_aware_base(b, s, d) == b s^(d/(d-2)); rope_frequencies with that base keeps omega_0 = 1 "
            "and divides the last by s; the 'dynamic' rule with factor 1 at s times the trained length "
            "gives the same frequencies (d in 4, 8, 64, 128, 256)",
            numpy_check,
            "the numpy functions",
        ),
    )
    return Theorem(
        id="ntk-base",
        title="The NTK-aware base $b s^{d/(d-2)}$ slows the slowest pair by $s$ and keeps the fastest",
        conclusions=(slowest, fastest, every),
        steps=steps,
        witness=Witness(
            "ntk_aware_base and the first and last rope_frequencies at that base vs 40-digit values, "
            "relative error; d = 4 .. 256, bases 1e4, 5e5, 1e6, s = 2 .. 64",
            numeric.ntk_base,
            1e-14,
            licenses="posenc_math.encodings.ntk_aware_base",
        ),
        negative_control=Conclusion(FREQUENCY(lowest, b * s), slowest.rhs, (b, s, d), assuming=hypotheses),
        scope="general",
        scope_note=(
            r"symbolic in the base $b$, the stretch $s$, the width $d$ (every even $d \ge 4$) and the pair index $i$"
        ),
        proof=(
            r"With $\omega_i(b) = b^{-2i/d}$ the fastest pair has frequency 1 for every base. Asking the slowest "
            r"to be $s$ times slower and taking logarithms gives a linear equation for $\ln b'$, whose solution "
            r"is $b' = b\,s^{d/(d-2)}$. Then",
            steps[6],
            steps[7],
            r"and every pair in between is slowed by a power of $s$ between 1 and $s$:",
            steps[8],
        ),
        lead=r"Pair $i$ of $d/2$ turns with $\omega_i(b) = b^{-2i/d}$; the NTK-aware base is $b' = b\,s^{d/(d-2)}$.",
    )


# --------------------------------------------------------------------------
#: YaRN (Peng et al. 2024) as transformers computes it: trained context L, base b (lambda = ln b), width d.
CONTEXT = sympy.Symbol("L", positive=True)
TURNS = sympy.Symbol("beta", positive=True)
PAIR = sympy.Symbol("j", integer=True, nonnegative=True)
LOW, HIGH = sympy.symbols("j_low j_high", real=True)
#: j(beta) = d ln(L / (2 pi beta)) / (2 ln b): the pair index at which a pair turns beta times over L
#: (transformers' find_correction_dim).
CORRECTION = Definition("j", (TURNS,), WIDTH * log(CONTEXT / (2 * pi * TURNS)) / (2 * log(BASE)), r"j({0})")
#: The number of turns pair j makes over the trained context: L omega_j / (2 pi).
TURNS_OF = Definition("turns", (PAIR,), CONTEXT / (2 * pi) * BASE ** (-2 * PAIR / WIDTH), r"\tau_{{{0}}}")
#: transformers' linear_ramp_factor: clamp((j - low) / (high - low), 0, 1).
RAMP = Definition("r", (PAIR,), Min(Max((PAIR - LOW) / (HIGH - LOW), 0), 1), r"r({0})")
#: YaRN's frequency of pair j: omega_j / s r(j) + omega_j (1 - r(j)) (interpolation weighted by the ramp).
YARN_FREQUENCY = Definition(
    "omega_yarn",
    (PAIR,),
    BASE ** (-2 * PAIR / WIDTH) / STRETCH * RAMP(PAIR) + BASE ** (-2 * PAIR / WIDTH) * (1 - RAMP(PAIR)),
    r"\omega'_{{{0}}}",
)


@register("yarn-ramp", page=PAGE)
def yarn_ramp() -> Theorem:
    above_one = sympy.StrictGreaterThan(BASE, 1, evaluate=False)
    ordered = sympy.StrictLessThan(LOW, HIGH, evaluate=False)
    u = sympy.Symbol("u", nonnegative=True)
    over_end = (CONTEXT, TURNS, BASE, WIDTH)
    turns_at = Mul(CONTEXT / (2 * pi), BASE ** Mul(-2, CORRECTION(TURNS), 1 / WIDTH, evaluate=False), evaluate=False)
    end = Conclusion(turns_at, TURNS, over_end, assuming=(above_one,))
    earlier = Mul(CONTEXT / (2 * pi), BASE ** Mul(-2, CORRECTION(TURNS) - u, 1 / WIDTH, evaluate=False), evaluate=False)
    faster = Conclusion(earlier, TURNS * BASE ** (2 * u / WIDTH), (*over_end, u), assuming=(above_one,))
    omega_j = BASE ** (-2 * PAIR / WIDTH)
    keep = Conclusion(
        YARN_FREQUENCY(PAIR),
        omega_j,
        (BASE, WIDTH, STRETCH, LOW, HIGH, PAIR),
        assuming=(ordered, sympy.LessThan(PAIR, LOW, evaluate=False)),
    )
    divide = Conclusion(
        YARN_FREQUENCY(PAIR),
        omega_j / STRETCH,
        (BASE, WIDTH, STRETCH, LOW, HIGH, PAIR),
        assuming=(ordered, sympy.GreaterThan(PAIR, HIGH, evaluate=False)),
    )
    between = Conclusion(
        YARN_FREQUENCY(PAIR),
        omega_j * (1 - (PAIR - LOW) / (HIGH - LOW) * (1 - 1 / STRETCH)),
        (BASE, WIDTH, STRETCH, LOW, HIGH, PAIR),
        assuming=(ordered, sympy.GreaterThan(PAIR, LOW, evaluate=False), sympy.LessThan(PAIR, HIGH, evaluate=False)),
    )
    steps = (
        Equal(end.lhs, end.rhs, r"$b^{-\ln(L / (2 \pi \beta)) / \ln b} = 2 \pi \beta / L$", assuming=end.assuming),
        Equal(faster.lhs, faster.rhs, r"$u$ pairs earlier turn $b^{2u/d}$ times more", assuming=faster.assuming),
        Equal(
            keep.lhs,
            keep.rhs,
            r"$j \le j_{\text{low}}$: the ramp's argument is $\le 0$, so $r(j) = 0$",
            assuming=keep.assuming,
        ),
        Equal(
            divide.lhs,
            divide.rhs,
            r"$j \ge j_{\text{high}}$: the argument is $\ge 1$, so $r(j) = 1$",
            assuming=divide.assuming,
        ),
        Equal(
            between.lhs, between.rhs, r"in between the ramp is its argument: a linear blend", assuming=between.assuming
        ),
    )

    def classes_match() -> bool:
        """rope_frequencies keeps exactly the pairs with ramp 0 and divides exactly those with ramp 1."""
        for dim, base, factor, original, fast, slow, truncate in numeric.YARN_CONFIGS:
            scaling = numeric.yarn_scaling(factor, original, fast, slow, truncate)
            computed, _ = encodings.rope_frequencies(dim, base=base, scaling=scaling)
            default, _ = encodings.rope_frequencies(dim, base=base)
            _, _, ramp, _ = numeric.yarn_ramp_exact(dim, base, factor, original, fast, slow, truncate)
            for value, trained, weight in zip(computed, default, ramp, strict=True):
                if weight == 0 and value != trained:
                    return False
                if weight == 1 and not math.isclose(value, trained / factor, rel_tol=1e-15):
                    return False
                if 0 < weight < 1 and not (trained / factor < value < trained):
                    return False
        return True

    all_steps = (
        *steps,
        Fact(
            "rope_frequencies(yarn) keeps exactly the pairs whose 40-digit ramp is 0, divides by s exactly "
            "those whose ramp is 1, and puts the others strictly between ("
            + str(len(numeric.YARN_CONFIGS))
            + " configurations)",
            classes_match,
            "the numpy function against the exact ramp",
        ),
    )
    return Theorem(
        id="yarn-ramp",
        title="YaRN's ramp: the pairs that turn fast keep their frequency, the slow ones divide it by s",
        conclusions=(end, faster, keep, divide, between),
        steps=all_steps,
        witness=Witness(
            "rope_frequencies(dim, scaling={'rope_type': 'yarn', ...}) vs the 40-digit ramp and frequencies "
            "(ends floored/ceiled/clamped as transformers does), relative error; "
            + str(len(numeric.YARN_CONFIGS))
            + " configurations, d = 64 .. 128, bases 1e4 .. 1e6, s = 2 .. 40, both truncate settings",
            numeric.yarn_ramp,
            4e-15,
            licenses="posenc_math.encodings.rope_frequencies",
        ),
        negative_control=Conclusion(
            YARN_FREQUENCY(PAIR), omega_j / STRETCH, (BASE, WIDTH, STRETCH, LOW, HIGH, PAIR), assuming=keep.assuming
        ),
        scope="general",
        scope_note=(
            r"symbolic in the context $L$, the turn count $\beta$, the base, the width $d$, the stretch $s$, the "
            "ramp ends and the pair index; the floor/ceil/clamp of the ends is the library's, compared at 40 "
            "digits by the witness"
        ),
        proof=(
            r"Pair $j$ turns $L\omega_j / (2\pi)$ times over the trained context, $\omega_j = b^{-2j/d}$. At "
            r"$j(\beta)$ that is exactly $\beta$, and $u$ pairs earlier it is $b^{2u/d}$ times more:",
            steps[0],
            steps[1],
            r"so transformers' ends $j_{\text{low}}$ (from $j(\beta_{\text{fast}})$, floored) and "
            r"$j_{\text{high}}$ (from $j(\beta_{\text{slow}})$, ceiled) separate the pairs that turn more than "
            r"$\beta_{\text{fast}}$ times from those that turn fewer than $\beta_{\text{slow}}$ times. The ramp "
            r"then keeps, divides or blends:",
            steps[2],
            steps[3],
            steps[4],
        ),
        lead=(
            r"transformers' YaRN sets $\omega'_j = \tfrac{\omega_j}{s}\,r(j) + \omega_j\,(1 - r(j))$ with "
            r"$r(j) = \operatorname{clamp}\bigl(\tfrac{j - j_{\text{low}}}{j_{\text{high}} - j_{\text{low}}},"
            r" 0, 1\bigr)$ (linear_ramp_factor), $j_{\text{low}} < j_{\text{high}}$."
        ),
    )
