"""Profiles (how often each kind strikes) and plans (what strikes in one episode, and when).

A plan is drawn from the episode seed and the profile alone: the same seed and profile give the
same perturbations at the same page views, so an episode can be replayed exactly.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import WebEnvError
from .base import Kind, Planned
from .links import DeadButton, DeadLink, ServerError, Slow, Stall, WrongRedirect
from .popups import (
    Adversarial,
    ChatWidget,
    CookieBanner,
    Interstitial,
    LeaveConfirm,
    Newsletter,
    SignInOverlay,
)
from .stale import STALE_KINDS
from .walls import SessionExpiry, VerifyCode

#: Every kind, by name.
KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        CookieBanner(),
        Newsletter(),
        Interstitial(),
        ChatWidget(),
        Adversarial(),
        LeaveConfirm(),
        SignInOverlay(),
        SessionExpiry(),
        VerifyCode(),
        DeadLink(),
        ServerError(),
        Slow(),
        Stall(),
        WrongRedirect(),
        DeadButton(),
        *STALE_KINDS,
    )
}

#: Named profiles: the probability that each kind strikes in an episode.
PROFILES: dict[str, dict[str, float]] = {
    "none": {},
    "light": {
        "popups.cookie_banner": 0.5,
        "popups.newsletter": 0.15,
        "popups.chat_widget": 0.15,
        "walls.session_expiry": 0.1,
        "links.server_error": 0.1,
        "links.slow": 0.15,
        "links.dead_link": 0.1,
    },
    "heavy": {
        "popups.cookie_banner": 0.6,
        "popups.newsletter": 0.4,
        "popups.interstitial": 0.3,
        "popups.chat_widget": 0.4,
        "popups.leave_confirm": 0.3,
        "walls.signin_overlay": 0.3,
        "walls.session_expiry": 0.4,
        "walls.verify_code": 0.4,
        "links.dead_link": 0.4,
        "links.server_error": 0.4,
        "links.slow": 0.3,
        "links.timeout": 0.05,
        "links.wrong_redirect": 0.3,
        "links.dead_button": 0.3,
    },
    "stale": {
        "stale.recently_viewed": 0.8,
        "stale.earlier_version": 0.8,
        "stale.policy_note": 0.5,
        "stale.old_draft": 0.8,
    },
    "adversarial": {
        "popups.adversarial": 1.0,
        "popups.cookie_banner": 0.5,
        "popups.newsletter": 0.3,
        "walls.signin_overlay": 0.2,
    },
}


@dataclass(frozen=True)
class Plan:
    """What strikes in one episode: the profile's name and the planned items."""

    profile: str
    items: tuple[Planned, ...]

    @property
    def has_walls(self) -> bool:
        return any(item.kind.startswith("walls.session") for item in self.items)

    def to_dict(self) -> dict[str, Any]:
        """The whole plan, parameters included (codes, salts): for the trusted record only."""
        return {"profile": self.profile, "plan": [item.to_dict() for item in self.items]}

    def public_dict(self) -> dict[str, Any]:
        """What an agent may know of the plan: which kinds strike which sites. Not when (the
        page view, a session's moment) nor how (a one-time code, a cookie's salt)."""
        return {
            "profile": self.profile,
            "plan": [{"kind": item.kind, "site": item.site} for item in self.items],
        }


def resolve_profile(profile: str | Mapping[str, float]) -> tuple[str, dict[str, float]]:
    """A profile's name and rates; a clear error for unknown names, kinds or rates.

    Profiles joined with ``+`` strike together: ``"heavy+stale"`` has every kind of both, each
    at the higher of its two rates.
    """
    if isinstance(profile, str):
        parts = [part.strip() for part in profile.split("+")]
        unknown = [part for part in parts if part not in PROFILES]
        if unknown:
            raise WebEnvError(
                f"Unknown perturbation profile {unknown[0]!r}; choose one of "
                f"{', '.join(PROFILES)}, several joined with + (e.g. heavy+stale), or pass a "
                "dict of rates per kind."
            )
        if len(parts) == 1:
            return profile, PROFILES[profile]
        combined: dict[str, float] = {}
        for part in parts:
            for kind, rate in PROFILES[part].items():
                combined[kind] = max(rate, combined.get(kind, 0.0))
        return "+".join(parts), combined
    rates = dict(profile)
    unknown = sorted(set(rates) - set(KINDS))
    if unknown:
        raise WebEnvError(f"Unknown perturbation kinds {unknown}; kinds are {sorted(KINDS)}.")
    bad = {kind: rate for kind, rate in rates.items() if not 0.0 <= float(rate) <= 1.0}
    if bad:
        raise WebEnvError(f"Perturbation rates must be between 0 and 1: {bad}.")
    return json.dumps(rates, sort_keys=True), {k: float(v) for k, v in rates.items()}


def make_plan(
    seed: int, profile: str | Mapping[str, float], sites: Sequence[str], signed_in: bool
) -> Plan:
    """The plan of the episode of ``seed`` under ``profile`` in a world of ``sites``.

    Each kind strikes with its rate, on one site drawn among those it applies to, from a page
    view drawn in its range. Kinds that apply to none of the sites never strike.
    """
    name, rates = resolve_profile(profile)
    rng = random.Random(f"webenv-perturb:{seed}:{name}")
    items = []
    for kind_name in sorted(rates):
        kind = KINDS[kind_name]
        struck = rng.random() < rates[kind_name]
        candidates = [site for site in sites if kind.applies(site, signed_in, sites)]
        if not struck or not candidates:
            continue
        site = rng.choice(candidates)
        items.append(Planned(kind_name, site, rng.randint(*kind.at), kind.draw(rng, site)))
    return Plan(name, tuple(items))
