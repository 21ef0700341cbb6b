"""``python -m posenc_math verify``: the same as the ``posenc-math`` command."""

from .cli import command

command()
