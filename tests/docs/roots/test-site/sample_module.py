"""A module for the test site's API page."""


def shifted(position: int) -> int:
    """The position after one step: an API object, so an index entry."""
    return position + 1
