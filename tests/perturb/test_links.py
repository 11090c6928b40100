"""Broken links are recognised when they are followed, whatever the link's fragment."""

from __future__ import annotations

import pytest

from webenv.perturb.links import _key


@pytest.mark.parametrize(
    ("link", "request_path"),
    [
        # A thread link to one message of it: the browser keeps "#message-90" to itself.
        (
            "/moved/thread/65?back=/search?q%3Dfrom%253Aann%2540example.com#message-90",
            "/moved/thread/65?back=/search?q%3Dfrom%253Aann%2540example.com",
        ),
        ("/moved/orders#latest", "/moved/orders"),
        ("/moved/compose?to=Ann%20Lee", "/moved/compose?to=Ann Lee"),
    ],
)
def test_a_broken_link_and_its_request_have_one_key(link, request_path):
    assert _key(link) == _key(request_path)


def test_links_to_two_pages_keep_two_keys():
    assert _key("/moved/thread/65#message-90") != _key("/moved/thread/66#message-90")
