"""Maps the repository's top-level sites/ and tasks/ into the webenv package.

They sit at the top of the repository, but install as ``webenv.sites`` and ``webenv.suite``
so that nothing as generic as ``tasks`` lands in site-packages. Folders of data files
(``templates/``, ``static/``, ``js/``) are listed as packages too, without an
``__init__.py``, so that setuptools ships their files (``package-data`` in pyproject.toml)
and has nothing to warn about.
"""

from setuptools import find_namespace_packages, setup

PACKAGE_DIRS = {"webenv": "webenv", "webenv.sites": "sites", "webenv.suite": "tasks"}

packages = []
for name, folder in PACKAGE_DIRS.items():
    packages.append(name)
    found = find_namespace_packages(folder, exclude=["*__pycache__*"])
    packages += [f"{name}.{sub}" for sub in found]

setup(packages=packages, package_dir=PACKAGE_DIRS)
