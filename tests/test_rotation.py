"""The run seed's slices of the templates (tests/rotation.py): a class of check that runs on a
rotating share of the templates covers every template over consecutive run seeds."""

from __future__ import annotations

import pytest

from tests import rotation

NAMES = [f"site.template_{index}" for index in range(23)]


@pytest.mark.parametrize("parts", [2, 3, 12])
def test_consecutive_run_seeds_share_out_every_name_once(monkeypatch, parts):
    slices = []
    for run_seed in range(5000, 5000 + parts):
        monkeypatch.setenv(rotation.VARIABLE, str(run_seed))
        slices.append(rotation.share(NAMES, "a class", parts))
    assert sorted(name for part in slices for name in part) == sorted(NAMES)
    assert max(map(len, slices)) - min(map(len, slices)) <= 1


def test_the_next_run_seed_takes_the_next_slice(monkeypatch):
    monkeypatch.setenv(rotation.VARIABLE, "41")
    first = rotation.share(NAMES, "a class", 3)
    monkeypatch.setenv(rotation.VARIABLE, "42")
    second = rotation.share(NAMES, "a class", 3)
    assert first and second and not first & second


def test_another_class_takes_another_slice(monkeypatch):
    monkeypatch.setenv(rotation.VARIABLE, "41")
    assert rotation.share(NAMES, "a class", 3) != rotation.share(NAMES, "another class", 3)
