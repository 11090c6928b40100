"""Going on with an audit that an earlier run began (``webenv validate --json FILE --resume``).

An audit of 30 seeds takes hours, and a machine may be stopped or a worker killed before it
ends; the results file is written as each template's audit ends, and ``--resume`` audits only
what it lacks. An audit holds only for the code that ran it, so each template's report carries
that code's fingerprint (:func:`code_of`), and a report whose code has changed since is audited
again: webenv's own sources, its sites' and its task suite's (the env, perturbations, grading,
pages and templates, any of which can turn a verdict), the template's module, the sources of
the plugin sites it uses, and the versions of the libraries that shape its worlds and drive
its browser.
"""

from __future__ import annotations

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
from ..site import BUILTIN_SITES
from ..site import sites as registered_sites
from ..tasks import TaskTemplate, registered
from .report import RUN, TemplateReport, ValidationReport

#: Files whose content is code or data of a site or a check.
_SOURCES = {".py", ".sql", ".html", ".js", ".css", ".json", ".txt"}
#: The packages whose sources decide every built-in verdict: webenv itself, its sites and its
#: task suite (installed as ``webenv.sites`` and ``webenv.suite``, wherever their folders lie).
_PACKAGES = ("webenv", "webenv.sites", "webenv.suite")


def _roots() -> list[Path]:
    roots = []
    for name in _PACKAGES:
        module = importlib.import_module(name)
        roots += [Path(path).resolve() for path in getattr(module, "__path__", ())]
    return roots


def _hash_tree(digest: hashlib._Hash, root: Path) -> None:
    paths = sorted(root.rglob("*")) if root.is_dir() else [root]
    for path in paths:
        if path.suffix in _SOURCES and "__pycache__" not in path.parts and path.is_file():
            digest.update(path.relative_to(root.parent).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())


@cache
def _package_code() -> bytes:
    """webenv's own sources and the versions of the libraries its verdicts depend on."""
    digest = hashlib.sha256()
    for name in ("faker", "playwright", "gymnasium", "flask"):
        try:
            digest.update(f"{name} {metadata.version(name)}\0".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{name} -\0".encode())
    for root in _roots():
        _hash_tree(digest, root)
    return digest.digest()


def code_of(template: TaskTemplate) -> str:
    """The fingerprint of the code an audit of ``template`` runs (see the module docstring)."""
    digest = hashlib.sha256(_package_code())
    module = sys.modules.get(type(template).__module__)
    where = getattr(module, "__file__", None)
    if where and not set(_roots()) & set(Path(where).resolve().parents):
        _hash_tree(digest, Path(where).resolve())
    for name in template.sites:
        site = registered_sites().get(name)
        if site is not None and site not in BUILTIN_SITES:
            _hash_tree(digest, site.source_root())
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
