"""A colleague's chore across three sites: accept their meeting invitation on the calendar, order
on the shop what they asked to have for the meeting, and reply to their e-mail with the order's
number. The three sub-goals are checked together: each one done, and nothing else."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from webenv.tasks import (
    Answer,
    CheckResult,
    Checks,
    NearMiss,
    Oracle,
    Task,
    TaskTemplate,
    allow,
    register,
)
from webenv.world import World

from ..calendar._calendar import (
    ANSWERING,
    answer_invitation,
    day_name,
    expect_answered,
    home_zone,
    invitations,
    open_calendar,
    to_local,
)
from ..mail._mail import SENDING
from ..shop._shop import (
    PURCHASE,
    add_to_cart,
    checkout,
    expect_default_address,
    expect_placed,
    expect_saved_card,
    line,
    new_orders,
    open_cart,
    open_product,
    pick_item,
    show,
)
from ._flows import (
    ORDER_NUMBER,
    deliver_mail,
    expect_one_email,
    first_name,
    go,
    open_mail,
    order_numbers_named,
    persona_orders,
    read,
    reply_text,
    respond,
    search_mail,
    solving,
)

SUBJECT = "Something for our meeting"
REQUEST = (
    r"Item: (?P<name>.+?) (?:Size: (?P<size>.+?) )?(?:Color: (?P<color>.+?) )?"
    r"Quantity: (?P<quantity>\d+)"
)
_MEETING = re.compile(r"invitation to (?P<title>.+?) on \w+day, ")


@register
class MeetingSupplies(TaskTemplate):
    name = "workflows.meeting_supplies"
    sites = ("mail", "calendar", "shop")
    may_change = allow(mail=SENDING, calendar=ANSWERING, shop=PURCHASE)
    tags = ("cross-site", "email", "calendar", "invitation", "purchase", "reply", "chore")
    difficulty = "hard"
    max_steps = 45

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        """Delivers the organizer's e-mail asking for an item for the meeting."""
        pending = invitations(world)
        senders = [item["organizer"] for item in pending]
        alone = [i for i in pending if senders.count(i["organizer"]) == 1]
        chosen = rng.choice([i for i in alone if not i["clashes"]] or alone)
        day = to_local(chosen["starts_at"], home_zone(world))
        item = pick_item(world, rng)
        quantity = rng.randint(1, 3)
        organizer = {"name": chosen["organizer"], "email": chosen["organizer_email"]}
        details = [f"{kind.capitalize()}: {item[kind]}" for kind in ("size", "color") if item[kind]]
        assert world.persona is not None
        body = "\n".join(
            [
                f"Hi {world.persona.first_name},",
                "",
                f"I just sent you an invitation to {chosen['title']} on {day_name(day)}, please "
                "accept it if you can make it. Could you also order this from Northwind Market "
                "for the meeting? The team budget will cover it.",
                "",
                f"Item: {item['name']}",
                *details,
                f"Quantity: {quantity}",
                "",
                "Send me the order number when it's placed. Thanks!",
                first_name(organizer),
            ]
        )
        request = deliver_mail(world, organizer, SUBJECT, body, minutes_ago=rng.randint(20, 240))
        # The calendar's own invitation e-mail comes from them too: a reply to it, about the
        # same meeting, answers them as well.
        invited = world.query(
            "mail",
            "SELECT id FROM messages WHERE sender = ? AND subject LIKE ? ORDER BY id",
            (organizer["email"], f"Invitation: {chosen['title']} @%"),
        )
        return {
            "request_id": [request, *(row["id"] for row in invited)],
            "organizer": organizer,
            "title": chosen["title"],
            "event_id": chosen["id"],
            "invitee_id": chosen["invitee_id"],
            "item": item,
            "quantity": quantity,
            "previous_order": persona_orders(world)[-1]["number"],
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "mail", "/"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name = params["organizer"]["name"]
        return [
            f"{name} e-mailed me about a meeting they invited me to. Accept the invitation on my "
            "calendar, order what they asked for on Northwind Market (default address, saved "
            "card), and reply to their e-mail with the order number.",
            f"Take care of {name}'s e-mail: say yes to their meeting invitation, buy the item "
            "they need from Northwind Market with my default address and saved card, then write "
            "back with the new order's number.",
            f"{name} needs three things from me (see their e-mail): accept the meeting invite, "
            "place the order they described on Northwind Market (ship to my default address, pay "
            "with my saved card) and reply with the order number.",
            f"Please handle what {name} asked by e-mail: I'm going to their meeting, so accept "
            "it in Northwind Calendar; order the item for it on the shop (default address, "
            "saved card); and answer their e-mail with the order number.",
            f"Do {name}'s request: accept their calendar invitation, order exactly what their "
            "e-mail lists from Northwind Market to my default address with my saved card, and "
            "reply to them with the order number.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        expect_answered(checks, world, {params["invitee_id"]: (params["event_id"], "accepted")})
        orders = new_orders(world)
        checks.expect("one new order", len(orders) == 1, f"{len(orders)} new orders")
        number = orders[0]["number"] if len(orders) == 1 else "no order"
        if len(orders) == 1:
            wanted = [line(params["item"], params["quantity"])]
            lines = orders[0]["lines"]
            checks.expect("ordered what was asked", lines == wanted, f"ordered {show(lines)}")
            expect_default_address(checks, world, orders[0])
            expect_placed(checks, orders[0])
            expect_saved_card(checks, world, orders[0])
        message = expect_one_email(
            checks, world, params["organizer"]["email"], [number], reply_to=params["request_id"]
        )
        if message is not None:
            written = reply_text(world, message)
            named = order_numbers_named(written)
            checks.expect("only that order number", named == {number}, f"named {sorted(named)}")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["organizer"]["name"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "answered maybe": solving(self._solve, button=lambda p: "Maybe"),
            "did not accept the invitation": solving(self._solve, button=lambda p: ""),
            "one too many": solving(self._solve, extra=lambda p: 1),
            "an older order's number": solving(self._solve, number=lambda p: p["previous_order"]),
            "a new message instead of a reply": solving(self._solve, anew=lambda p: True),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        return self._solve(task.params, observation)

    def _solve(
        self,
        params: Mapping[str, Any],
        observation: Mapping[str, Any],
        button: str = "Yes",
        extra: int = 0,
        number: str | None = None,
        anew: bool = False,
    ) -> Oracle:
        query = f"from:{params['organizer']['email']} subject:{SUBJECT!r}".replace("'", '"')
        observation = yield from search_mail(query, SUBJECT, observation)
        asked = read(REQUEST, observation).groupdict()
        title = read(_MEETING.pattern, observation)["title"]
        if button:
            observation = yield from open_calendar(observation)
            observation = yield from answer_invitation(title, button, observation)
        item = {"name": asked["name"], "size": asked["size"], "color": asked["color"]}
        observation = yield from go("shop", "/", observation)
        observation = yield from open_product(item["name"], observation)
        observation = yield from add_to_cart(item, int(asked["quantity"]) + extra, observation)
        observation = yield from open_cart(observation)
        observation = yield from checkout(observation)
        number = number or read(ORDER_NUMBER.pattern, observation).group(0)
        observation = yield from open_mail(query, SUBJECT, observation)
        body = f"Hi {params['organizer']['name'].split()[0]}, it's ordered: {number}."
        if anew:
            to = params["organizer"]["email"]
            yield from respond("Compose", body, observation, to=to, subject=SUBJECT)
        else:
            yield from respond("Reply", body, observation)
