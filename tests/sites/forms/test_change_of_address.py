"""Change of address: the current address prefilled, the household step, the account updated."""

from __future__ import annotations

SLUG = "change-of-address"
NEW = {
    "new_street": "88 Orchard Lane",
    "new_street2": "Apt 4B",
    "new_city": "Springfield",
    "new_state": "IL",
    "new_zip": "62704",
    "move_date": "2026-06-01",
}
CONFIRM = {"confirm_correct": "yes", "forward_mail": "yes"}


def current_address(persona) -> dict:
    address = persona.address
    return {
        "old_street": address.street,
        "old_city": address.city,
        "old_state": address.state,
        "old_zip": address.zip,
    }


def test_the_current_address_is_prefilled_from_the_account(signed_in, persona):
    page = signed_in.get(f"/f/{SLUG}/current-address").text
    assert f'value="{persona.address.street}"' in page
    assert f'value="{persona.address.state}" selected' in page


def test_moving_with_the_household_lists_its_members_and_updates_the_account(
    signed_in_walker, persona, query, helpers
):
    walker = signed_in_walker
    walker.fill(
        SLUG,
        [
            ("current-address", current_address(persona)),
            ("new-address", NEW),
            ("who-is-moving", {"who_moves": "household"}),
            (
                "household",
                {
                    "members-rows": "1",
                    "members-0-full_name": "Sam Doe",
                    "members-0-relationship": "child",
                    "members-0-date_of_birth": "2014-07-02",
                },
            ),
            ("confirm", CONFIRM),
        ],
    )
    values = helpers.submission(query, walker.submit(SLUG))["data"]
    assert values["members"] == [
        {"full_name": "Sam Doe", "relationship": "child", "date_of_birth": "2014-07-02"}
    ]
    assert values["who_moves"] == "household" and values["move_date"] == "2026-06-01"
    assert values["confirm_correct"] is True and values["update_policies"] is False
    assert values["old_street"] == persona.address.street
    user = query("SELECT street, street2, city, state, zip FROM users WHERE id = 1")[0]
    assert tuple(user) == ("88 Orchard Lane", "Apt 4B", "Springfield", "IL", "62704")


def test_moving_alone_skips_the_household_step(signed_in_walker, persona, query, helpers):
    walker = signed_in_walker
    walker.fill(
        SLUG,
        [
            ("current-address", current_address(persona)),
            ("new-address", NEW),
            ("who-is-moving", {"who_moves": "just-me"}),
            ("confirm", CONFIRM),
        ],
    )
    values = helpers.submission(query, walker.submit(SLUG))["data"]
    assert "members" not in values


def test_the_new_address_must_differ_and_have_a_valid_zip(signed_in_walker, persona, helpers):
    walker = signed_in_walker
    walker.post_step(SLUG, "current-address", current_address(persona))
    same = {f"new_{k[4:]}": v for k, v in current_address(persona).items()}
    response = walker.post_step(SLUG, "new-address", {**NEW, **same})
    assert helpers.errors_of(response) == [
        "New address must be different from your current address"
    ]
    response = walker.post_step(
        SLUG, "new-address", {**NEW, "new_zip": "ABCDE", "move_date": "2027-01-01"}
    )
    assert helpers.errors_of(response) == [
        "Enter a ZIP code with 5 digits, like 30301",
        "Date you move must be within the next 90 days",
    ]
