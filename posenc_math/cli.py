"""``posenc-math``: the command line.

``posenc-math verify [--json] [ID ...]`` re-checks the derivations: every
step of every theorem (or of the ids given, and the theorems they use), that
the steps establish its conclusions, its numeric witness and its negative
control.  The table shows each theorem's scope (general, instances,
computation).  It exits 1 when any theorem fails, 2 on a usage error (an
unknown id), 0 otherwise.  The checks run in two processes by default, this
one and a forked child (``--processes``).
``posenc-math check-config CONFIG.json [--json] [--compare DUMP.npz]``
prints what RoPE each layer of a model's ``config.json`` computes, the
layers that compute the same thing grouped, and with ``--compare`` checks
dumped cos/sin caches (arrays ``cos``, ``sin``, optional ``positions``,
``layer``, ``seq_len`` in an ``.npz``) against that layer's exact values,
naming the known mistake that explains a difference.  It exits 1 when the
dump differs, 2 when the config or the dump cannot be read.
``posenc-math --version`` prints the version.  ``posenc-math verify --fast``
is the fast mode: a step that the symbolic procedures prove is not
cross-checked by intervals; its table and its JSON (``"mode": "fast"``) say
so.

Output that cannot be delivered ends quietly, without a traceback: when the
reader of standard output goes away (``posenc-math verify | head -c 1``)
the exit status is 141 (128 + SIGPIPE, what a shell reports for a command
ended by a closed pipe; ``set -o pipefail`` sees it), and when the output
cannot be written (``> /dev/full``, a full disk) or standard output is closed
(``posenc-math list >&-``) a one-line message goes to standard error and the exit
status is 1.
"""

from __future__ import annotations

import argparse
import errno
import functools
import json
import os
import sys
import time

__all__ = ["main"]


def _table(results, stream) -> None:
    from .theorems.plain import plain_text

    rows = [("id", "title", "status", "scope", "steps", "seconds")]
    for r in results:
        rows.append((r.id, plain_text(r.title), r.status, r.scope, str(r.steps), f"{r.seconds:.3f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(6)]
    widths[1] = min(widths[1], 50)
    for n, row in enumerate(rows):
        title = row[1] if len(row[1]) <= widths[1] else row[1][: widths[1] - 1] + "…"
        cells = (row[0], title, *row[2:])
        print(
            "  ".join(
                cell.rjust(width) if i >= 4 else cell.ljust(width)
                for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
            ).rstrip(),
            file=stream,
        )
        if n == 0:
            print("  ".join("-" * width for width in widths), file=stream)


#: How the table and the progress line label a run of ``verify --fast``.
FAST_MODE_NOTE = "; FAST MODE: each step proved symbolically is not cross-checked by intervals"


def _verify(args) -> int:
    started = time.perf_counter()
    background = None
    if not args.ids and args.processes > 1:
        # Every witness needs numpy, mpmath and the library only: a process of
        # its own computes them while this one imports SymPy (a core that
        # would otherwise wait).
        from . import witnesses

        background = witnesses.start()
    from . import theorems

    known = theorems.ids()
    unknown = [i for i in args.ids if i not in known]
    if unknown:
        print(
            f"posenc-math verify: unknown theorem id(s): {', '.join(unknown)}\nknown ids: {', '.join(known)}",
            file=sys.stderr,
        )
        return 2
    wanted = args.ids or known
    if not args.json and not args.quiet:
        print(
            f"checking {len(wanted)} theorem(s) and what they use, in {args.processes} process(es)"
            f"{FAST_MODE_NOTE if args.fast else ''} ...",
            file=sys.stderr,
            flush=True,
        )
    # the witnesses' values are collected once every other check is done: the checks need not wait for them
    results = theorems.verify(
        wanted,
        processes=args.processes,
        witness_values=background.values if background is not None else None,
        fast=args.fast,
    )
    if args.json:
        from .theorems.plain import plain_text

        # titles and scope notes as plain text, as the table prints them (the page typesets their $...$)
        records = [dict(r.as_dict(), title=plain_text(r.title), scope_note=plain_text(r.scope_note)) for r in results]
        json.dump(records, sys.stdout, indent=2)
        print()
    else:
        _table(results, sys.stdout)
        failed = [r for r in results if not r.ok]
        for r in failed:
            print(f"\n{r.id}: FAILED", file=sys.stdout)
            for failure in r.failures:
                print(f"  {failure}", file=sys.stdout)
        general = sum(r.scope == "general" for r in results)
        print(
            f"\n{len(results) - len(failed)} verified, {len(failed)} failed; {general} of {len(results)} general "
            f"({time.perf_counter() - started:.2f} s with import){FAST_MODE_NOTE if args.fast else ''}",
            file=sys.stdout,
        )
    return 0 if all(r.ok for r in results) else 1


#: Exit status when standard output's reader has gone away (128 + SIGPIPE).
EXIT_BROKEN_PIPE = 141

#: Exit status when standard output cannot be written (a full disk).
EXIT_WRITE_ERROR = 1

_WRITE_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO)


def _detach_stdout() -> None:
    """Point standard output at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real file descriptor (captured output)
        pass


def _quiet_output(main_function):
    """Wrap the entry point so that a closed pipe or a full disk ends quietly (see the module docstring)."""

    @functools.wraps(main_function)
    def run(argv: list[str] | None = None) -> int:
        if sys.stdout is None:  # started with standard output closed (`posenc-math list >&-`)
            if sys.stderr is not None:
                print("posenc-math: cannot write the output: standard output is closed", file=sys.stderr)
            return EXIT_WRITE_ERROR
        try:
            try:
                status = main_function(argv)
            except SystemExit:  # argparse's --version, --help and usage errors print first
                sys.stdout.flush()
                raise
            sys.stdout.flush()  # a closed pipe or a full disk shows here, not at exit
        except BrokenPipeError:
            _detach_stdout()
            return EXIT_BROKEN_PIPE
        except OSError as error:
            if error.errno not in _WRITE_ERRNOS:
                raise
            _detach_stdout()
            print(f"posenc-math: cannot write the output: {error.strerror or error}", file=sys.stderr)
            return EXIT_WRITE_ERROR
        return status

    return run


def _default_processes() -> int:
    import os

    return max(1, min(2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))


def _processes(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"--processes must be a positive integer; got {text!r}")
    return value


def _config_rows(rows) -> list[tuple[str, ...]]:
    from .encodings.rope_check import layer_table_cells

    return layer_table_cells(rows)


def _print_table(table, stream) -> None:
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for n, row in enumerate(table):
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip(), file=stream)
        if n == 0:
            print("  ".join("-" * width for width in widths), file=stream)


def _load_dump(path: str) -> dict:
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
    except (OSError, ValueError) as error:
        raise ValueError(f"cannot read {path!r} as an .npz archive: {error}") from None
    missing = [name for name in ("cos", "sin") if name not in arrays]
    if missing:
        raise ValueError(f"{path!r} has no array {' or '.join(missing)} (it has: {', '.join(arrays) or 'none'})")
    return arrays


def _scalar_int(arrays: dict, name: str):
    if name not in arrays:
        return None
    value = arrays[name]
    if value.size != 1 or value.dtype.kind not in "iu":
        raise ValueError(f"the dump's {name!r} must be one integer, got {value!r}")
    return int(value.reshape(()))


def _compare_text(result, layer, path: str, stream) -> None:
    print(
        f"\n{path}: layer {result.layer} ({layer.layer_type}), {result.positions.shape[-1]} positions, "
        f"seq_len {result.seq_len}, columns read as {result.form}",
        file=stream,
    )
    where = f" at row {result.worst_at[0]}, column {result.worst_at[1]}" if result.worst_at else ""
    print(
        f"worst error {result.worst_error:.3g}{where}; float32's own error {result.float32_error:.3g}; "
        f"tolerance {result.tolerance:.3g}",
        file=stream,
    )
    if result.agrees:
        print("AGREES with the exact values to float32 rounding.", file=stream)
        return
    print("DIFFERS from the exact values.", file=stream)
    matching = [item for item in result.candidates if item["matches"]]
    if matching:
        best = matching[0]
        print(f"Explained by: {best['title']} ({best['name']}): {best['description']}.", file=stream)
    else:
        print("No known mistake explains it.", file=stream)
    others = [item for item in result.candidates if not matching or item is not matching[0]]
    if others:
        print("Also tried (worst error against each):", file=stream)
        for item in others:
            mark = " (matches too)" if item["matches"] else ""
            print(f"  {item['title']}: {item['worst_error']:.3g}{mark}", file=stream)


def _check_config(args) -> int:
    from .encodings.rope_check import check_cos_sin, layer_table
    from .encodings.rope_config import load_config, rope_from_config

    try:
        config = load_config(args.config)
        rows = layer_table(config)
        first = rope_from_config(config)
        result = layer = None
        if args.compare is not None:
            arrays = _load_dump(args.compare)
            index = args.layer if args.layer is not None else _scalar_int(arrays, "layer")
            index = 0 if index is None else index
            layer = rope_from_config(config, layer=index)
            result = check_cos_sin(
                config,
                arrays["cos"],
                arrays["sin"],
                positions=arrays.get("positions"),
                layer=index,
                seq_len=_scalar_int(arrays, "seq_len"),
            )
    except (ValueError, TypeError, ImportError) as error:
        print(f"posenc-math check-config: {error}", file=sys.stderr)
        return 2
    if args.json:
        record = {
            "config": args.config,
            "model_type": first.model_type,
            "family": first.family,
            "n_layers": first.n_layers,
            "layers": rows,
        }
        if result is not None:
            record["compare"] = dict(result.as_dict(), dump=args.compare)
        json.dump(record, sys.stdout, indent=2)
        print()
    else:
        print(f"{args.config}: model_type {first.model_type} ({first.family}), {first.n_layers} layers\n")
        _print_table(_config_rows(rows), sys.stdout)
        print(
            "\nλ: positions per turn of the fastest and the slowest turning pair, as built at construction. "
            "f32/bf16 ±0.05: the first position from which the fastest pair's angle, formed in float32 / "
            "bfloat16, can be off by 0.05 rad (its first decimal lost). (T): queries scaled by Llama 4's "
            "attention temperature."
        )
        for row in rows:
            notes = list(row["notes"])
            if row["score_scale"] != 1.0:
                notes.insert(0, f"attention logits also scaled by {row['score_scale']:.6g} (DeepSeek's mscale_all_dim)")
            for note in notes:
                print(f"layers {row['layers']}: {note}")
        if result is not None:
            _compare_text(result, layer, args.compare, sys.stdout)
    return 0 if result is None or result.agrees else 1


@_quiet_output
def main(argv: list[str] | None = None) -> int:
    """Entry point of ``posenc-math`` and ``python -m posenc_math``."""
    from . import __version__

    parser = argparse.ArgumentParser(
        prog="posenc-math",
        description="Re-check the derivations of posenc-math (SymPy, step by step).",
    )
    # printed here, not by argparse's version action, which ignores write errors
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    verify = commands.add_parser(
        "verify",
        help="check every theorem (or the ids given): steps, numeric witness, negative control",
        description="Check theorems step by step. Exit status 1 if any fails or any negative control is accepted.",
    )
    verify.add_argument("ids", nargs="*", metavar="ID", help="theorem ids (default: all)")
    verify.add_argument("--json", action="store_true", help="print a JSON list instead of a table")
    verify.add_argument("-q", "--quiet", action="store_true", help="no progress line on stderr")
    verify.add_argument(
        "--processes",
        type=_processes,
        default=_default_processes(),
        metavar="N",
        help="check in N processes, this one and N-1 forked (default: 2, or 1 on a one-core machine)",
    )
    verify.add_argument(
        "--fast",
        action="store_true",
        help="fast mode: a step the symbolic procedures prove is certified by them alone, without the interval "
        "cross-check at sampled points (witnesses and negative controls are checked as always)",
    )
    verify.set_defaults(run=_verify)
    commands.add_parser("list", help="list the theorem ids and titles").set_defaults(run=_list)
    check = commands.add_parser(
        "check-config",
        help="what RoPE each layer of a model's config.json computes; --compare checks dumped cos/sin",
        description="Read a Hugging Face config.json as transformers 5.x does and print each layer's rotary "
        "embedding. With --compare, check dumped cos/sin against the exact values and name the mistake that "
        "explains a difference. Exit status 1 if the dump differs, 2 if the config or dump cannot be read.",
    )
    check.add_argument("config", metavar="CONFIG.json", help="the model's config.json")
    check.add_argument("--json", action="store_true", help="print JSON instead of a table")
    check.add_argument(
        "--compare",
        metavar="DUMP.npz",
        help="arrays cos and sin (n x columns), optional positions, layer, seq_len",
    )
    check.add_argument("--layer", type=int, default=None, help="the dump's layer (default: its 'layer' array, else 0)")
    check.set_defaults(run=_check_config)
    args = parser.parse_args(argv)
    if args.version:
        print(f"posenc-math {__version__}")
        return 0
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return 2
    return args.run(args)


def _list(args) -> int:
    from . import theorems
    from .theorems.plain import plain_text

    for theorem in theorems.all_theorems():
        print(f"{theorem.id}\t{theorem.scope}\t{plain_text(theorem.title)}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


def command() -> None:
    """The ``posenc-math`` console command and ``python -m posenc_math``: :func:`main`, then exit at once.

    Once :func:`main` has returned, its output written and flushed, nothing
    is left to do: the process ends with ``os._exit``, without the
    interpreter's tear-down, which frees every SymPy object one by one and
    serves nobody (``make bench`` times the command with it gone).  Usage
    errors, ``--help`` and exceptions leave through ``SystemExit`` as usual.
    """
    status = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # main has said what it could; the status stands
            pass
    os._exit(status)
