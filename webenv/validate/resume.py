"""Going on with an audit that an earlier run began (``webenv validate --json FILE --resume``).

An audit of 30 seeds takes hours, and a machine may be stopped or a worker killed before it
ends; the results file is written as each template's audit ends, and ``--resume`` audits only
what it lacks. An audit holds only for the code that ran it, so each template's report carries
that code's fingerprint (:func:`code_of`), and a report whose code has changed since is audited
again. The fingerprint covers what can turn the template's verdict:

- webenv's own sources (the env, perturbations, grading, the browser), whole;
- the versions of the libraries that shape its worlds and drive its browser;
- the folders of the sites its worlds hold (a change to the calendar's pages leaves a shop
  template's audit standing), and of the other sites, the modules that a module of the suite
  or of those sites imports, and the data files they could read;
- the task suite's shared modules (its top-level files and each package's ``__init__``) and
  every module of the suite that the template's module imports, directly or through another;
- the template's own module, and the sources of the plugin sites it uses.

So mending one template's check re-audits that template and those that share its helpers, not
the whole suite.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import json
import os
import sys
from collections.abc import Sequence
from functools import cache
from importlib import metadata
from pathlib import Path

from ..errors import WebEnvError
from ..site import sites as registered_sites
from ..tasks import TaskTemplate, registered
from .report import RUN, TemplateReport, ValidationReport

#: Files whose content is code or data of a site or a check.
_SOURCES = {".py", ".sql", ".html", ".js", ".css", ".json", ".txt"}
#: Of those, the files a module may read as data.
_DATA = {".sql", ".json", ".txt"}
#: The packages whose sources decide every built-in verdict: webenv itself, its sites and its
#: task suite (installed as ``webenv.sites`` and ``webenv.suite``, wherever their folders lie).
_PACKAGES = ("webenv", "webenv.sites", "webenv.suite")


def _roots() -> list[Path]:
    roots = []
    for name in _PACKAGES:
        module = importlib.import_module(name)
        roots += [Path(path).resolve() for path in getattr(module, "__path__", ())]
    return roots


def _hash_file(digest: hashlib._Hash, path: Path, root: Path) -> None:
    digest.update(path.relative_to(root.parent).as_posix().encode() + b"\0")
    digest.update(path.read_bytes())


def _hash_tree(digest: hashlib._Hash, root: Path) -> None:
    paths = sorted(root.rglob("*")) if root.is_dir() else [root]
    for path in paths:
        if path.suffix in _SOURCES and "__pycache__" not in path.parts and path.is_file():
            _hash_file(digest, path, root)


def _library_versions(digest: hashlib._Hash) -> None:
    for name in ("faker", "playwright", "gymnasium", "flask"):
        try:
            digest.update(f"{name} {metadata.version(name)}\0".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{name} -\0".encode())


@cache
def _package_code() -> bytes:
    """webenv's own sources, its sites' and its suite's, and the versions of the libraries
    its verdicts depend on: all a built-in verdict can depend on (the test suite's resumed
    runs key on it: tests/progress.py)."""
    digest = hashlib.sha256()
    _library_versions(digest)
    for root in _roots():
        _hash_tree(digest, root)
    return digest.digest()


@cache
def _core_code() -> bytes:
    """webenv's own sources (not its sites' or its suite's) and the libraries' versions."""
    digest = hashlib.sha256()
    _library_versions(digest)
    _hash_tree(digest, _package_root("webenv"))
    return digest.digest()


def _package_root(name: str) -> Path:
    return Path(importlib.import_module(name).__file__ or "").resolve().parent


def _module_file(module: str) -> Path | None:
    """The file of ``module`` (a package's ``__init__.py``), if it is one of the sites' or
    the suite's."""
    for package in ("webenv.sites", "webenv.suite"):
        if module == package or module.startswith(package + "."):
            parts = module.split(".")[2:]
            base = _package_root(package).joinpath(*parts)
            for path in (base / "__init__.py", base.with_suffix(".py")):
                if path.is_file():
                    return path
    return None


def _module_name(path: Path) -> str | None:
    """The dotted name of a file of the sites or the suite (None for any other file)."""
    for package in ("webenv.sites", "webenv.suite"):
        root = _package_root(package)
        if root in path.parents:
            parts = path.relative_to(root).with_suffix("").parts
            return ".".join((package, *(p for p in parts if p != "__init__")))
    return None


@cache
def _imports(path: Path) -> frozenset[Path]:
    """The files of the sites and the suite that the module at ``path`` imports. A package's
    ``from . import a, b`` (how a package of templates registers them) is not followed: each
    of those modules is a template's own."""
    name = _module_name(path)
    is_init = path.name == "__init__.py"
    package = (name if is_init else name.rpartition(".")[0]) if name else ""
    found = set()
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level and not package:
                continue  # a relative import outside the sites and the suite: not ours
            if is_init and node.level == 1 and not node.module:
                continue
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], *filter(None, [base])])
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        for target in targets:
            file = _module_file(target)
            if file is not None and file != path:
                found.add(file)
    return frozenset(found)


def _closure(starts: Sequence[Path]) -> set[Path]:
    """``starts`` and every file of the sites and the suite they import, at any depth."""
    seen: set[Path] = set()
    todo = list(starts)
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo += _imports(path)
    return seen


def code_of(template: TaskTemplate) -> str:
    """The fingerprint of the code an audit of ``template`` runs (see the module docstring)."""
    digest = hashlib.sha256(_core_code())
    sites_root, suite_root = _package_root("webenv.sites"), _package_root("webenv.suite")
    where = _module_file(type(template).__module__)
    if where is None:  # a template of a module of its own
        module = sys.modules.get(type(template).__module__)
        where = Path(getattr(module, "__file__", None) or "").resolve()
    starts = sorted(suite_root.glob("*.py")) + sorted(suite_root.glob("*/__init__.py"))
    starts += sorted(sites_root.glob("*.py"))
    worlds: list[Path] = []  # the folders of the sites its worlds hold
    for name in template.sites:
        site = registered_sites().get(name)
        home = _module_file(site.module) if site is not None else None
        if home is not None:  # one of webenv's own
            worlds.append(home.parent)
            starts += sorted(home.parent.rglob("*.py"))
        elif site is not None:  # a plugin's site: its sources, whole
            _hash_tree(digest, site.source_root())
    if where.is_file():
        starts.append(where)
    used = _closure(starts)
    for folder in worlds:  # pages, data and SQL, not only Python
        _hash_tree(digest, folder)
    # Another site's modules that a helper imports (a region's name, a mail's store): their
    # Python, and the data any of them could read (never its pages).
    others = {
        sites_root / path.relative_to(sites_root).parts[0]
        for path in used
        if path.parent != sites_root and sites_root in path.parents
    } - set(worlds)
    for folder in sorted(others):
        for path in sorted(folder.rglob("*")):
            if path.suffix in _DATA and "__pycache__" not in path.parts and path.is_file():
                _hash_file(digest, path, sites_root)
    for path in sorted(used):
        if sites_root in path.parents:
            if not any(folder in path.parents for folder in worlds):
                _hash_file(digest, path, sites_root)
        elif suite_root in path.parents:
            _hash_file(digest, path, suite_root)
        else:  # a template's module of its own
            _hash_tree(digest, path)
    return digest.hexdigest()[:16]


def load(path: Path) -> ValidationReport:
    """The report ``webenv validate --json`` wrote to ``path``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return ValidationReport(
            tuple(TemplateReport.from_dict(t) for t in data["templates"]),
            tuple(int(seed) for seed in data["seeds"]),
            tuple(str(profile) for profile in data["profiles"]),
            tuple(str(name) for name in data.get("not_audited", ())),
            int(data.get("random_steps", -1)),
        )
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise WebEnvError(
            f"{path} is not the results of webenv validate --json ({error!r}); name another "
            "file, or run without --resume to write it again."
        ) from None


def save(report: ValidationReport, path: Path) -> None:
    """Write ``report`` to ``path`` as JSON, whole or not at all (a stop mid-write leaves the
    last version)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(report.to_dict(), indent=1, ensure_ascii=False))
    os.replace(partial, path)


def kept_audits(
    path: Path, seeds: Sequence[int], profiles: Sequence[str], random_steps: int
) -> tuple[list[TemplateReport], list[str]]:
    """The audits of ``path`` that still hold, and a line for each one that does not.

    An audit holds if it ended (its worker did not die), its template is still registered, and
    the code it ran is unchanged. A file written for other seeds, profiles or random steps is
    an error: its verdicts answer another question. No file yet: nothing to keep.
    """
    if not path.exists():
        return [], []
    earlier = load(path)
    asked = (tuple(seeds), tuple(profiles), random_steps)
    found = (earlier.seeds, earlier.profiles, earlier.random_steps)
    if asked != found:

        def said(what: tuple[tuple[int, ...], tuple[str, ...], int]) -> str:
            seeds, profiles, steps = what
            if len(seeds) == 1:
                span = f"seed {seeds[0]}"
            elif seeds and list(seeds) == list(range(seeds[0], seeds[-1] + 1)):
                span = f"seeds {seeds[0]}–{seeds[-1]}"
            else:
                span = f"seeds {', '.join(map(str, seeds)) or 'none'}"
            return f"{span}, profiles {','.join(profiles) or 'none'}, {steps} random steps"

        raise WebEnvError(
            f"{path} holds an audit of {said(found)}, not {said(asked)}: give the same "
            "--seed, --seeds, --profiles and --random-steps to go on with it, or another --json."
        )
    kept, dropped = [], []
    for report in earlier.templates:
        template = registered().get(report.template)
        if any(check.name == RUN for check in report.checks):
            dropped.append(f"{report.template}: its audit never ended; auditing it again")
        elif template is None:
            dropped.append(f"{report.template}: no longer registered; left out")
        elif report.code != code_of(template):
            dropped.append(f"{report.template}: its code changed since; auditing it again")
        else:
            kept.append(report)
    return kept, dropped
