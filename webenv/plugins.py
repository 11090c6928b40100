"""Sites and task suites of other distributions, found through entry points.

Two groups, read once each, the first time webenv needs them:

- ``webenv.sites``: each entry point's object is a :class:`webenv.site.Site`, or a callable
  returning one or several (``[project.entry-points."webenv.sites"] notes =
  "my_pkg:SITE"``). They join the registry after the built-in sites.
- ``webenv.tasks``: each entry point names a module (``suite = "my_pkg.tasks"``), imported
  so that its templates register themselves with :func:`webenv.tasks.register`, as the
  built-in ``tasks/`` modules do.

A plugin that cannot be loaded raises :class:`~webenv.errors.PluginError`, naming the entry
point and its distribution.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from .errors import PluginError
from .site import Site

SITES_GROUP = "webenv.sites"
TASKS_GROUP = "webenv.tasks"


def found(group: str) -> list[EntryPoint]:
    """The entry points of ``group``, in a fixed order (by name, then value)."""
    unique = {(ep.name, ep.value): ep for ep in entry_points(group=group)}
    return [unique[key] for key in sorted(unique)]


def distribution(ep: EntryPoint) -> str:
    """The name of the distribution that declares ``ep`` (``?`` when unknown)."""
    dist = getattr(ep, "dist", None)
    return str(dist.name) if dist is not None else "?"


def _failed(ep: EntryPoint, group: str, what: str) -> PluginError:
    dist = distribution(ep)
    return PluginError(
        f"The {group} plugin {ep.name!r} ({ep.value}) of the distribution {dist!r} {what}. "
        f"Fix that distribution, or remove it with `pip uninstall {dist}`."
    )


def _load(ep: EntryPoint, group: str) -> Any:
    try:
        return ep.load()
    except Exception as error:
        raise _failed(ep, group, f"failed to import: {type(error).__name__}: {error}") from error


def plugin_sites() -> list[Site]:
    """The sites every ``webenv.sites`` entry point declares."""
    declared: list[Site] = []
    for ep in found(SITES_GROUP):
        value = _load(ep, SITES_GROUP)
        if callable(value) and not isinstance(value, Site):
            try:
                value = value()
            except Exception as error:
                what = f"raised {type(error).__name__}: {error}"
                raise _failed(ep, SITES_GROUP, what) from error
        items = [value] if isinstance(value, Site) else value
        items = list(items) if isinstance(items, Iterable) and not isinstance(items, str) else []
        if not items or not all(isinstance(site, Site) for site in items):
            what = f"gave {value!r}, not a webenv.site.Site, nor a callable returning Sites"
            raise _failed(ep, SITES_GROUP, what)
        declared += items
    return declared


def load_task_plugins() -> list[str]:
    """Import every ``webenv.tasks`` entry point's module (its templates register themselves);
    returns the entry points' names."""
    names = []
    for ep in found(TASKS_GROUP):
        _load(ep, TASKS_GROUP)
        names.append(ep.name)
    return names
