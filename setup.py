"""Build script: only needed for the optional C accelerator; everything else is in pyproject."""

from setuptools import setup

setup()
