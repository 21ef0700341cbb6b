"""Certificate (i) for matrices: noncommutative polynomials in matrix atoms, normalised as words.

A matrix expression becomes ``sum_w c_w * w``: ``c_w`` a scalar normal form
(:mod:`.normal`), ``w`` a word (a product, in order) of *atoms*:

- ``unit(i, j)``: the matrix unit ``E_ij`` of a numeric shape (an explicit
  matrix is ``sum a_ij E_ij``);
- a matrix symbol or its transpose; a permutation symbol ``P`` (its values
  are the permutation matrices);
- ``blockdiag_j B(j)`` and ``stack_j v(j)`` over ``count`` blocks (count
  possibly symbolic), with their blocks explicit in a bound index ``j``;
- ``softmax(S)`` (row by row) of a normalised argument.

The rules, each an identity of matrices wherever the shapes conform (the
shapes are checked, symbolically, at every product and sum):

1. products distribute over sums, scalars commute out; transposes reverse
   words and transpose each atom; ``(X^T)^T = X``;
2. ``E_ij E_kl = [j = k] E_il``;
3. ``P^T P = P P^T = I`` for a permutation symbol ``P``;
4. block by block: ``blockdiag(A_j) blockdiag(B_j) = blockdiag(A_j B_j)``,
   ``blockdiag(A_j) stack(v_j) = stack(A_j v_j)``,
   ``stack(u_j)^T blockdiag(A_j) = stack(u_j^T A_j)^T``,
   ``stack(u_j)^T stack(v_j) = sum_j u_j^T v_j``, ``blockdiag(A_j)^T =
   blockdiag(A_j^T)``, ``blockdiag(I) = I`` (same count on both sides);
5. ``softmax(P S P^T) = P softmax(S) P^T`` for a permutation ``P`` (softmax
   acts on each row alone and is invariant under reordering the row);
6. ``[[a, -b], [b, a]]**n = ((a+ib)**n + (a-ib)**n)/2 I + ((a+ib)**n -
   (a-ib)**n)/2 [[0, i], [-i, 0]]`` for an integer ``n`` (the matrices
   ``aI + bJ``, ``J^2 = -I``, multiply as ``a + ib``; ``J`` has the
   idempotents ``(I -+ iJ)/2``).

Words that differ are treated as independent: that costs completeness,
never soundness.  The numeric certificate (:mod:`.numeric`) evaluates the
same expressions at explicit sizes with random matrices.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from typing import Any

import sympy
from sympy.matrices.expressions.matexpr import MatrixExpr

from .. import language as lang
from .normal import Frac, Refused, Translator, _short

__all__ = ["MatNF", "determinant", "element", "trace", "translate_matrix"]

#: Largest numeric power of a matrix multiplied out; largest explicit size for a determinant.
MAX_MATRIX_POWER = 64
MAX_DETERMINANT = 6


@dataclass
class MatNF:
    rows: Frac
    cols: Frac
    terms: dict  # word (tuple of atom keys) -> Frac
    translator: Translator

    def one_by_one(self) -> Frac | None:
        t = self.translator
        if not (_is_const(t, self.rows, 1) and _is_const(t, self.cols, 1)):
            return None
        total = Frac({})
        for word, c in self.terms.items():
            if word:
                g = t.gen(("1x1 matrix", word), kind="atom", bound=frozenset())
                c = t.mul(c, t.var(g))
            total = t.add(total, c)
        return total


def _is_const(t: Translator, a: Frac, value: int) -> bool:
    return not a.den and a.num == t.const(value).num


def _numeric(t: Translator, a: Frac, what) -> int:
    if a.den or (a.num and list(a.num) != [()]):
        raise Refused(f"{what} must be a number here")
    q = t.field.as_rational(a.num[()]) if a.num else 0
    if q is None or int(q) != q:
        raise Refused(f"{what} must be an integer")
    return int(q)


def _same(a: Frac, b: Frac) -> bool:
    return a.key() == b.key()


# --------------------------------------------------------------------------
# atoms: key -> (rows, cols, data)


def _atoms(t: Translator) -> dict[tuple, tuple[Any, Any, Any]]:
    return t.matrix_atoms


def _atom(t: Translator, key: tuple, rows: Frac, cols: Frac, data: Any = None) -> tuple:
    _atoms(t).setdefault(key, (rows, cols, data))
    return key


def _shape(t: Translator, key: tuple) -> tuple[Frac, Frac]:
    rows, cols, _ = _atoms(t)[key]
    return rows, cols


def _unit(t: Translator, i: int, j: int, r: int, c: int) -> tuple:
    return _atom(t, ("unit", i, j, r, c), t.const(r), t.const(c))


def _block_key(block) -> tuple:
    return tuple(tuple(entry.key() for entry in row) for row in block)


def _blocks_mul(t: Translator, a: list, b: list) -> list:
    if len(a[0]) != len(b):
        raise Refused("blocks of different sizes")
    out = []
    for row in a:
        line = []
        for k in range(len(b[0])):
            total = Frac({})
            for m, entry in enumerate(row):
                total = t.add(total, t.mul(entry, b[m][k]))
            line.append(total)
        out.append(line)
    return out


def _transpose_block(block: list) -> list:
    return [list(column) for column in zip(*block, strict=True)]


def _structured(t: Translator, kind: str, count: Frac, block: list, depth: int) -> tuple:
    rows, cols = len(block), len(block[0])
    if (
        kind == "blockdiag"
        and all(
            (i == j and _is_const(t, block[i][j], 1)) or (i != j and not block[i][j].num)
            for i in range(rows)
            for j in range(cols)
        )
        and rows == cols
    ):
        return ()  # blockdiag(I) = I
    key = (kind, count.key(), _block_key(block), depth)
    shape_rows = t.mul(count, t.const(rows))
    shape_cols = t.const(1) if kind == "stack" else t.mul(count, t.const(cols))
    if kind == "row":
        shape_rows, shape_cols = t.const(1), t.mul(count, t.const(cols))
    return (_atom(t, key, shape_rows, shape_cols, (count, block, depth)),)


def _is_number(t: Translator, a: Frac) -> bool:
    return not a.den and (not a.num or list(a.num) == [()])


# --------------------------------------------------------------------------
# block matrices of symbolic sizes: a grid of normal forms


def _symbolic_grid(t: Translator, translated: list) -> list:
    """The blocks of a block matrix as normal forms (zero blocks filled in), sizes checked to line up."""
    heights = [next(b.rows for b in row if b is not None) for row in translated]
    widths = [
        next(translated[p][q].cols for p in range(len(translated)) if translated[p][q] is not None)
        for q in range(len(translated[0]))
    ]
    blocks = []
    for p, row in enumerate(translated):
        line = []
        for q, block in enumerate(row):
            if block is None:
                block = MatNF(heights[p], widths[q], {}, t)
            if not (_same(block.rows, heights[p]) and _same(block.cols, widths[q])):
                raise Refused("blocks of a block matrix do not line up")
            line.append(block)
        blocks.append(line)
    return blocks


def _grid_key(blocks: list) -> tuple:
    return tuple(tuple(_nf_key(b) for b in row) for row in blocks)


def _nf_key(a: MatNF) -> tuple:
    return (a.rows.key(), a.cols.key(), tuple(sorted((w, c.key()) for w, c in a.terms.items())))


def _grid_nf(t: Translator, blocks: list) -> MatNF:
    """A block matrix: one block is that block; several are one ``grid`` atom."""
    if len(blocks) == 1 and len(blocks[0]) == 1:
        return blocks[0][0]
    rows, cols = Frac({}), Frac({})
    for row in blocks:
        rows = t.add(rows, row[0].rows)
    for block in blocks[0]:
        cols = t.add(cols, block.cols)
    if all(not b.terms for row in blocks for b in row):
        return MatNF(rows, cols, {}, t)
    key = ("grid", _grid_key(blocks))
    _atom(t, key, rows, cols, blocks)
    return MatNF(rows, cols, {(key,): Frac(dict(t.one))}, t)


def _grid_product(t: Translator, left: list, right: list) -> MatNF | None:
    if len(left[0]) != len(right) or not all(
        _same(a.cols, b.rows) for a, b in zip(left[0], [r[0] for r in right], strict=True)
    ):
        return None
    out = []
    for row in left:
        line = []
        for q in range(len(right[0])):
            total = MatNF(row[0].rows, right[0][q].cols, {}, t)
            for r, block in enumerate(row):
                total = _add(t, total, _mul(t, block, right[r][q]))
            line.append(total)
        out.append(line)
    return _grid_nf(t, out)


def _word_nf(t: Translator, atom: tuple) -> MatNF:
    rows, cols = _shape(t, atom)
    return MatNF(rows, cols, {(atom,): Frac(dict(t.one))}, t)


def _transpose_atom(t: Translator, key: tuple) -> tuple:
    kind = key[0]
    rows, cols, data = _atoms(t)[key]
    if kind == "grid":
        flipped = [[_transpose(t, data[p][q]) for p in range(len(data))] for q in range(len(data[0]))]
        new = _grid_nf(t, flipped)
        if len(new.terms) == 1 and next(iter(new.terms.values())).key() == Frac(dict(t.one)).key():
            return next(iter(new.terms))
        raise Refused("internal: a transposed grid that is not one word")
    if kind == "unit":
        _, i, j, r, c = key
        return (_unit(t, j, i, c, r),)
    if kind in ("symbol", "softmax"):
        return (_atom(t, (*key[:-1], not key[-1]), cols, rows, data),)
    count, block, depth = data
    new_kind = {"blockdiag": "blockdiag", "stack": "row", "row": "stack"}[kind]
    return _structured(t, new_kind, count, _transpose_block(block), depth)


def _pair(t: Translator, a: tuple, b: tuple):
    """The product of two adjacent atoms when a rule applies: (coefficient, atoms) or None (no rule);
    ``"zero"`` when it vanishes."""
    ka, kb = a[0], b[0]
    if ka == "grid" or kb == "grid":
        left = _atoms(t)[a][2] if ka == "grid" else [[_word_nf(t, a)]]
        right = _atoms(t)[b][2] if kb == "grid" else [[_word_nf(t, b)]]
        if (ka != "grid" and len(right) != 1) or (kb != "grid" and len(left[0]) != 1):
            return None
        grid_product = _grid_product(t, left, right)
        return None if grid_product is None else ("nf", grid_product)
    if ka == "unit" and kb == "unit":
        _, i, j, r, c = a
        _, k, last, c2, s = b
        if c != c2:
            raise Refused("matrix units of shapes that do not conform")
        return "zero" if j != k else (Frac(dict(t.one)), (_unit(t, i, last, r, s),))
    if ka == "symbol" and kb == "symbol" and a[1] == b[1] and a[2] == "permutation" and a[3] != b[3]:
        return Frac(dict(t.one)), ()
    if ka in ("blockdiag", "row") and kb in ("blockdiag", "stack"):
        count_a, block_a, depth_a = _atoms(t)[a][2]
        count_b, block_b, depth_b = _atoms(t)[b][2]
        if not _same(count_a, count_b) or depth_a != depth_b:
            return None
        product: list = _blocks_mul(t, block_a, block_b)
        if ka == "row" and kb == "stack":  # sum_j u_j^T v_j
            low = t.const(0)
            high = t.sub(count_a, t.const(1))
            return t._sum_atoms(product[0][0], depth_a, low, high, count_a), ()
        kind = {("blockdiag", "blockdiag"): "blockdiag", ("blockdiag", "stack"): "stack", ("row", "blockdiag"): "row"}[
            (ka, kb)
        ]
        return Frac(dict(t.one)), _structured(t, kind, count_a, product, depth_a)
    return None


def _simplify(t: Translator, word: tuple) -> list:
    """The word with every rule applied: a list of ``(coefficient, word)`` (empty when it vanishes)."""
    word = tuple(a for a in word if a != ("unit", 0, 0, 1, 1))
    for n in range(len(word) - 1):
        outcome = _pair(t, word[n], word[n + 1])
        if outcome is None:
            continue
        if outcome == "zero":
            return []
        if outcome[0] == "nf":
            out = []
            for middle, c in outcome[1].terms.items():
                for c2, rest in _simplify(t, word[:n] + middle + word[n + 2 :]):
                    out.append((t.mul(c, c2), rest))
            return out
        c, middle = outcome
        return [(t.mul(c, c2), rest) for c2, rest in _simplify(t, word[:n] + middle + word[n + 2 :])]
    return [(Frac(dict(t.one)), word)]


# --------------------------------------------------------------------------
# operations on normal forms


def _add(t: Translator, a: MatNF, b: MatNF) -> MatNF:
    if not (_same(a.rows, b.rows) and _same(a.cols, b.cols)):
        raise Refused("a sum of matrices of different shapes")
    terms = dict(a.terms)
    for word, c in b.terms.items():
        total = t.add(terms[word], c) if word in terms else c
        if total.num:
            terms[word] = total
        else:
            terms.pop(word, None)
    return MatNF(a.rows, a.cols, _merge_structured(t, terms), t)


def _merge_structured(t: Translator, terms: dict) -> dict:
    """``c stack(u) + e stack(v) = stack(c u + e v)`` (and likewise for rows and block-diagonal matrices) when
    the count and the bound index agree: ``c``, ``e`` do not depend on the index."""
    groups: dict = {}
    for word in terms:
        if len(word) == 1 and word[0][0] in ("stack", "row", "blockdiag"):
            count, _, depth = _atoms(t)[word[0]][2]
            groups.setdefault((word[0][0], count.key(), depth), []).append(word)
    grids: dict = {}
    for word in list(terms):
        if len(word) == 1 and word[0][0] == "grid":
            blocks = _atoms(t)[word[0]][2]
            layout = (tuple(row[0].rows.key() for row in blocks), tuple(b.cols.key() for b in blocks[0]))
            grids.setdefault(layout, []).append(word)
    for words in grids.values():
        if len(words) == 1 and terms[words[0]].key() == Frac(dict(t.one)).key():
            continue
        total: Any = None
        for word in words:
            grid = _atoms(t)[word[0]][2]
            c = terms.pop(word)
            scaled = [[_scale(t, b, c) for b in row] for row in grid]
            total = (
                scaled
                if total is None
                else [
                    [_add(t, x, y) for x, y in zip(r1, r2, strict=True)] for r1, r2 in zip(total, scaled, strict=True)
                ]
            )
        for word, c in _grid_nf(t, total).terms.items():
            terms[word] = t.add(terms[word], c) if word in terms else c
            if not terms[word].num:
                del terms[word]
    for (kind, _, depth), words in groups.items():
        if len(words) == 1 and terms[words[0]].key() == Frac(dict(t.one)).key():
            continue
        count, block, _ = _atoms(t)[words[0][0]][2]
        summed = [[Frac({}) for _ in row] for row in block]
        for word in words:
            _, other, _ = _atoms(t)[word[0]][2]
            c = terms.pop(word)
            for i, row in enumerate(other):
                for j, entry in enumerate(row):
                    summed[i][j] = t.add(summed[i][j], t.mul(c, entry))
        if all(not e.num for row in summed for e in row):
            continue
        new = _structured(t, kind, count, summed, depth)
        terms[new] = t.add(terms[new], Frac(dict(t.one))) if new in terms else Frac(dict(t.one))
        if not terms[new].num:
            del terms[new]
    return terms


def _scale(t: Translator, a: MatNF, c: Frac) -> MatNF:
    terms = {}
    for word, d in a.terms.items():
        product = t.mul(c, d)
        if product.num:
            terms[word] = product
    return MatNF(a.rows, a.cols, terms, t)


def _mul(t: Translator, a: MatNF, b: MatNF) -> MatNF:
    if not _same(a.cols, b.rows):
        raise Refused("a product of matrices whose shapes do not conform")
    out = MatNF(a.rows, b.cols, {}, t)
    for wa, ca in a.terms.items():
        for wb, cb in b.terms.items():
            for c, word in _simplify(t, wa + wb):
                out = _add(t, out, MatNF(a.rows, b.cols, {word: t.mul(t.mul(ca, cb), c)}, t))
    return _settle(t, out)


def _transpose(t: Translator, a: MatNF) -> MatNF:
    out = MatNF(a.cols, a.rows, {}, t)
    for word, c in a.terms.items():
        flipped: tuple = ()
        for atom in reversed(word):
            flipped += _transpose_atom(t, atom)
        for c2, simplified in _simplify(t, flipped):
            out = _add(t, out, MatNF(a.cols, a.rows, {simplified: t.mul(c, c2)}, t))
    return out


def _explicit(t: Translator, entries: list) -> MatNF:
    r, c = len(entries), len(entries[0]) if entries else 0
    out = MatNF(t.const(r), t.const(c), {}, t)
    for i, row in enumerate(entries):
        for j, value in enumerate(row):
            if value.num:
                word = () if (r, c) == (1, 1) else (_unit(t, i, j, r, c),)
                out = _add(t, out, MatNF(out.rows, out.cols, {word: value}, t))
    return out


def dense(t: Translator, a: MatNF) -> list | None:
    """The entries of ``a`` when it is explicit (numeric shape, words of matrix units only), else None."""
    try:
        r, c = _numeric(t, a.rows, "rows"), _numeric(t, a.cols, "columns")
    except Refused:
        return None
    entries = [[Frac({}) for _ in range(c)] for _ in range(r)]
    for word, value in a.terms.items():
        if word == () and r == c:
            for i in range(r):
                entries[i][i] = t.add(entries[i][i], value)
        elif len(word) == 1 and word[0][0] == "unit":
            _, i, j, _, _ = word[0]
            entries[i][j] = t.add(entries[i][j], value)
        else:
            return None
    return entries


def _square_atoms(t: Translator, word: tuple, size: Frac) -> bool:
    return all(_same(_shape(t, atom)[0], size) and _same(_shape(t, atom)[1], size) for atom in word)


def _plain(t: Translator, atom: tuple) -> tuple:
    """A symbol atom without its transpose (``det X^T = det X``)."""
    if atom[0] == "symbol" and atom[3]:
        return _transpose_atom(t, atom)[0]
    return atom


def determinant(t: Translator, a: MatNF) -> Frac:
    entries = dense(t, a)
    if entries is None and _same(a.rows, a.cols) and len(a.terms) <= 1:
        # det(c W) = c**n det(W), det(AB) = det A det B for square factors of one size, det X^T = det X
        if not a.terms:
            return Frac({})
        ((word, c),) = a.terms.items()
        if _square_atoms(t, word, a.rows) and all(atom[0] == "symbol" for atom in word):
            result = Frac(dict(t.one))
            for atom in word:
                g = t.gen(("det", _plain(t, atom)), kind="atom", real=False, bound=frozenset())
                result = t.mul(result, t.var(g))
            if c.key() != Frac(dict(t.one)).key():
                result = t.mul(
                    result,
                    t.raise_power(c, a.rows, None)
                    if not _is_number(t, a.rows)
                    else t.power(c, _numeric(t, a.rows, "size"), None),
                )
            return result
    if not entries or len(entries) != len(entries[0]):
        raise Refused("a determinant of a matrix that is not explicit and square")
    n = len(entries)
    if n > MAX_DETERMINANT:
        raise Refused(f"a determinant of size {n} (at most {MAX_DETERMINANT} is expanded)")
    total = Frac({})
    for order in permutations(range(n)):
        sign = 1
        for x in range(n):
            for y in range(x + 1, n):
                if order[x] > order[y]:
                    sign = -sign
        term = t.const(sign)
        for row, column in enumerate(order):
            term = t.mul(term, entries[row][column])
            if not term.num:
                break
        total = t.add(total, term)
    return total


def _cyclic_key(t: Translator, word: tuple) -> tuple:
    """The least (by its printed form) rotation of the word or of its transpose: trace(AB) = trace(BA),
    trace(W^T) = trace(W)."""
    flipped: tuple = ()
    for atom in reversed(word):
        flipped += _transpose_atom(t, atom)
    rotations = [w[i:] + w[:i] for w in (word, flipped) for i in range(max(len(w), 1))]
    return min(rotations, key=repr)


def trace(t: Translator, a: MatNF) -> Frac:
    entries = dense(t, a)
    if entries is None and _same(a.rows, a.cols):
        total = Frac({})
        for word, c in a.terms.items():
            if not word:
                total = t.add(total, t.mul(c, a.rows))  # the trace of I_n is n
                continue
            g = t.gen(("trace", _cyclic_key(t, word)), kind="atom", bound=frozenset())
            total = t.add(total, t.mul(c, t.var(g)))
        return total
    if entries is None or len(entries) != len(entries[0]):
        raise Refused("a trace of a matrix that is not explicit and square")
    total = Frac({})
    for i in range(len(entries)):
        total = t.add(total, entries[i][i])
    return total


def element(t: Translator, a: MatNF, i: Frac, j: Frac) -> Frac:
    row, column = _numeric(t, i, "a row index"), _numeric(t, j, "a column index")
    single = a.one_by_one() if (row, column) == (0, 0) else None
    if single is not None:
        return single
    entries = dense(t, a)
    if entries is None:
        raise Refused("an entry of a matrix that is not explicit")
    if not (0 <= row < len(entries) and 0 <= column < len(entries[0])):
        raise Refused("an entry outside the matrix")
    return entries[row][column]


# --------------------------------------------------------------------------
# translation


def _size(t: Translator, n, env) -> Frac:
    value = t.scalar(n, env)
    if value.den or not t.integer_valued(value.num):
        raise Refused(f"a matrix size not shown to be an integer: {n}")
    return value


def _block_entries(t: Translator, block, index, count: Frac, env) -> tuple[list, int]:
    if count.den or not t.integer_valued(count.num):
        raise Refused("a number of blocks not shown to be an integer")
    if t.poly_sign(count.num) not in ("pos", "nonneg", "zero"):
        raise Refused("a number of blocks not shown to be >= 0")
    t.opaque += 1
    try:
        with t.bound_index(t.const(0), t.sub(count, t.const(1))) as g:
            depth = t.depth
            inner = {**env, index: t.var(g)}
            entries = dense(t, translate_matrix(t, block, inner))
    finally:
        t.opaque -= 1
    if entries is None:
        raise Refused(f"a block that is not explicit: {_short(block)}")
    return entries, depth


def _power(t: Translator, expr, env) -> MatNF:
    base, exponent_ = expr.args
    a = translate_matrix(t, base, env)
    n = t.scalar(exponent_, env)
    if not n.num or (list(n.num) == [()] and not n.den):
        value = _numeric(t, n, "a power")
        if -MAX_MATRIX_POWER <= value < 0:
            a, value = _inverse(t, a, base), -value
        if 0 <= value <= MAX_MATRIX_POWER:
            result = MatNF(a.rows, a.cols, {(): Frac(dict(t.one))}, t)
            for _ in range(value):
                result = _mul(t, result, a)
            return result
        raise Refused(f"a matrix power {value} (0 .. {MAX_MATRIX_POWER} are multiplied out)")
    entries = dense(t, a)
    if n.den or not t.integer_valued(n.num) or entries is None or len(entries) != 2 or len(entries[0]) != 2:
        raise Refused(f"a symbolic power of a matrix that is not an explicit 2 x 2 rotation: {_short(expr)}")
    (p, q), (r, s) = entries
    if not (_same(p, s) and _same(q, t.neg(r))):
        raise Refused(f"a symbolic power of a 2 x 2 matrix not of the form [[a, -b], [b, a]]: {_short(expr)}")
    i = t.coefficient(t.field.i)
    plus, minus = t.add(p, t.mul(i, r)), t.sub(p, t.mul(i, r))  # a + ib, a - ib
    plus_n, minus_n = (t.raise_power(z, n, None) for z in (plus, minus))
    half = Frac({(): t.field.rational(Fraction(1, 2))})
    even = t.mul(half, t.add(plus_n, minus_n))
    odd = t.mul(t.mul(half, i), t.sub(plus_n, minus_n))  # the (0, 1) entry: i (P - Q) / 2
    return _explicit(t, [[even, odd], [t.neg(odd), even]])


def _inverse(t: Translator, a: MatNF, written) -> MatNF:
    """The inverse of an explicit square matrix (at most 4 x 4): the adjugate over the determinant, with
    ``det != 0`` a condition (written ``Determinant(written)``)."""
    entries = dense(t, a)
    if not entries or len(entries) != len(entries[0]) or len(entries) > 4:
        raise Refused("an inverse of a matrix that is not explicit, square and at most 4 x 4")
    n = len(entries)
    det = determinant(t, a)
    scale = t.inverse(det, sympy.Determinant(written) if written is not None else None)

    def minor(i, j):
        rows = [[entries[r][c] for c in range(n) if c != j] for r in range(n) if r != i]
        return determinant(t, _explicit(t, rows)) if rows else Frac(dict(t.one))

    adjugate = [[t.mul(t.const((-1) ** (i + j)), minor(j, i)) for j in range(n)] for i in range(n)]
    return _explicit(t, [[t.mul(entry, scale) for entry in row] for row in adjugate])


def translate_matrix(t: Translator, expr, env: dict) -> MatNF:
    return _settle(t, _translate_matrix(t, expr, env))


def _settle(t: Translator, a: MatNF) -> MatNF:
    """An identity of numeric size ``n > 1`` written as its matrix units (so ``I`` equals ``sum E_ii``)."""
    if () not in a.terms or not (_is_number(t, a.rows) and _is_number(t, a.cols)):
        return a
    n = _numeric(t, a.rows, "rows")
    if n <= 1:
        return a
    terms = dict(a.terms)
    c = terms.pop(())
    out = MatNF(a.rows, a.cols, terms, t)
    for i in range(n):
        out = _add(t, out, MatNF(a.rows, a.cols, {(_unit(t, i, i, n, n),): c}, t))
    return out


def _translate_matrix(t: Translator, expr, env: dict) -> MatNF:
    if isinstance(expr, sympy.MatrixSymbol):
        if expr in env:
            return env[expr]
        rows, cols = (_size(t, n, env) for n in expr.shape)
        kind = "permutation" if isinstance(expr, lang.PermutationSymbol) else "generic"
        if kind == "permutation" and not _same(rows, cols):
            raise Refused("a permutation symbol must be square")
        key = _atom(t, ("symbol", (expr.name, tuple(n.key() for n in (rows, cols))), kind, False), rows, cols)
        return MatNF(rows, cols, {(key,): Frac(dict(t.one))}, t)
    if isinstance(expr, sympy.MatrixBase):
        return _explicit(t, [[t.scalar(expr[i, j], env) for j in range(expr.cols)] for i in range(expr.rows)])
    if isinstance(expr, sympy.MatMul):
        scalar, matrices = Frac(dict(t.one)), []
        for arg in expr.args:
            if isinstance(arg, (sympy.MatrixBase, MatrixExpr)):
                matrices.append(translate_matrix(t, arg, env))
            else:
                scalar = t.mul(scalar, t.scalar(arg, env))
        if not matrices:
            raise Refused("a matrix product without a matrix")
        result = matrices[0]
        for other in matrices[1:]:
            result = _mul(t, result, other)
        return _scale(t, result, scalar)
    if isinstance(expr, sympy.MatAdd):
        parts = [translate_matrix(t, arg, env) for arg in expr.args]
        result = parts[0]
        for other in parts[1:]:
            result = _add(t, result, other)
        return result
    if isinstance(expr, sympy.Transpose):
        return _transpose(t, translate_matrix(t, expr.args[0], env))
    if isinstance(expr, sympy.MatPow):
        return _power(t, expr, env)
    if isinstance(expr, sympy.Inverse):
        return _inverse(t, translate_matrix(t, expr.args[0], env), expr.args[0])
    if isinstance(expr, sympy.Identity):
        n = _size(t, expr.rows, env)
        return MatNF(n, n, {(): Frac(dict(t.one))}, t)
    if isinstance(expr, sympy.ZeroMatrix):
        return MatNF(_size(t, expr.rows, env), _size(t, expr.cols, env), {}, t)
    if isinstance(expr, (sympy.BlockMatrix, sympy.BlockDiagMatrix)):
        return _block_matrix(t, expr, env)
    if isinstance(expr, (lang.BlockDiagonal, lang.Stacked)):
        count = t.scalar(expr.count, env)
        entries, depth = _block_entries(t, expr.block, expr.index, count, env)
        kind = "blockdiag" if isinstance(expr, lang.BlockDiagonal) else "stack"
        word = _structured(t, kind, count, entries, depth)
        rows = t.mul(count, t.const(len(entries)))
        cols = t.const(1) if kind == "stack" else t.mul(count, t.const(len(entries[0])))
        return MatNF(rows, cols, {word: Frac(dict(t.one))}, t)
    if isinstance(expr, lang.RowSoftmax):
        return _softmax(t, translate_matrix(t, expr.argument, env))
    if isinstance(expr, lang.NamedMatrix):
        return t.named(expr, env)
    raise Refused(f"{type(expr).__name__} is not in the kernel's matrix language: {_short(expr)}")


def _softmax(t: Translator, argument: MatNF) -> MatNF:
    words = list(argument.terms)
    if words and all(
        len(w) >= 2
        and w[0][0] == "symbol"
        and w[0][2] == "permutation"
        and not w[0][3]
        and w[-1][0] == "symbol"
        and w[-1][1] == w[0][1]
        and w[-1][3]
        for w in words
    ):
        p, p_t = words[0][0], words[0][-1]
        if all(w[0] == p and w[-1] == p_t for w in words):
            inner = MatNF(argument.rows, argument.cols, {w[1:-1]: c for w, c in argument.terms.items()}, t)
            core = _softmax(t, inner)
            rows = argument.rows
            left = MatNF(rows, rows, {(p,): Frac(dict(t.one))}, t)
            right = MatNF(rows, rows, {(p_t,): Frac(dict(t.one))}, t)
            return _mul(t, _mul(t, left, core), right)
    key = (
        "softmax",
        (argument.rows.key(), argument.cols.key(), tuple(sorted((w, c.key()) for w, c in argument.terms.items()))),
        False,
    )
    atom = _atom(t, key, argument.rows, argument.cols, argument)
    return MatNF(argument.rows, argument.cols, {(atom,): Frac(dict(t.one))}, t)


def _block_matrix(t: Translator, expr, env) -> MatNF:
    if isinstance(expr, sympy.BlockDiagMatrix):
        blocks = list(expr.args)
        grid = [[blocks[p] if p == q else None for q in range(len(blocks))] for p in range(len(blocks))]
    else:
        grid = [[expr.blocks[p, q] for q in range(expr.blocks.cols)] for p in range(expr.blocks.rows)]
    translated: list[list[Any]] = [
        [translate_matrix(t, b, env) if b is not None else None for b in row] for row in grid
    ]
    numeric_sizes = all(_is_number(t, b.rows) and _is_number(t, b.cols) for row in translated for b in row if b)
    if not numeric_sizes:
        return _grid_nf(t, _symbolic_grid(t, translated))
    heights = [next(_numeric(t, b.rows, "a block's rows") for b in row if b is not None) for row in translated]
    widths = [
        next(
            _numeric(t, translated[p][q].cols, "a block's columns")
            for p in range(len(grid))
            if translated[p][q] is not None
        )
        for q in range(len(grid[0]))
    ]
    total_rows, total_cols = sum(heights), sum(widths)
    result = MatNF(t.const(total_rows), t.const(total_cols), {}, t)
    for p, row in enumerate(translated):
        for q, block in enumerate(row):
            if block is None:
                continue
            if _numeric(t, block.rows, "rows") != heights[p] or _numeric(t, block.cols, "columns") != widths[q]:
                raise Refused("blocks of a block matrix do not line up")
            top, left = sum(heights[:p]), sum(widths[:q])
            place_rows = _explicit(
                t, [[t.const(int(i == top + a)) for a in range(heights[p])] for i in range(total_rows)]
            )
            place_cols = _explicit(
                t, [[t.const(int(j == left + b)) for j in range(total_cols)] for b in range(widths[q])]
            )
            result = _add(t, result, _mul(t, _mul(t, place_rows, block), place_cols))
    return result
