"""Playback in a real chromium: Play keeps the chosen speed on a 5,000-playout log, Pause leaves k where it shows."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from .browser_support import LOAD_TIMEOUT, metric_value, open_app, playout_file, wait_idle

pytestmark = pytest.mark.browser


def shown_k(page) -> int:
    """k from the Playout metric ("1,234 / 5,000")."""
    return int(metric_value(page, "Playout").inner_text().split("/")[0].replace(",", "").strip())


def slider_k(page) -> int:
    return int(page.locator('.st-key-playback_k [data-testid="stSliderThumbValue"]').inner_text().replace(",", ""))


def test_play_steps_at_the_chosen_speed_and_pause_keeps_slider_and_metric_together(page, app_url, tmp_path):
    log = playout_file(tmp_path / "playouts_5k.txt", 5_000, seed=3)
    watched = open_app(page, app_url)
    page.locator('.st-key-upload input[type="file"]').set_input_files(log)
    expect(metric_value(page, "Playouts")).to_have_text("5,000", timeout=LOAD_TIMEOUT)
    page.locator('[data-testid="stSidebarNav"] a', has_text="Playback").click()
    expect(metric_value(page, "Playout")).to_have_text(re.compile(r"/ 5,000$"), timeout=LOAD_TIMEOUT)
    wait_idle(page)
    stride = int(page.locator(".st-key-playback_stride input").input_value())  # 5 for 5,000 playouts
    start = shown_k(page)

    page.locator(".st-key-playback_play button").click()  # the speed is its default, 1 s per step
    began = time.monotonic()
    expect(metric_value(page, "Playout")).not_to_have_text(re.compile(rf"^{start:,} /"), timeout=5_000)
    page.wait_for_timeout(4_500)
    page.locator(".st-key-playback_play button").click()  # Pause
    elapsed = time.monotonic() - began
    wait_idle(page)
    page.wait_for_timeout(1_500)  # a tick that was on its way has landed: nothing moves any more

    steps = (shown_k(page) - start) / stride
    # At 1 s per step: about one step per second played (it was one per 5.3 s on this log).
    assert elapsed - 3 <= steps <= elapsed + 1.5, (steps, elapsed)
    assert shown_k(page) == slider_k(page)
    page.wait_for_timeout(1_200)
    assert shown_k(page) == slider_k(page)  # paused: still there
    watched.assert_clean()
