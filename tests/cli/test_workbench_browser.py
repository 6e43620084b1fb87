"""The workbench in a real browser: headless Chromium (the system's) driven by Playwright,
against a real ``xwsat serve``. Skipped only when Chromium or Playwright is missing."""

from __future__ import annotations

import shutil

import pytest

from xwsat.workbench.launch import running_server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs the system's chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
WAIT_MS = 30_000


@pytest.fixture(scope="module")
def server():
    with running_server("--search-limit", "3") as (address, _):
        yield address


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1400, "height": 1000},
                                  accept_downloads=True)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.goto(server)
    opened.wait_for_function("window.xwsat && window.xwsat.view")
    yield opened
    context.close()
    assert not errors, errors


def new_grid(page, width: int, height: int) -> None:
    page.fill("#new-width", str(width))
    page.fill("#new-height", str(height))
    page.click("#new")
    page.wait_for_function(f"window.xwsat.view.doc.rows.length === {height} && "
                           f"window.xwsat.view.doc.rows[0].length === {width}")


def click_cell(page, cell: int) -> None:
    page.click(f"#grid [data-cell='{cell}']")


def rows(page) -> list[str]:
    return page.evaluate("window.xwsat.view.doc.rows")


def first_candidate(page):
    """The first word of the selected entry's candidate list, once the list is the one of the
    grid in use (the list of the grid before an edit stays shown until the new one comes)."""
    page.wait_for_function("window.xwsat.ui.candidates && window.xwsat.ui.candidates.rev === "
                           "window.xwsat.view.asked && "
                           "document.querySelectorAll('#candidates li').length > 0",
                           timeout=WAIT_MS)
    first = page.locator("#candidates li").first
    return first, first.locator(".w").inner_text()


def test_drawing_blocks_and_letters_shows_a_red_slot(page):
    new_grid(page, 5, 5)
    click_cell(page, 0)
    page.keyboard.press(".")  # a block at the corner, and its rotational partner
    page.wait_for_function("window.xwsat.view.stats.blocks === 2")
    assert rows(page)[0][0] == "#" and rows(page)[4][4] == "#"
    click_cell(page, 5)
    for key in "QXZ":
        page.keyboard.press(key)
    page.wait_for_selector("#grid .dead-outline", timeout=WAIT_MS)
    assert "Unfillable" in page.inner_text("#verdict")
    assert "no dictionary word matches QXZ" in page.inner_text("#verdict")
    page.keyboard.press("Control+z")
    page.wait_for_function("!window.xwsat.view.doc.rows[1].includes('Z')")


def test_an_open_grid_names_three_dead_entries_and_asks_for_blocks(page):
    new_grid(page, 25, 25)  # 50 entries of 25 letters, none in the list
    page.wait_for_function("document.querySelector('#verdict').textContent.includes('more')",
                           timeout=WAIT_MS)
    said = page.inner_text("#verdict")
    assert said.count("no 25-letter word") == 3 and "and 47 more entries" in said
    assert "needs blocks" in said
    assert page.locator("#grid .dead-outline").count() == 50


def test_text_typed_in_a_field_survives_a_reload_without_leaving_the_field(page):
    new_grid(page, 5, 5)
    page.click(".tabs button[data-tab='puzzle']")
    page.click("[data-meta='author']")
    page.keyboard.type("Ann Example", delay=10)
    page.reload()  # at once: the field was never left, its "change" never fired
    page.wait_for_function("window.xwsat && window.xwsat.view && "
                           "window.xwsat.view.doc.author === 'Ann Example'", timeout=WAIT_MS)


def test_a_pasted_megabyte_clue_then_a_reload_brings_the_grid_back(page):
    # the waiting text was kept whole: the restore message passed the socket's limit and the
    # page stayed "Offline" with a blank grid, retrying forever
    new_grid(page, 5, 5)
    click_cell(page, 0)
    page.keyboard.press("C")
    page.wait_for_function("window.xwsat.view.doc.rows[0][0] === 'C'")
    page.click(".tabs button[data-tab='clues']")
    page.eval_on_selector('#clues input[data-slot="1A"]', "el => { el.value = "
                          "'x'.repeat(1100000); el.dispatchEvent(new Event('input')); }")
    page.reload()  # before the typing pause sent the clue
    page.wait_for_function("window.xwsat && window.xwsat.view && "
                           "window.xwsat.view.doc.rows[0][0] === 'C' && "
                           "(window.xwsat.view.doc.clues['1A'] || '').length === 2000",
                           timeout=WAIT_MS)
    assert "Offline" not in page.inner_text("#verdict")


def lock_first_row(page, word: str) -> None:
    """A new 5x5 grid with ``word`` locked as its first across entry."""
    new_grid(page, 5, 5)
    click_cell(page, 0)
    page.fill("#theme-word", word)
    page.click("#lock")
    page.wait_for_function("window.xwsat.view.doc.locks.length === 1")


def test_locking_a_theme_entry_outside_the_list(page):
    lock_first_row(page, "xwsat")
    assert rows(page)[0] == "XWSAT"
    assert page.locator("#grid .letter.locked").count() == 5
    page.wait_for_selector("#unlock")


def test_a_reload_brings_the_grid_back_with_its_lock(page):
    lock_first_row(page, "xwsat")
    click_cell(page, 10)
    page.keyboard.press("Q")
    page.wait_for_function("window.xwsat.view.doc.rows[2][0] === 'Q'")
    session = page.evaluate("window.xwsat.view.session")
    page.reload()
    page.wait_for_function("window.xwsat && window.xwsat.view && "
                           "window.xwsat.view.doc.locks.length === 1")
    assert page.evaluate("window.xwsat.view.session") != session  # a new page, the same grid
    assert rows(page) == ["XWSAT", ".....", "Q....", ".....", "....."]
    assert "last grid is back" in page.inner_text("#message")


def test_a_reload_after_new_leaves_undo_to_the_grid_new_replaced(page):
    # the grid a New replaced was in the page's undo history only: a reload lost it for good
    # (and then came back without its bans)
    lock_first_row(page, "xwsat")
    click_cell(page, 5)
    first, banned = first_candidate(page)
    first.hover()
    first.locator(".ban").click()
    page.wait_for_function(f"window.xwsat.view.dictionary.bans.includes('{banned}')")
    new_grid(page, 7, 6)
    page.reload()
    page.wait_for_function("window.xwsat && window.xwsat.view && "
                           "window.xwsat.view.doc.rows.length === 6", timeout=WAIT_MS)
    assert "Undo gives the grid you had before it" in page.inner_text("#message")
    assert page.input_value("#new-width") == "7" and page.input_value("#new-height") == "6"
    page.click("#undo")
    page.wait_for_function("window.xwsat.view.doc.rows.length === 5")
    assert rows(page)[0] == "XWSAT" and page.evaluate("window.xwsat.view.doc.locks.length") == 1
    assert page.input_value("#new-width") == "5"
    assert page.evaluate("window.xwsat.view.dictionary.bans") == [banned]
    assert page.evaluate("document.getElementById('message').classList.contains('notice')")
    page.keyboard.press("Control+z")  # undo gives the blank page the reload opened
    page.wait_for_function("window.xwsat.view.doc.rows.length === 15")


def test_autofill_accept_and_download_a_puz_that_puzpy_reads(page, tmp_path):
    import puz

    new_grid(page, 5, 5)
    click_cell(page, 0)
    page.keyboard.press(".")
    page.click("#fill-all")
    page.wait_for_function("window.xwsat.ui.suggestion", timeout=WAIT_MS)
    assert page.locator("#grid .letter.suggested").count() == 23
    page.click("#accept-all")  # the best so far, while the optimiser goes on
    page.wait_for_function("!window.xwsat.view.doc.rows.join('').includes('.')")
    filled = rows(page)
    with page.expect_download() as download_info:
        page.select_option("#save", "puz")
    path = tmp_path / "puzzle.puz"
    download_info.value.save_as(path)
    back = puz.read(str(path))
    assert back.width == 5 and back.height == 5
    assert back.solution.replace(".", "#") == "".join(filled)
    message = page.locator("#message")  # the page says what the file lacks
    assert message.is_visible() and "entries have no clue yet" in message.inner_text()


def test_a_reload_shows_the_suggested_fill_again(page):
    new_grid(page, 5, 5)
    click_cell(page, 0)
    page.keyboard.press(".")
    page.click("#fill-all")
    page.wait_for_function("window.xwsat.ui.autofill && window.xwsat.ui.autofill.final"
                           " && window.xwsat.ui.suggestion", timeout=WAIT_MS)
    letters = page.evaluate("window.xwsat.ui.suggestion")
    page.reload()
    page.wait_for_function("window.xwsat.view && window.xwsat.ui.suggestion", timeout=WAIT_MS)
    assert page.evaluate("window.xwsat.ui.suggestion") == letters
    assert "Fill kept from before the reload" in page.inner_text("#fill-status")
    page.click("#accept-all")
    page.wait_for_function("!window.xwsat.view.doc.rows.join('').includes('.')")
    assert all(rows(page)[i // 5][i % 5] == ch for i, ch in
               ((int(k), v) for k, v in letters.items()))


def test_accepting_one_entry_of_a_region_fill(page):
    new_grid(page, 5, 5)
    page.click("#fill-all")
    page.wait_for_function("window.xwsat.ui.suggestion", timeout=WAIT_MS)
    page.click("#accept-all")
    page.wait_for_function("!window.xwsat.view.doc.rows.join('').includes('.')")
    before = rows(page)
    page.mouse.move(*center(page, 0))
    page.mouse.down()
    page.mouse.move(*center(page, 6))
    page.mouse.up()
    page.click("#fill-region")
    page.wait_for_function("window.xwsat.ui.autofill && window.xwsat.ui.autofill.final",
                           timeout=WAIT_MS)
    assert "Fill found" in page.inner_text("#fill-status")  # the grid's own corner fits
    assert set(page.evaluate("Object.keys(window.xwsat.ui.suggestion)")) <= {"0", "1", "5", "6"}
    click_cell(page, 0)
    page.click("#accept-one")
    page.wait_for_function("window.xwsat.view.can_undo")
    assert rows(page)[2:] == before[2:]  # outside the rectangle nothing moved


def center(page, cell: int) -> tuple[float, float]:
    script = ("(cell) => { const r = document.querySelector(`#grid [data-cell='${cell}']`)"
              ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }")
    x, y = page.evaluate(script, cell)
    return x, y


def test_an_unfillable_grid_shows_its_core(page):
    new_grid(page, 4, 4)
    click_cell(page, 0)
    for key in "QQ":  # no word starts QQ: the core is the entries through those cells
        page.keyboard.press(key)
    page.wait_for_function("window.xwsat.ui.core && window.xwsat.ui.core.length > 0",
                           timeout=WAIT_MS)
    assert page.locator("#grid .core-cell").count() > 0
    assert "Unfillable" in page.inner_text("#verdict")


def test_the_entries_to_blame_name_the_locked_entry_they_run_through(page):
    # the blamed downs of a grid made unfillable by a lock were named, the lock itself never
    lock_first_row(page, "zzzzz")
    page.wait_for_function("window.xwsat.ui.core && window.xwsat.ui.core.length > 0",
                           timeout=WAIT_MS)
    page.wait_for_function("document.querySelector('#verdict').innerText.includes("
                           "'cannot be filled together')", timeout=WAIT_MS)
    assert "They run through your locked entry ZZZZZ." in page.inner_text("#verdict")


def test_candidates_are_ranked_and_marked(page):
    new_grid(page, 5, 5)
    click_cell(page, 0)
    page.wait_for_function("document.querySelectorAll('#candidates li.fillable').length > 0",
                           timeout=WAIT_MS)
    scores = [int(s) for s in page.locator("#candidates li:not(.unfillable) .s").all_inner_texts()]
    assert scores == sorted(scores, reverse=True)


def test_a_malformed_upload_is_said_in_the_page(page, tmp_path):
    bad = tmp_path / "bad.puz"
    bad.write_bytes(b"no puzzle here")
    page.set_input_files("#open-file", str(bad))
    page.wait_for_selector("#message:not([hidden])")
    assert ".puz" in page.inner_text("#message")
    assert not page.evaluate("document.getElementById('message').classList.contains('notice')")
    new_grid(page, 3, 3)  # and the page goes on


def test_a_refusal_is_cleared_by_the_next_edit_the_server_takes(page):
    # "a grid is 3 to 25 cells a side" stayed in red over the 9x9 grid drawn after it
    page.fill("#new-width", "26")
    page.fill("#new-height", "15")
    page.click("#new")
    page.wait_for_selector("#message:not([hidden])")
    assert "26x15" in page.inner_text("#message")
    new_grid(page, 9, 9)
    page.wait_for_selector("#message", state="hidden", timeout=2_000)


def test_autofill_says_why_the_fill_is_not_at_the_level_above(page, tmp_path):
    scored = tmp_path / "scored.txt"  # tiers 10-90: on an open 3x3 the top level has no fill
    scored.write_text("CAT;90\nARE;20\nTEN;20\nACE;60\nERA;70\nATE;30\nTAN;40\nNET;50\nEAT;80\n"
                      "TEA;10\nART;30\nRAT;60\nANT;40\nTAR;20\nCAR;50\nERE;30\nAGE;30\nGEE;30\n"
                      "TOE;40\nONE;70\nEON;20\nNEE;10\nOAT;30\nCOT;60\n", encoding="utf-8")
    page.set_input_files("#upload-file", str(scored))
    page.wait_for_function("window.xwsat.view.dictionary.words === 24")
    new_grid(page, 3, 3)
    page.click("#fill-all")
    page.wait_for_function("window.xwsat.ui.autofill && window.xwsat.ui.autofill.final",
                           timeout=WAIT_MS)
    why = page.evaluate("window.xwsat.ui.autofill.why_not")
    status = page.inner_text("#fill-status")
    assert "proven the highest level" in status
    assert f"Why not {why['level']}: these {len(why['slots'])} entries cannot all score" in status
    assert page.locator("#grid .core-cell").count() == len(why["cells"]) > 0


def test_fast_typing_and_backspace_keep_the_letters_as_typed(page):
    """Backspace right after a letter sees it, before the server's state comes back."""
    new_grid(page, 5, 5)
    click_cell(page, 0)
    page.keyboard.type("HELLO", delay=20)
    for _ in range(2):
        page.keyboard.press("Backspace", delay=20)
    page.keyboard.type("P!", delay=20)
    page.wait_for_function("window.xwsat.view.doc.rows[0] === 'HELP.'")


def test_new_says_that_undo_brings_the_last_grid_back(page):
    new_grid(page, 5, 5)
    click_cell(page, 0)
    page.keyboard.press("Q")
    page.wait_for_function("window.xwsat.view.doc.rows[0][0] === 'Q'")
    page.click("#new")  # asks nothing: the grid goes, and the page says how to get it back
    page.wait_for_function("window.xwsat.view.doc.rows[0][0] === '.'")
    assert "Undo brings your last grid back" in page.inner_text("#message")
    page.keyboard.press("Control+z")
    page.wait_for_function("window.xwsat.view.doc.rows[0][0] === 'Q'")


def test_a_double_click_toggles_a_block(page):
    new_grid(page, 5, 5)
    page.dblclick("#grid [data-cell='6']")
    page.wait_for_function("window.xwsat.view.doc.rows[1][1] === '#'")


def test_each_tab_keeps_its_own_grid(page):
    """A second tab opens blank, not on the first one's grid, and a reload gives each tab its
    own grid back (they used to share one kept grid, the last writer winning)."""
    new_grid(page, 5, 5)
    click_cell(page, 0)
    page.keyboard.type("ALPHA", delay=20)
    page.wait_for_function("window.xwsat.view.doc.rows[0] === 'ALPHA'")
    other = page.context.new_page()
    other.goto(page.url)
    other.wait_for_function("window.xwsat && window.xwsat.view")
    assert rows(other)[0] == "." * 15
    new_grid(other, 7, 7)
    click_cell(other, 0)
    other.keyboard.type("BRAVO", delay=20)
    other.wait_for_function("window.xwsat.view.doc.rows[0] === 'BRAVO..'")
    page.reload()
    page.wait_for_function("window.xwsat && window.xwsat.view && "
                           "window.xwsat.view.doc.rows[0] === 'ALPHA'")
    other.close(run_before_unload=True)
    third = page.context.new_page()  # a closed tab's grid comes back in the next new tab
    third.goto(page.url)
    third.wait_for_function("window.xwsat && window.xwsat.view && "
                            "window.xwsat.view.doc.rows[0] === 'BRAVO..'")
    third.close()


def entries(rows: list[str]) -> set[str]:
    lines = rows + ["".join(column) for column in zip(*rows)]
    return {part for line in lines for part in line.split("#") if len(part) > 1}


def test_a_banned_word_stays_out_of_the_fills_and_the_ban_is_kept_and_lifted(page):
    new_grid(page, 5, 5)
    page.click("#fill-all")
    page.wait_for_function("window.xwsat.ui.suggestion", timeout=WAIT_MS)
    click_cell(page, 0)
    button = page.locator("#ban-entry")  # the suggested entry: banned, and the grid refilled
    word = button.inner_text().split()[1]
    button.click()
    page.wait_for_function(f"window.xwsat.view.dictionary.bans.includes('{word}')")
    page.wait_for_function("window.xwsat.ui.autofill && window.xwsat.ui.autofill.letters",
                           timeout=WAIT_MS)
    letters = page.evaluate("window.xwsat.ui.autofill.letters")
    refilled = ["".join(letters.get(str(r * 5 + c), ".") for c in range(5)) for r in range(5)]
    assert "." not in "".join(refilled) and word not in entries(refilled)
    assert f"{word} ×" in page.inner_text("#bans")
    page.wait_for_function("document.querySelectorAll('#candidates li').length > 0",
                           timeout=WAIT_MS)
    first = page.locator("#candidates li").first  # a candidate's × bans it too
    other = first.locator(".w").inner_text()
    first.hover()
    first.locator(".ban").click()
    page.wait_for_function(f"window.xwsat.view.dictionary.bans.includes('{other}')")
    page.reload()  # the bans come back with the grid
    page.wait_for_function("window.xwsat.view && window.xwsat.view.dictionary.bans.length === 2"
                           " && window.xwsat.view.doc.rows.length === 5", timeout=WAIT_MS)
    page.locator("#bans .unban", has_text=word).click()
    page.wait_for_function(f"!window.xwsat.view.dictionary.bans.includes('{word}')")
    assert page.evaluate("window.xwsat.view.dictionary.bans") == [other]


def test_enter_locks_the_theme_entry_and_a_candidate_is_picked_from_the_keyboard(page):
    # Enter in the field did nothing, and a candidate could not be focused: the keyboard
    # reached only its ban
    new_grid(page, 5, 5)
    click_cell(page, 0)
    page.fill("#theme-word", "xwsat")
    page.press("#theme-word", "Enter")
    page.wait_for_function("window.xwsat.view.doc.locks.length === 1")
    page.keyboard.press("Control+z")
    page.wait_for_function("window.xwsat.view.doc.locks.length === 0")
    page.wait_for_function("window.xwsat.ui.selectedSlot === '1A'")
    first, word = first_candidate(page)
    first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.xwsat.view.doc.rows[0] === '{word}'")
    assert page.evaluate("window.xwsat.view.dictionary.bans") == []


def test_a_reload_keeps_the_list_the_server_started_with_and_its_minimum_score(browser,
                                                                             tmp_path):
    # with serve --dict FILE each reload said the list was lost and English in use (neither
    # true), and the minimum score came back as 0
    words = tmp_path / "mine.txt"
    words.write_text("".join(f"{w};{s}\n" for w, s in [("CAT", 60), ("ARE", 30), ("TEN", 60),
                                                       ("CAR", 60), ("ART", 30), ("TEA", 60)]))
    with running_server("--dict", str(words), "--search-limit", "3") as (address, _):
        context = browser.new_context()
        opened = context.new_page()
        opened.goto(address)
        opened.wait_for_function("window.xwsat && window.xwsat.view")
        name = opened.evaluate("window.xwsat.view.dictionary.name")
        new_grid(opened, 3, 3)
        opened.fill("#min-score", "40")
        opened.dispatch_event("#min-score", "change")
        opened.wait_for_function("window.xwsat.view.dictionary.min_score === 40")
        opened.reload()
        opened.wait_for_function("window.xwsat && window.xwsat.view && "
                                 "window.xwsat.view.dictionary.min_score === 40 && "
                                 "window.xwsat.view.doc.rows.length === 3", timeout=WAIT_MS)
        assert opened.evaluate("window.xwsat.view.dictionary.name") == name
        said = opened.inner_text("body")
        assert "Your last grid is back" in said and "not kept" not in said
        context.close()
