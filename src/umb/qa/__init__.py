"""Question families; gold answers come from the world, never from rendered text."""

from umb.qa._build import DEFAULT_COUNTS, build_questions

__all__ = ["DEFAULT_COUNTS", "build_questions"]
