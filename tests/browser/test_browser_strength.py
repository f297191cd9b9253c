"""The C and strength page in a real chromium: stored results draw Elo with error bars, the budget x C
heatmap and the SPRT's LLR chart without a console error (Vega-Lite specs AppTest cannot check)."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from playwright.sync_api import expect

from bench.harness.browser import eventually, open_app, wait_idle

import required

required.module("pyspiel")

SETTINGS = dict(c_values=[0.5, 2.0], games=4, opponent="mcts:1.4", seed=1, workers=1)
FIT_SETTINGS = dict(c_values=[0.02, 0.3, 3.0, 30.0], games=16)  # the score peaks inside this grid at 20 simulations


@pytest.fixture(scope="module")
def stored_app_url(app_url):
    """The app, its data folder (the session's, which its server reads) already holding small
    tic-tac-toe grids at 10 and 20 simulations."""
    from mcts_core.strength import ResultStore, arena

    store = ResultStore()  # the data folder's own file, as the server finds it
    arena("tic_tac_toe", simulations=[10, 20], store=store, **SETTINGS)
    arena("tic_tac_toe", simulations=20, store=store, **{**SETTINGS, **FIT_SETTINGS})
    return app_url


def commit(page, key: str, value: str) -> None:
    box = page.locator(f".st-key-{key} input")
    box.fill(value)
    box.press("Enter")
    wait_idle(page)


def open_on_tic_tac_toe(page, url):
    """The page with tic-tac-toe picked (what it watches returned)."""
    watched = open_app(page, url, "/strength")
    page.locator(".st-key-strength_game").click()
    page.get_by_role("option", name="Tic-tac-toe (mostly draws)").click()
    wait_idle(page)
    return watched


def choose_mode(page, mode: str) -> None:
    page.locator(".st-key-strength_mode").get_by_text(mode).click()
    wait_idle(page)


def commit_grid(page, c_values: str, games: str, simulations: str) -> None:
    commit(page, "strength_c_values", c_values)
    commit(page, "strength_games", games)
    commit(page, "strength_simulations", simulations)


def charts(page):
    return page.locator('[data-testid="stVegaLiteChart"] canvas, [data-testid="stVegaLiteChart"] svg.marks')


def axis_labels(page, title: str) -> list[str]:
    """The tick labels of the chart axis with this title, once the chart has drawn them."""
    axis = page.locator(f'[data-testid="stVegaLiteChart"] g.role-axis[aria-label*="titled \'{title}\'"]')
    labels = axis.locator("g.role-axis-label text")
    expect(labels.first).to_be_attached()
    return labels.all_text_contents()


def test_stored_results_draw_the_elo_heatmap_and_llr_charts_cleanly(page, stored_app_url, output_dir):
    watched = open_on_tic_tac_toe(page, stored_app_url)
    commit_grid(page, "0.5, 2", "4", "20")
    expect(page.get_by_text("From the result store")).to_be_visible()
    expect(page.get_by_text("Elo against MCTS at C = 1.4", exact=True)).to_be_visible()
    expect(charts(page)).to_have_count(5)  # Elo with error bars, score, entropy, depth, top share

    choose_mode(page, "Budget × C map")
    commit(page, "strength_budgets", "10, 20")
    expect(page.get_by_text("Elo against MCTS at C = 1.4, budget × C")).to_be_visible()
    expect(page.get_by_text("★ marks each budget's best C", exact=False)).to_be_visible()
    expect(charts(page)).to_have_count(6)  # the heatmap first
    cells = page.locator('[data-testid="stVegaLiteChart"]').first.locator("g.mark-rect.role-mark path")
    expect(cells).to_have_count(4)  # 2 budgets x 2 C values
    heights = [cells.nth(index).bounding_box()["height"] for index in range(4)]
    assert min(heights) >= 30, heights  # each budget's row is a band, not a hairline

    choose_mode(page, "SPRT per C")
    expect(page.get_by_text("SPRT: H0 Elo = 0 against H1 Elo = 50")).to_be_visible()
    expect(charts(page)).to_have_count(6)  # the LLR chart besides the grid's five
    games_played = axis_labels(page, "games played")  # the pairs end at 2 and 4 games: ticks 2, 3, 4, not 2.0, 2.1, ...
    assert games_played and all(label.isdigit() for label in games_played), games_played
    page.screenshot(path=output_dir / "strength_sprt.png", full_page=True)
    watched.assert_clean()


def test_the_fitted_curve_and_the_sprts_elo_model_draw_cleanly(page, stored_app_url, output_dir):
    watched = open_on_tic_tac_toe(page, stored_app_url)
    commit_grid(page, "0.02, 0.3, 3, 30", "16", "20")
    expect(page.get_by_text("From the result store")).to_be_visible()
    heading = page.get_by_role("heading", name="Score against MCTS at C = 1.4, and the best C fitted to it")
    expect(heading).to_be_visible()
    # The verdict in words (found or not yet), then the C values that cannot be told from the best measured one.
    expect(page.get_by_text(re.compile(r"^Fit: (best C |cannot tell the best C yet: )"))).to_be_visible()
    expect(page.get_by_text("Not significantly below the best measured C", exact=False)).to_be_visible()
    expect(charts(page)).to_have_count(5)  # the fitted score chart in the score chart's place
    assert axis_labels(page, "C (log scale)")[:4] == ["0.02", "0.3", "3", "30"]
    heading.scroll_into_view_if_needed()
    page.screenshot(path=output_dir / "strength_fit.png")

    choose_mode(page, "SPRT per C")
    page.locator(".st-key-strength_sprt_model").get_by_text("Normalised").click()
    wait_idle(page)
    expect(page.get_by_text("SPRT: H0 normalised Elo = 0 against H1 normalised Elo = 50")).to_be_visible()
    expect(page.get_by_text("C = 30: ", exact=False)).to_be_visible()  # the verdicts, from the stored games
    watched.assert_clean()


def in_view(page, locator) -> bool:
    """The element lies wholly inside the viewport (what a user sees without scrolling)."""
    box = locator.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] and box["x"] >= 0 and (
        box["x"] + box["width"] <= size["width"])


@pytest.mark.parametrize("mode", ["C grid", "SPRT per C", "Tuner"])
def test_after_a_run_its_results_are_in_view_on_a_1366x768_projector(page, stored_app_url, mode):
    page.set_viewport_size({"width": 1366, "height": 768})
    watched = open_on_tic_tac_toe(page, stored_app_url)
    choose_mode(page, mode)
    tuner = mode == "Tuner"
    commit_grid(page, "0, 0.5, 2, 8" if tuner else "0.5, 2", "16" if tuner else "4", "12")  # not the stored budgets
    commit(page, "strength_workers", "1")
    main = page.locator('[data-testid="stMain"]')  # the page's scrolling area
    main.evaluate("area => area.scrollTo(0, area.scrollHeight)")  # scrolled down to every setting and Run
    page.locator(".st-key-strength_run button").click()
    if mode == "Tuner":
        shown = [page.get_by_text("Best C = ", exact=False), page.locator('[data-testid="stDataFrame"]')]
    else:
        title = "SPRT: H0 Elo = 0 against H1 Elo = 50" if mode == "SPRT per C" else "Elo against MCTS at C = 1.4"
        first_chart = page.locator('[data-testid="stVegaLiteChart"] svg.marks').first
        shown = [page.get_by_role("heading", name=title), first_chart]
        if mode == "SPRT per C":
            # The verdicts. While the page reruns on its timer, the last run's copy can stand beside
            # the new one for a moment (seen once at load 13).
            shown.append(page.get_by_text("C = 0.5: ", exact=False).first)
    for element in shown:  # the run is over and its results are drawn
        expect(element).to_be_visible(timeout=120_000)
    expect(page.locator('[data-testid="stProgress"]')).to_have_count(0)
    wait_idle(page)
    # The charts draw after the run that made them and the page settles around them: once it has,
    # every result is in view (measured at one instant, a chart was once still below the fold).
    eventually(lambda: [in_view(page, element) for element in shown], [True] * len(shown), page=page)
    if mode != "Tuner":  # the rows, made on click: one per C tried, while the page polls on its timer
        with page.expect_download() as download:
            page.locator(".st-key-strength_csv button").click()
        rows = pd.read_csv(download.value.path())
        assert sorted(rows["c"]) == [0.5, 2.0] and set(rows["simulations"]) == {12}
    watched.assert_clean()


def test_a_tiny_grid_then_a_tiny_spsa_show_the_verdict_and_c_over_the_iterations_at_1366x768(page, app_url,
                                                                                             output_dir):
    from bench.harness.browser import cut_off

    page.set_viewport_size({"width": 1366, "height": 768})
    watched = open_on_tic_tac_toe(page, app_url)
    commit_grid(page, "0.02, 0.3, 3, 30", "8", "11")  # a budget no other test stores: this run plays it
    commit(page, "strength_workers", "1")
    page.locator(".st-key-strength_run button").click()
    expect(page.get_by_text(re.compile(r"^Fit: (best C |cannot tell the best C yet: )"))).to_be_visible(timeout=120_000)
    watched.assert_clean()

    # Run folded the settings; one click on their title opens them again, and they stay open (the
    # browser folded them again when the panel's default changed a run after Run's fold).
    expect(page.locator(".st-key-strength_mode")).to_be_hidden()
    page.locator('[data-testid="stExpander"] summary').filter(has_text="Settings").click()
    wait_idle(page)  # the run the click started has drawn the page
    expect(page.locator(".st-key-strength_mode")).to_be_visible()
    expect(page.locator('[data-testid="stExpander"] details').first).to_have_attribute("open", "")
    choose_mode(page, "SPSA")
    commit_grid(page, "0.02, 0.3, 3, 30", "12", "11")  # 12 iterations
    commit(page, "strength_workers", "1")
    page.locator(".st-key-strength_run button").click()
    expect(page.get_by_text(re.compile(r"^SPSA: C = \S+ after 12 iterations \(24 games\), from C = 1\."))).to_be_visible(
        timeout=120_000)
    expect(page.get_by_text("The grid's stored games (4 C values): ", exact=False)).to_be_visible()
    chart = page.locator('[data-testid="stVegaLiteChart"]')
    expect(chart).to_have_count(1)
    expect(chart.locator("g.mark-line.role-mark path")).to_have_count(1)  # C after each iteration
    expect(chart.locator("g.mark-symbol.role-mark path")).to_have_count(24)  # C+ and C- of each iteration
    expect(page.locator('[data-testid="stProgress"]')).to_have_count(0)
    wait_idle(page)
    assert cut_off(page) == []
    page.screenshot(path=output_dir / "strength_spsa_1366.png")
    watched.assert_clean()
