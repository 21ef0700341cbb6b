"""``python -m posenc_math verify``: the same as the ``posenc-math`` command."""

import sys

from .cli import main

sys.exit(main())
