"""Maps the repository's top-level sites/ and tasks/ into the webenv package.

They sit at the top of the repository, but install as ``webenv.sites`` and ``webenv.suite``
so that nothing as generic as ``tasks`` lands in site-packages.
"""

from setuptools import find_packages, setup

PACKAGE_DIRS = {"webenv": "webenv", "webenv.sites": "sites", "webenv.suite": "tasks"}

packages = []
for name, folder in PACKAGE_DIRS.items():
    packages.append(name)
    packages += [f"{name}.{sub}" for sub in find_packages(folder)]

setup(packages=packages, package_dir=PACKAGE_DIRS)
