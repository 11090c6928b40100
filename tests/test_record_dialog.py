"""A step that opened a JavaScript dialog is recorded with its picture: the page behind the
dialog (as last captured: Chromium captures no page while its dialog is open), the dialog
drawn over it."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from PIL import Image

from webenv.axtree import AxTree
from webenv.record import RecordEpisode, read_episode

#: Page views before the leave confirm has armed itself, at most.
MOST_CLICKS = 6


def test_a_step_that_opened_a_dialog_has_its_screenshot(tmp_path, browser):
    env = RecordEpisode(
        gym.make("webenv/shop.cheapest_by_brand-v0"), tmp_path / "episodes", screenshots=True
    )
    try:
        observation, _ = env.reset(seed=0, options={"perturb": {"popups.leave_confirm": 1.0}})
        for _ in range(MOST_CLICKS):
            home = AxTree(observation["axtree"]).find("link", "Northwind Market")
            observation, *_ = env.step(f'click("{home.id}")')
            if observation["dialog"]:
                break
        assert "Leave this page?" in observation["dialog"], "no dialog opened"
    finally:
        env.close()
    folder = next((tmp_path / "episodes").iterdir())
    steps = read_episode(folder)["step_records"]
    opened, before = steps[-1], steps[-2] if len(steps) > 1 else None
    assert opened["screenshot"], "the step with the dialog has no screenshot"
    with Image.open(folder / opened["screenshot"]) as image:
        assert image.size == (1280, 720)
        pixels = np.asarray(image.convert("RGB"))
    # The page shows behind the dialog: not a blank picture, and the one of the page before.
    assert pixels.std() > 10
    start = read_episode(folder)["start_screenshot"] if before is None else before["screenshot"]
    with Image.open(folder / start) as page:
        behind = np.asarray(page.convert("RGB"))
    bottom = slice(400, 720)  # below the drawn dialog
    assert np.abs(pixels[bottom].astype(int) - behind[bottom].astype(int) * 0.75).max() < 8
