"""Bibliography labels that read as names, for authors that are teams or handles.

pybtex's ``alpha`` label style builds a label from a person's surname,
abbreviating what it takes for a "von" part; an organisation or a GitHub
handle given as one braced name (``{The vLLM team}``, ``{wzy816}``) came
out as ``[Thevteam26]`` or ``[wzy81623]``.  The ``posenc`` label style keeps
``alpha`` for people and, for such a name, does what BibTeX's ``alpha.bst``
does for a single author: the first three letters or digits of the name (a
leading "The" dropped), so ``[vLL26]``, ``[Tow26]``, ``[wzy23]``.  The
``posenc`` formatting style is ``alpha`` with that label style;
``conf.py`` names it in ``bibtex_default_style``.
"""

from __future__ import annotations

import re
from typing import Any

from pybtex.database import Person
from pybtex.plugin import register_plugin
from pybtex.style.formatting.alpha import Style as AlphaStyle
from pybtex.style.labels.alpha import LabelStyle as AlphaLabelStyle
from sphinx.application import Sphinx

__all__ = ["LabelStyle", "Style", "setup"]


def is_single_name(person: Person) -> bool:
    """Whether ``person`` is one braced name (a team, a company, a handle), not a first and a last name.

    >>> is_single_name(Person("{The vLLM team}")), is_single_name(Person("{wzy816}"))
    (True, True)
    >>> is_single_name(Person("Vaswani, Ashish")), is_single_name(Person("Phil Wang"))
    (False, False)
    """
    parts = person.first_names + person.middle_names + person.prelast_names + person.last_names
    return len(parts) == 1 and parts[0].startswith("{") and parts[0].endswith("}")


def name_label(person: Person) -> str:
    """The label part for a single-name author: its first three letters or digits, without a leading "The".

    >>> [name_label(Person(name)) for name in ("{The vLLM team}", "{Tower of Records}", "{wzy816}", "{Meta}")]
    ['vLL', 'Tow', 'wzy', 'Met']
    """
    name = person.last_names[0].strip("{}")
    name = re.sub(r"^The\s+", "", name)
    return re.sub(r"[^A-Za-z0-9]+", "", name)[:3]


class LabelStyle(AlphaLabelStyle):
    """``alpha`` labels, with a single-name author labelled by its first three letters (see the module)."""

    def format_lab_names(self, persons: list[Person]) -> str:
        if len(persons) == 1 and is_single_name(persons[0]):
            return name_label(persons[0])
        return super().format_lab_names(persons)


class Style(AlphaStyle):
    """pybtex's ``alpha`` formatting style with the ``posenc`` labels."""

    default_label_style = "posenc"


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the label and the formatting style with pybtex (sphinxcontrib-bibtex looks them up there)."""
    register_plugin("pybtex.style.labels", "posenc", LabelStyle)
    register_plugin("pybtex.style.formatting", "posenc", Style)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
