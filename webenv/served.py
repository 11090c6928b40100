"""A world served on loopback: its :class:`~webenv.world.World`, one
:class:`~webenv.server.SiteServer` and an app per site, built in one place for the env,
``webenv serve`` and the tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask

from .server import SiteServer, WSGIApp
from .world import SnapshotStore, World


class ServedWorld:
    """The sites of a world, each an app on one loopback server
    (``http://<site>.localhost:<port>``).

    Args:
        sites: the world's sites (default: every registered site).
        seed: restore the world of this seed before the apps are made (default: none yet;
            :meth:`World.restore` starts each episode).
        port: the server's port on 127.0.0.1 (0: any free one).
        store: where world snapshots are cached (default: the process's).
    """

    def __init__(
        self,
        sites: Iterable[str] | None = None,
        *,
        seed: int | None = None,
        port: int = 0,
        store: SnapshotStore | None = None,
    ):
        self.world = World(sites, store)
        try:
            self.server = SiteServer({}, port=port)
        except BaseException:
            self.world.close()
            raise
        try:
            if seed is not None:
                self.world.restore(seed)
            self.apps: dict[str, Flask] = self.world.create_apps(self.urls())
            self.server.apps.update(self.apps)
        except BaseException:
            self.close()
            raise

    @property
    def sites(self) -> tuple[str, ...]:
        return self.world.sites

    def url(self, site: str) -> str:
        """Base URL of ``site``, without a trailing slash."""
        return self.server.url(site)

    def urls(self) -> dict[str, str]:
        """``{site: base URL}`` of every site of the world."""
        return {site: self.server.url(site) for site in self.world.sites}

    def mount(self, wrap: Callable[[str, Flask], WSGIApp]) -> None:
        """Serve ``wrap(site, app)`` in front of each site's app (the perturbations)."""
        self.server.apps.update({site: wrap(site, app) for site, app in self.apps.items()})

    def sign_in_cookies(self, user_id: int = 1) -> list[dict[str, Any]]:
        """Browser cookies that sign ``user_id`` in on every site (see :func:`sign_in_cookies`)."""
        return sign_in_cookies(self.world, self.server, user_id)

    def close(self) -> None:
        """Stop serving (waiting for requests in flight), then remove the world's files."""
        self.server.close()
        self.world.close()


def sign_in_cookies(world: World, server: SiteServer, user_id: int = 1) -> list[dict[str, Any]]:
    """For Playwright's ``add_cookies``: a session cookie of each of ``world``'s sites, served
    by ``server``, that signs ``user_id`` (the persona: 1) in."""
    return [
        {
            "name": world.apps[site].config.get("SESSION_COOKIE_NAME", "session"),
            "value": world.session_cookie(site, user_id),
            "url": server.url(site),
        }
        for site in world.sites
    ]
