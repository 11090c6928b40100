"""Forms templates: what the shared template tests do not cover, checked without a browser.

Infeasible tasks must be provably infeasible in every world, and the files a task places for
upload must be the same for the same seed.
"""

from __future__ import annotations

import pytest

from webenv.tasks import get_template
from webenv.world import World

SEEDS = range(12)


@pytest.fixture(scope="module")
def world():
    world = World(("forms",))
    yield world
    world.close()


@pytest.mark.parametrize("seed", SEEDS)
def test_the_day_to_book_has_free_times_only_when_it_can_be_booked(world, seed):
    world.restore(seed)
    params = get_template("forms.book_on_day").instantiate(seed, world).params
    free = world.query(
        "forms",
        "SELECT COUNT(*) AS n FROM slots s JOIN offices o ON o.id = s.office_id "
        "WHERE o.code = ? AND s.starts_at LIKE ? AND s.taken = 0",
        (params["office"], f"{params['day']}T%"),
    )[0]["n"]
    assert (free > 0) is params["feasible"]
    assert params["instead"] != params["day"]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_job_to_apply_for_is_open_only_when_it_can_be_applied_to(world, seed):
    world.restore(seed)
    params = get_template("forms.apply_to_opening").instantiate(seed, world).params
    closes = world.query(
        "forms", "SELECT closes_on FROM job_openings WHERE reference = ?", (params["reference"],)
    )[0]["closes_on"]
    assert (closes >= world.now.date().isoformat()) is params["feasible"]
    assert params["instead"] != params["reference"]


@pytest.mark.parametrize(
    "name", ["forms.apply_for_job", "forms.file_expense_report", "forms.vehicle_claim"]
)
def test_uploaded_files_are_placed_the_same_for_a_seed(world, name):
    template = get_template(name)
    placed = []
    for _ in range(2):
        world.restore(3)
        template.instantiate(3, world)
        placed.append({p.name: p.read_bytes() for p in world.files_dir.iterdir()})
    assert placed[0] and placed[0] == placed[1]
