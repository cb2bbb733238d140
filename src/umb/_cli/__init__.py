"""The ``umb`` command line: a thin layer that parses options and calls the library."""
