"""Plans: drawn from the seed and the profile alone, each kind at its configured rate."""

from __future__ import annotations

import json
import math

import pytest

from webenv.errors import WebEnvError
from webenv.perturb import KINDS, PROFILES, make_plan, resolve_profile

SITES = ("shop", "mail", "forms")


def test_same_seed_and_profile_same_plan():
    for profile in PROFILES:
        for seed in range(20):
            assert make_plan(seed, profile, SITES, True) == make_plan(seed, profile, SITES, True)


def test_plans_differ_across_seeds_and_profiles():
    plans = {json.dumps(make_plan(seed, "heavy", SITES, True).to_dict()) for seed in range(20)}
    assert len(plans) > 15
    assert make_plan(3, "light", SITES, True).items != make_plan(3, "heavy", SITES, True).items


def test_no_profile_no_perturbation():
    assert all(not make_plan(seed, "none", SITES, True).items for seed in range(50))


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_strikes_at_its_configured_rate(kind):
    rate, episodes = 0.3, 2000
    struck = sum(
        any(item.kind == kind for item in make_plan(seed, {kind: rate}, SITES, True).items)
        for seed in range(episodes)
    )
    spread = 4 * math.sqrt(rate * (1 - rate) / episodes)  # four standard deviations
    assert abs(struck / episodes - rate) < spread, struck


def test_kinds_strike_only_where_they_apply():
    # Walls need someone signed in: a task that starts signed out never meets them.
    plans = [make_plan(seed, {"walls.session_expiry": 1.0}, SITES, False) for seed in range(50)]
    assert all(not plan.items for plan in plans)
    plans = [make_plan(seed, {"walls.session_expiry": 1.0}, ("shop",), True) for seed in range(50)]
    assert all(item.site == "shop" for plan in plans for item in plan.items)


@pytest.mark.parametrize(
    "profile, message",
    [
        ("stormy", "Unknown perturbation profile 'stormy'"),
        ("heavy+stormy", "Unknown perturbation profile 'stormy'.*joined with \\+"),
        ({"popups.meteor": 0.5}, "Unknown perturbation kinds"),
        ({"popups.cookie_banner": 1.5}, "between 0 and 1"),
    ],
)
def test_bad_profiles_are_refused_clearly(profile, message):
    with pytest.raises(WebEnvError, match=message):
        resolve_profile(profile)


def test_profiles_joined_with_a_plus_strike_together_at_the_higher_rate():
    name, rates = resolve_profile("heavy+stale")
    assert name == "heavy+stale"
    assert set(rates) == set(PROFILES["heavy"]) | set(PROFILES["stale"])
    assert rates["stale.old_draft"] == PROFILES["stale"]["stale.old_draft"]
    _, light_heavy = resolve_profile("light+heavy")
    for kind in PROFILES["light"]:
        higher = max(PROFILES["light"][kind], PROFILES["heavy"].get(kind, 0.0))
        assert light_heavy[kind] == higher
    kinds = {
        item.kind
        for seed in range(40)
        for item in make_plan(seed, "heavy+stale", SITES, True).items
    }
    assert any(kind.startswith("stale.") for kind in kinds)
    assert any(kind.startswith("popups.") for kind in kinds)
