"""An accessibility audit (axe-core) of a page in the real browser, for the sites' and the
viewer's tests, and the one way those tests submit a form before they audit its answer."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page

#: The impacts an audit fails on.
BLOCKING = frozenset({"critical", "serious"})

_AXE = Axe()


def serious_violations(page: Page) -> list[str]:
    """The page's critical and serious violations, one line each (empty when it passes)."""
    page.wait_for_load_state("load")
    return [
        f"{page.url}: {violation['id']} ({violation['impact']}) "
        f"{[node['target'] for node in violation['nodes']][:3]}"
        for violation in _AXE.run(page).response["violations"]
        if violation["impact"] in BLOCKING
    ]


def submit(button: Locator) -> None:
    """Click a button that posts its form, and return once the server's answer has loaded.

    A click returns as soon as it is dispatched: an audit run then would read the document
    being replaced (axe fails on a null ``documentElement``) or audit the form before it was
    sent.
    """
    page: Page = button.page
    with page.expect_navigation(wait_until="load", timeout=15_000):
        button.click()
