"""AppTest: inputs and settings at the edges never become tracebacks, on any page."""

import pytest

from apptest_support import open_limits, plain
from ui.common.navigation import PAGES

EXTREME = "a 1e308\nb -1e308\naa 1e308\n"


@pytest.mark.parametrize("page", [page.script for page in PAGES])
def test_scores_near_the_float_limit_work_on_every_page(app, page):
    app.text_area(key="playouts").input(EXTREME).run()
    app.switch_page(page).run()
    assert not app.exception, page


@pytest.mark.parametrize("page", [page.script for page in PAGES if page.url_path in ("", "sweep", "compare", "classroom")])
def test_an_exact_c_of_1e308_works_on_every_page_with_c(app, page):
    app.switch_page(page).run()
    app.text_input(key="c_exact").input("1e308").run()
    assert not app.exception, page
    assert app.session_state["c"] == 1e308
    app.text_area(key="playouts").input(EXTREME).run()
    assert not app.exception, page


def test_page_settings_survive_a_visit_to_another_page(app):
    from mcts_core.inputs.examples import C_FLIPS_CHOICE

    open_limits(app.text_area(key="playouts").input(C_FLIPS_CHOICE).run())
    app.number_input(key="budget").set_value(1000).run()
    app.text_input(key="inspect").input("ab").run()
    app.switch_page("pages/compare.py").run()
    app.number_input(key="cmp_c").set_value(7.0).run()
    app.switch_page("pages/playback.py").run()
    app.slider(key="playback_k").set_value(2).run()
    app.switch_page("pages/sweep.py").run()
    app.number_input(key="sweep_to").set_value(3.0).run()
    open_limits(app.switch_page("pages/explorer.py"))
    assert app.number_input(key="budget").value == 1000 and app.text_input(key="inspect").value == "ab"
    app.switch_page("pages/compare.py").run()
    assert app.number_input(key="cmp_c").value == 7.0
    app.switch_page("pages/playback.py").run()
    assert app.slider(key="playback_k").value == 2
    app.switch_page("pages/sweep.py").run()
    assert app.number_input(key="sweep_to").value == 3.0 and not app.error
    assert not app.exception


def test_an_upload_that_is_not_utf8_is_refused_in_words_and_the_text_box_is_kept(app):
    typed = app.text_area(key="playouts").value
    app.file_uploader(key="upload").set_value(("latin.txt", b"\x80ab 1\n", "text/plain")).run()
    assert not app.exception
    assert [plain(error.value) for error in app.error] == [
        "Line 1 in the uploaded file latin.txt: the input is not UTF-8 text (byte 0x80 at column 1)"]
    assert app.text_area(key="playouts").value == typed
    # What to do next fits the file: fixing the line in the text box would not change the upload.
    assert [plain(caption.value) for caption in app.main.caption][-1] == (
        "Fix the file and upload it again, or use the text box; the page comes back.")
