"""Theorems registered by this module (filled in by its own commit)."""
