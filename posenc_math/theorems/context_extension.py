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
from sympy import Add, Mul, exp, log, pi

from .. import encodings
from ..witnesses import context_extension as numeric
from .check import decide_equal
from .core import Conclusion, Equal, Fact, Holds, Theorem, Witness
from .registry import register

PAGE = "context-extension"


# --------------------------------------------------------------------------
@register("ntk-base", page=PAGE)
def ntk_base() -> Theorem:
    b = sympy.Symbol("b", positive=True)
    s = sympy.Symbol("s", positive=True)
    # d = 2q + 4 >= 4: SymPy then knows d/(d - 2) is real, so (b^x)^y = b^(xy).
    q = sympy.Symbol("q", integer=True, nonnegative=True)
    d = 2 * q + 4
    i = sympy.Symbol("i", integer=True, nonnegative=True)
    new = sympy.Symbol("b'", positive=True)
    log_new, log_b, log_s = sympy.symbols("beta' beta sigma", real=True)  # logs of b', b, s

    def freq(base, index):
        return base ** (-2 * index / d)

    def fastest_of(base):
        """omega_0(base) as written, b^(-2 0 / d), before SymPy turns it into 1."""
        return sympy.Pow(base, Mul(-2, 0, 1 / d, evaluate=False), evaluate=False)

    lowest = d / 2 - 1
    # The condition on the lowest frequency, after taking logs of both sides.
    condition = -(d - 2) / d * log_new - (-(d - 2) / d * log_b - log_s)
    solved_log = log_b + d / (d - 2) * log_s
    ntk = b * s ** (d / (d - 2))
    # omega_i(b') / omega_i(b) = (b'/b)^(-2i/d), as written (SymPy would cancel b at once)
    ratio = sympy.Pow(Mul(ntk, 1 / b, evaluate=False), -2 * i / d, evaluate=False)

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
                    # dynamic NTK with factor 1 at scale times the trained length is this rule
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

    steps = (
        Equal(fastest_of(new), 1, r"$i = 0$: the fastest pair has frequency 1 for every base"),
        Equal(
            sympy.Pow(new, Mul(-2, lowest, 1 / d, evaluate=False), evaluate=False),
            new ** (-(d - 2) / d),
            r"$i = d/2 - 1$: the slowest pair",
        ),
        Equal(log(new ** (-(d - 2) / d)), -(d - 2) / d * log(new), "logarithm of the left side"),
        Equal(log(freq(b, lowest) / s), -(d - 2) / d * log(b) - log(s), "logarithm of the right side"),
        Fact(
            "linsolve: -(d-2)/d beta' = -(d-2)/d beta - sigma has the one solution "
            "beta' = beta + d/(d-2) sigma (beta = log b, sigma = log s)",
            solved,
            r"solve the condition for $\ln b'$",
        ),
        Equal(exp(solved_log.subs({log_b: log(b), log_s: log(s)})), ntk, r"$b' = e^{\beta'}$"),
        Equal(freq(ntk, lowest), freq(b, lowest) / s, r"check: the slowest frequency is divided by $s$"),
        Equal(fastest_of(ntk), fastest_of(b), "check: the fastest is unchanged"),
        Equal(
            ratio,
            s ** (-2 * i / (d - 2)),
            r"every pair: $\omega_i(b') / \omega_i(b) = (b'/b)^{-2i/d} = s^{-2i/(d-2)}$, from 1 down to $1/s$",
        ),
        Fact(
            "ntk_aware_base(b, s, d) == b s^(d/(d-2)); rope_frequencies with that base keeps omega_0 = 1 "
            "and divides the last by s; the 'dynamic' rule with factor 1 at s times the trained length "
            "gives the same frequencies (d in 4, 8, 64, 128, 256)",
            numpy_check,
            "the numpy functions",
        ),
    )
    over = (b, s, q, i)
    where = r"$d = 2q + 4$ ($d$ even, $d \ge 4$); $b > 0$ the trained base, $s > 0$ the stretch"
    slowest = Conclusion(freq(ntk, lowest), freq(b, lowest) / s, (b, s, q), where=where)
    fastest = Conclusion(fastest_of(ntk), fastest_of(b), (b, s, q), where=where)
    every = Conclusion(ratio, s ** (-2 * i / (d - 2)), over, where=where + "; pair $i$")
    return Theorem(
        id="ntk-base",
        title="The NTK-aware base b s^(d/(d-2)) slows the slowest pair by s and keeps the fastest",
        conclusions=(slowest, fastest, every),
        steps=steps,
        witness=Witness(
            "ntk_aware_base and the first and last rope_frequencies at that base vs 40-digit values, "
            "relative error; d = 4 .. 256, bases 1e4, 5e5, 1e6, s = 2 .. 64",
            numeric.ntk_base,
            1e-14,
            licenses="posenc_math.encodings.ntk_aware_base",
        ),
        negative_control=Conclusion(freq(b * s, lowest), freq(b, lowest) / s, (b, s, q), where=where),
        scope="general",
        scope_note="symbolic in the base b, the stretch s, the width d = 2q + 4 and the pair index i",
        proof=(
            r"With $\omega_i(b) = b^{-2i/d}$ the fastest pair has frequency 1 for every base. Asking the slowest "
            r"to be $s$ times slower and taking logarithms gives a linear equation for $\ln b'$, whose solution "
            r"is $b' = b\,s^{d/(d-2)}$. Then",
            steps[6],
            steps[7],
            r"and every pair in between is slowed by a power of $s$ between 1 and $s$:",
            steps[8],
        ),
        lead=r"Pair $i$ of $d/2$ turns with $\omega_i(b) = b^{-2i/d}$.",
    )


# --------------------------------------------------------------------------


@register("yarn-ramp", page=PAGE)
def yarn_ramp() -> Theorem:
    context, turns, log_base = sympy.symbols("L beta lambda", positive=True)
    d = sympy.Symbol("d", positive=True, even=True, integer=True)
    u = sympy.Symbol("u", nonnegative=True)
    width, past = sympy.Symbol("delta", positive=True), sympy.Symbol("v", nonnegative=True)
    freq, stretch, ramp = (
        sympy.Symbol("omega", positive=True),
        sympy.Symbol("s", positive=True),
        sympy.Symbol("r", real=True),
    )
    low = sympy.Symbol("j_low", real=True)

    def ramp_end(beta):
        return d * log(context / (2 * pi * beta)) / (2 * log_base)

    def turns_of(index):
        """L / lambda_j = L w_j / (2 pi) turns of pair ``index`` over the trained context, w_j = e^(-2 j lambda / d)."""
        return Mul(
            context / (2 * pi), exp(Mul(-2, log_base, index, 1 / d, evaluate=False), evaluate=False), evaluate=False
        )

    over_end = (context, turns, log_base, d)
    where_end = r"$\omega_j = b^{-2j/d} = e^{-2j\lambda/d}$ with $\lambda = \ln b > 0$; trained context $L$"
    end = Conclusion(turns_of(ramp_end(turns)), turns, over_end, where=where_end)
    faster = Conclusion(
        turns_of(ramp_end(turns) - u), turns * exp(2 * log_base * u / d), (*over_end, u), where=where_end
    )

    def argument(index):
        return Mul(Add(index, -low, evaluate=False), 1 / width, evaluate=False)

    where_ramp = r"$j_{\text{low}}$ the ramp's low end, $\delta = j_{\text{high}} - j_{\text{low}} > 0$"
    # The ramp's argument (j - j_low) / delta at a pair below j_low and above j_high; the Equal steps
    # compute it from the written form, the conclusions bound the value.
    below_value = Equal(argument(low - u), -u / width, r"$j - j_{\text{low}} = -u$")
    above_value = Equal(argument(low + width + past), 1 + past / width, r"$j - j_{\text{low}} = \delta + v$")
    below = Conclusion(
        below_value.rhs,
        sympy.S.Zero,
        (u, width),
        relation="<=",
        where=where_ramp + r"; the ramp's argument $(j - j_{\text{low}})/\delta$ at pair $j = j_{\text{low}} - u$",
    )
    above = Conclusion(
        sympy.S.One,
        above_value.rhs,
        (width, past),
        relation="<=",
        where=r"the ramp's argument at pair $j = j_{\text{high}} + v$",
    )

    def blend(weight):
        return Add(
            Mul(freq / stretch, weight, evaluate=False),
            Mul(freq, Add(1, Mul(-1, weight, evaluate=False), evaluate=False), evaluate=False),
            evaluate=False,
        )

    keep = Conclusion(blend(0), freq, (freq, stretch), where=r"ramp $r = 0$ (pairs at or below $j_{\text{low}}$)")
    divide = Conclusion(
        blend(1), freq / stretch, (freq, stretch), where=r"ramp $r = 1$ (pairs at or above $j_{\text{high}}$)"
    )
    linear = Conclusion(blend(ramp), freq - ramp * freq * (1 - 1 / stretch), (freq, stretch, ramp))
    steps = (
        Equal(end.lhs, end.rhs, r"$e^{-\ln(L / (2 \pi \beta))} = 2 \pi \beta / L$"),
        Equal(faster.lhs, faster.rhs, r"$u$ pairs faster turn $e^{2 \lambda u / d} > 1$ times more"),
        below_value,
        Holds(
            sympy.LessThan(below.lhs, below.rhs, evaluate=False), r"$u \ge 0$, $\delta > 0$: at most 0, the ramp is 0"
        ),
        above_value,
        Holds(
            sympy.LessThan(above.lhs, above.rhs, evaluate=False), r"$v \ge 0$, $\delta > 0$: at least 1, the ramp is 1"
        ),
        Equal(keep.lhs, keep.rhs, r"$r = 0$: the frequency is kept"),
        Equal(divide.lhs, divide.rhs, r"$r = 1$: the frequency is divided by $s$"),
        Equal(linear.lhs, linear.rhs, r"in between: $\omega$ minus $r$ times the full reduction $\omega (1 - 1/s)$"),
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
        conclusions=(end, faster, below, above, keep, divide, linear),
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
            turns_of(d * log(context / turns) / (2 * log_base)), turns, over_end, where=where_end
        ),
        scope="general",
        scope_note=(
            "symbolic in the context L, the turn count beta, the base (lambda = ln b), the width d and the pair "
            "offsets; the floor/ceil/clamp of the ends is the library's, compared at 40 digits by the witness"
        ),
        proof=(
            r"Pair $j$ turns $L\omega_j / (2\pi)$ times over the trained context. At $j(\beta) = "
            r"d\ln(L/(2\pi\beta)) / (2\ln b)$ that is exactly $\beta$, and $u$ pairs earlier it is "
            r"$e^{2\lambda u/d}$ times more:",
            steps[0],
            steps[1],
            r"so YaRN's ends $j_{\text{low}} = j(\beta_{\text{fast}})$ and $j_{\text{high}} = j(\beta_{\text{slow}})$ "
            r"separate pairs that turn more than $\beta_{\text{fast}}$ times from those that turn fewer than "
            r"$\beta_{\text{slow}}$ times. Below $j_{\text{low}}$ the ramp's argument is at most 0, above "
            r"$j_{\text{high}}$ at least 1:",
            steps[3],
            steps[5],
            r"so the clamped ramp is 0 (keep) and 1 (divide) there, and the blend gives",
            steps[6],
            steps[7],
        ),
        lead=(
            r"YaRN sets $\omega'_j = \tfrac{\omega_j}{s}\,r(j) + \omega_j\,(1 - r(j))$ with "
            r"$r(j) = \operatorname{clamp}\bigl(\tfrac{j - j_{\text{low}}}{j_{\text{high}} - j_{\text{low}}},"
            r" 0, 1\bigr)$."
        ),
    )
