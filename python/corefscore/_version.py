"""The version of corefscore, written here and nowhere else.

``corefscore.__version__`` imports it and the build reads it (``[tool.setuptools.dynamic]``
in pyproject.toml), so a release changes this line and CHANGELOG.md only.
"""

__version__ = "0.2.0"
