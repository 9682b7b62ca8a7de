"""The analysis board in a real browser (Chromium from Debian, driven by Selenium): games played
by clicks and keys, the values shown compared with the library's ``analyze``, undo and redo,
a reload restoring the position, the value history marking a mistake, a bad pasted position
showing the library's message. Missing Chromium is a failure, never a skip."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from perfectplay import connect4, tictactoe
from perfectplay._registry import GAMES
from tests_support import quiet_games
from web_server import Server, chromium, running

pytestmark = pytest.mark.compiled  # the page is under test here, on the fast backend

WAIT = 30  # seconds a page may take to show an answer (a bound, not a benchmark)


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running("--workers", "2") as started:
        yield started


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    driver = chromium(1400, 1000)
    if driver is None:
        pytest.fail(
            "the browser tests need Chromium and its driver: apt-get install chromium "
            "chromium-driver"
        )
    try:
        yield driver
    finally:
        driver.quit()


def shown_hints(browser: webdriver.Chrome) -> dict[int, tuple[int, int]]:
    """{action: (value, plies)} as the board's annotations show them."""
    found = browser.execute_script(
        "return [...document.querySelectorAll('#overlay g.hint')].map(g => "
        "[+g.dataset.action, +g.dataset.value, +g.dataset.plies, g.textContent])"
    )
    letters = {1: "W", 0: "D", -1: "L"}
    shown = {}
    for action, value, plies, text in found:
        assert text.endswith(f"{letters[value]}{plies}"), text  # the letter and plies drawn
        shown[action] = (value, plies)
    return shown


def expected_hints(position: Any) -> dict[int, tuple[int, int]]:
    return {position.action(move): answer for move, answer in position.analyze().items()}


def wait_until(browser: webdriver.Chrome, condition: Any, what: str) -> None:
    WebDriverWait(browser, WAIT).until(lambda _: condition(), message=what)


def wait_for_hints(browser: webdriver.Chrome, position: Any) -> None:
    expected = expected_hints(position)
    wait_until(browser, lambda: shown_hints(browser) == expected, f"the hints of {position!r}")


def played(browser: webdriver.Chrome) -> int:
    return len(browser.find_elements(By.CSS_SELECTOR, "#movelist li:not(.redo)"))


def click_cell(browser: webdriver.Chrome, cell: int) -> None:
    rect = browser.find_elements(By.CSS_SELECTOR, "#board svg rect.cell")[cell]
    ActionChains(browser).move_to_element(rect).click().perform()


def open_more(browser: webdriver.Chrome) -> None:
    """Opens the panel where a position is pasted (by its summary, as a person does)."""
    if browser.find_element(By.ID, "more").get_attribute("open") is None:
        browser.find_element(By.CSS_SELECTOR, "#more summary").click()


def open_board(browser: webdriver.Chrome, server: Server, fragment: str) -> None:
    browser.get(f"{server.url}/#{fragment}")
    wait_until(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#board svg"), "a board")


def test_tictactoe_by_clicks_with_undo_redo_reload_and_a_mistake(
    browser: webdriver.Chrome, server: Server
) -> None:
    open_board(browser, server, "game=tictactoe")
    position = tictactoe.Position.start()
    wait_for_hints(browser, position)
    # x takes the centre, o answers on an edge: the mistake that loses.
    for ply, cell in enumerate((4, 1), 1):
        click_cell(browser, cell)
        position = position.play(cell)
        wait_until(browser, lambda ply=ply: played(browser) == ply, f"move {ply} listed")
        wait_for_hints(browser, position)
    wait_until(
        browser,
        lambda: browser.find_elements(By.CSS_SELECTOR, "#movelist li.mistake[data-ply='2']"),
        "the mistake marked in the move list",
    )
    assert browser.find_elements(By.CSS_SELECTOR, "#history-chart .mistake[data-ply='2']")
    assert not browser.find_elements(By.CSS_SELECTOR, "#history-chart .mistake[data-ply='1']")
    # The review: each player's moves as review() sums them up (the edge loses for o).
    expected = tictactoe.review([4, 1]).players
    for mark, shown_name in (("x", "X"), ("o", "O")):
        summary = expected[mark]
        cells = [summary.moves, summary.perfect, summary.blunders, f"{summary.accuracy:.1f}%"]
        wanted = [shown_name, *map(str, cells)]
        wait_until(
            browser,
            lambda mark=mark, wanted=wanted: (
                [
                    cell.text
                    for cell in browser.find_elements(
                        By.CSS_SELECTOR, f"#review tr[data-player='{mark}'] td"
                    )
                ]
                == wanted
            ),
            f"the review of {mark}",
        )
    # Undo shows the earlier position's values again; redo brings the move back.
    before = tictactoe.Position.start().play(4)
    browser.find_element(By.ID, "undo").click()
    wait_for_hints(browser, before)
    browser.find_element(By.ID, "redo").click()
    wait_for_hints(browser, position)
    # A reload of the URL restores the position.
    browser.refresh()
    wait_for_hints(browser, position)
    assert played(browser) == 2
    # The rest of the game by clicks, checking the values at every step.
    rng = random.Random(4)
    while not position.is_over:
        cell = rng.choice(position.legal_moves)
        click_cell(browser, cell)
        position = position.play(cell)
        if not position.is_over:
            wait_for_hints(browser, position)
    # Status and move list in the players' own names and from 1.
    outcome = f"{position.winner.upper()} won" if position.winner else "draw"
    wait_until(browser, lambda: browser.find_element(By.ID, "status").text == outcome, outcome)


def test_a_bad_pasted_position_shows_the_library_message(
    browser: webdriver.Chrome, server: Server
) -> None:
    open_board(browser, server, "game=tictactoe&moves=4")
    with pytest.raises(ValueError) as raised:
        GAMES["tictactoe"].read_position("xxx/ooo/...")
    open_more(browser)
    box = browser.find_element(By.ID, "paste")
    box.clear()
    box.send_keys("xxx/ooo/...")
    browser.find_element(By.ID, "load").click()
    wait_until(
        browser,
        lambda: browser.find_element(By.ID, "message").text == str(raised.value),
        "the library's message",
    )
    # The game shown stays.
    wait_for_hints(browser, tictactoe.Position.start().play(4))


def click_to_the_end(browser: webdriver.Chrome, position: Any, rng: random.Random) -> None:
    """Plays random columns by clicks from the Connect Four ``position`` shown to the game's
    end, the hints the library's before every move."""
    start = position.played
    while not position.is_over:
        wait_for_hints(browser, position)
        column = rng.choice(position.legal_moves)
        # Any cell of the column plays it: click its top cell.
        click_cell(browser, column)
        position = position.play(column)
        listed = position.played - start
        wait_until(browser, lambda n=listed: played(browser) == n, "the move listed")
    wait_until(
        browser,
        lambda: browser.find_element(By.ID, "status").text.endswith(("won", "draw")),
        "the end",
    )


def test_connect_four_by_clicks(browser: webdriver.Chrome, server: Server) -> None:
    open_board(browser, server, "game=connect4&width=4&height=4")
    click_to_the_end(browser, connect4.Position.empty(4, 4), random.Random(9))


def test_connect_four_eight_by_eight_by_clicks(browser: webdriver.Chrome, server: Server) -> None:
    """The 8x8 board (past 64 bits) from a random quiet position 12 cells from the end,
    played to its end by clicks."""
    (moves,) = quiet_games(8, 8, 12, 1, seed=8)
    line = "".join(str(column + 1) for column in moves)
    open_board(browser, server, f"game=connect4&width=8&height=8&start={line}")
    position = connect4.Position(moves, width=8, height=8)
    click_to_the_end(browser, position, random.Random(8))


def test_connect_four_from_a_pasted_move_string(browser: webdriver.Chrome, server: Server) -> None:
    line = "4453323544611"  # Pons' columns, 1-based
    open_board(browser, server, "game=connect4")
    open_more(browser)
    box = browser.find_element(By.ID, "paste")
    box.clear()
    box.send_keys(line)
    browser.find_element(By.ID, "load").click()
    position = connect4.Position(line)
    wait_for_hints(browser, position)
    click_cell(browser, 5 * 7 + 2)  # the bottom cell of the third column (2 from 0)
    wait_for_hints(browser, position.play(2))
    # The URL counts columns from 1, as the move string does.
    assert "start=4453323544611" in browser.current_url and "play=3" in browser.current_url


def test_keyboard_play_and_the_agent_reply(browser: webdriver.Chrome, server: Server) -> None:
    open_board(browser, server, "game=tictactoe&vs=second")
    board = browser.find_element(By.ID, "board")
    board.click()
    ActionChains(browser).send_keys("5").perform()  # digit 5: cell 4
    wait_until(browser, lambda: played(browser) == 2, "the agent's reply")
    # Read in one script: the list is redrawn when the reply lands (a found element goes stale).
    first = browser.execute_script("return document.querySelector('#movelist li').innerText")
    assert first == "5"  # the centre, cell 5 counting from 1
    ActionChains(browser).send_keys("u").perform()  # undo: the agent's reply
    wait_until(browser, lambda: played(browser) <= 2, "undone")


def test_hints_turn_off_and_on(browser: webdriver.Chrome, server: Server) -> None:
    open_board(browser, server, "game=mnk&rows=3&cols=3&k=3&moves=4")
    position = GAMES["mnk"].start(rows=3, cols=3, k=3).play((1, 1))
    wait_for_hints(browser, position)
    browser.find_element(By.ID, "hints").click()
    wait_until(browser, lambda: shown_hints(browser) == {}, "no hints")
    assert "hints=0" in browser.current_url
    browser.find_element(By.ID, "hints").click()
    wait_for_hints(browser, position)


def test_the_footholds_editor(browser: webdriver.Chrome, server: Server) -> None:
    from selenium.webdriver.support.ui import Select

    from perfectplay import footholds

    open_board(browser, server, "game=footholds&board=111%2F111%2F111&aloc=1%2C0&bloc=1%2C2")
    wait_for_hints(browser, footholds.Position("111/111/111", (1, 0), (1, 2)))
    Select(browser.find_element(By.ID, "edit")).select_by_value("hole")
    click_cell(browser, 0)  # (0, 0) becomes a hole
    wait_for_hints(browser, footholds.Position("011/111/111", (1, 0), (1, 2)))
    Select(browser.find_element(By.ID, "edit")).select_by_value("bloc")
    click_cell(browser, 8)  # B to (2, 2)
    wait_for_hints(browser, footholds.Position("011/111/111", (1, 0), (2, 2)))
    assert "board=011%2F111%2F111" in browser.current_url
    Select(browser.find_element(By.ID, "edit")).select_by_value("")
    click_cell(browser, 6)  # A moves to (2, 0)
    wait_for_hints(browser, footholds.Position("011/111/111", (1, 0), (2, 2)).play((2, 0)))


def test_the_tablebase_view_opens_examples_on_the_board(
    browser: webdriver.Chrome, tmp_path: Any
) -> None:
    from perfectplay import mnk, tablebase

    path = tmp_path / "3x3.pptb"
    table = tablebase.build(3, 3, 3)
    table.save(path)
    with running("--workers", "1", "--tablebase", str(path)) as server:
        open_board(browser, server, "game=tictactoe")
        button = WebDriverWait(browser, WAIT).until(
            lambda _: browser.find_element(By.CSS_SELECTOR, "#table-list button")
        )
        assert button.text == "3x3 k=3"
        button.click()
        count = WebDriverWait(browser, WAIT).until(
            lambda _: browser.find_element(
                By.CSS_SELECTOR, "#table-stats button[data-value='1'][data-plies='5']"
            )
        )
        assert count.text == str(table.stats()["by_value_plies"][(1, 5)])
        count.click()
        link = WebDriverWait(browser, WAIT).until(
            lambda _: browser.find_element(By.CSS_SELECTOR, "#table-examples a")
        )
        board = link.text
        link.click()
        position = mnk.Position(board, 3)
        assert (position.solve().value, position.solve().plies) == (1, 5)
        wait_for_hints(browser, position)
        assert "tablebase" in str(browser.find_element(By.ID, "status").get_attribute("title"))


def test_a_position_beyond_the_limits_shows_work_then_says_so_and_tries_again(
    browser: webdriver.Chrome,
) -> None:
    # The empty 6x6 board, k = 5, takes far more than 2 s to search: the bound refuses it.
    with running("--workers", "1", "--time-limit", "2", "--node-limit", "1000000000") as server:
        open_board(browser, server, "game=mnk&rows=6&cols=6&k=5")
        wait_until(
            browser,
            lambda: browser.find_element(By.ID, "working").is_displayed(),
            "working shown while the search runs",
        )
        wait_until(
            browser,
            lambda: browser.find_element(By.ID, "retry").is_displayed(),
            "a try-again button once refused",
        )
        assert "too hard for this server" in browser.find_element(By.ID, "message").text
        assert not browser.find_element(By.ID, "working").is_displayed()
        assert browser.find_elements(By.CSS_SELECTOR, "#history-chart .unknown")
        browser.find_element(By.ID, "retry").click()
        wait_until(
            browser,
            lambda: browser.find_element(By.ID, "working").is_displayed(),
            "working again after try again",
        )
