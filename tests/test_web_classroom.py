"""The board in a classroom (Chromium at a projector's 1280x720 and at 1920x1080): hidden values
hide every value on the page, the whole board, the move table, the value history and the
footer fit the screen without scrolling and nothing moves when the board is clicked, the
numbers have a legend, a move that cannot be played says why, a mouse click draws no keyboard
cursor, Undo and Redo are disabled when there is nothing to undo or redo, and the page opens
on Connect Four or on the game last played. Each size leaves a screenshot in the test's
temporary folder to look at."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from perfectplay import connect4
from test_web_browser import click_cell, open_board, played, wait_for_hints, wait_until
from web_server import Server, chromium, running

pytestmark = pytest.mark.compiled

SIZES = [(1280, 720), (1920, 1080)]
# Nine stones, best moves but the fifth (Red's stone in column 1, which gives up its win).
WITH_A_MISTAKE = "4,4,4,4,1,2,1,1,5"


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running("--workers", "2") as started:
        yield started


@pytest.fixture(params=SIZES, ids=["1280x720", "1920x1080"])
def browser(request: Any) -> Iterator[webdriver.Chrome]:
    driver = chromium(*request.param)
    if driver is None:
        pytest.fail("the browser tests need Chromium and its driver: apt-get install chromium")
    try:
        yield driver
    finally:
        driver.quit()


def position_of(play: str) -> connect4.Position:
    return connect4.Position([int(column) - 1 for column in play.split(",")])


def bottoms(browser: webdriver.Chrome) -> dict[str, float]:
    """How far down the page each part reaches, and the page's own height."""
    found: dict[str, float] = browser.execute_script(
        "const bottom = (selector) =>"
        " document.querySelector(selector).getBoundingClientRect().bottom;"
        "return {page: document.documentElement.scrollHeight, screen: innerHeight,"
        " board: bottom('#board svg'), moves: bottom('#moves'), history: bottom('#history-chart'),"
        " legend: bottom('#moves-legend'), footer: bottom('footer')};"
    )
    return found


def test_the_whole_board_fits_the_screen_and_stays_put(
    browser: webdriver.Chrome, server: Server, tmp_path: Path
) -> None:
    position = position_of(WITH_A_MISTAKE)
    open_board(browser, server, f"game=connect4&play={WITH_A_MISTAKE}")
    wait_for_hints(browser, position)
    wait_until(
        browser,
        lambda: browser.execute_script("return document.querySelector('.mistake') !== null"),
        "the mistake marked",
    )
    parts = bottoms(browser)
    assert parts["page"] <= parts["screen"], parts
    for part in ("board", "moves", "legend", "history", "footer"):
        assert parts[part] <= parts["screen"], (part, parts)
    height = browser.execute_script("return innerHeight")
    assert browser.find_element(By.CSS_SELECTOR, "#board svg").rect["height"] >= 0.55 * height
    # The numbers are explained on the page, where the room can read them.
    legend = browser.find_element(By.ID, "moves-legend").text
    assert "moves left" in legend and "score" in legend and "Pons" in legend
    assert browser.find_element(By.CSS_SELECTOR, "#history-chart text.axis").text == "moves left"
    browser.save_screenshot(str(tmp_path / f"board-{height}.png"))
    # A click plays without moving the board, the table or anything else.
    before = browser.find_element(By.CSS_SELECTOR, "#board svg").rect
    best = position.best_moves()[0]
    click_cell(browser, best)
    position = position.play(best)
    wait_for_hints(browser, position)
    assert browser.find_element(By.CSS_SELECTOR, "#board svg").rect == before
    assert bottoms(browser)["page"] <= height


def test_hidden_values_hide_every_value(browser: webdriver.Chrome, server: Server) -> None:
    position = position_of(WITH_A_MISTAKE)
    open_board(browser, server, f"game=connect4&play={WITH_A_MISTAKE}&hints=0")
    wait_until(browser, lambda: played(browser) == 9, "the moves listed")

    def shown() -> dict[str, Any]:
        found: dict[str, Any] = browser.execute_script(
            "const visible = (node) => node && !node.closest('[hidden]');"
            "return {status: document.querySelector('#status').textContent,"
            " hints: document.querySelectorAll('#overlay g.hint').length,"
            " table: visible(document.querySelector('#moves')),"
            " history: visible(document.querySelector('#history')),"
            " mistakes: document.querySelectorAll('#movelist .mistake').length,"
            " text: document.body.innerText};"
        )
        return found

    wait_until(browser, lambda: shown()["status"] == "Yellow to move", "a status without value")
    hidden = shown()
    assert hidden["hints"] == 0 and not hidden["table"] and not hidden["history"], hidden
    assert hidden["mistakes"] == 0
    for word in ("wins in", "loses in", "moves left", "draw"):
        assert word not in hidden["text"], word
    # Shown again with h: every value is back.
    browser.find_element(By.ID, "board").send_keys("h")
    wait_for_hints(browser, position)
    wait_until(browser, lambda: shown()["mistakes"] == 1, "the mistake marked again")
    again = shown()
    assert again["table"] and again["history"] and " to move: " in again["status"]


def test_a_move_that_cannot_be_played_says_why(browser: webdriver.Chrome, server: Server) -> None:
    open_board(browser, server, "game=connect4&play=1,1,1,1,1,1")
    wait_for_hints(browser, position_of("1,1,1,1,1,1"))
    click_cell(browser, 0)
    message = browser.find_element(By.ID, "message")
    wait_until(browser, lambda: message.text == "Column 1 is full.", "the full column said")
    assert played(browser) == 6
    won = "4,3,4,3,4,3,4"
    open_board(browser, server, f"game=connect4&play={won}")
    wait_until(browser, lambda: browser.find_element(By.ID, "status").text == "Red won", "won")
    click_cell(browser, 1)
    wait_until(browser, lambda: "The game is over" in message.text, "the ended game said")


def test_undo_redo_and_the_keyboard_cursor(browser: webdriver.Chrome, server: Server) -> None:
    open_board(browser, server, "game=connect4")
    undo, redo = browser.find_element(By.ID, "undo"), browser.find_element(By.ID, "redo")
    wait_for_hints(browser, connect4.Position())
    assert not undo.is_enabled() and not redo.is_enabled()
    click_cell(browser, 3)
    wait_for_hints(browser, position_of("4"))
    # A click focuses the board but draws no keyboard cursor on it.
    assert browser.execute_script("return document.activeElement.id") == "board"
    assert not browser.find_elements(By.ID, "cursor")
    assert undo.is_enabled() and not redo.is_enabled()
    undo.click()
    wait_for_hints(browser, connect4.Position())
    assert not undo.is_enabled() and redo.is_enabled()
    # Keys draw the cursor, where the keys put it.
    browser.find_element(By.ID, "board").send_keys(Keys.ARROW_RIGHT)
    wait_until(browser, lambda: browser.find_elements(By.ID, "cursor"), "the keyboard cursor")


def test_the_page_opens_on_connect_four_then_on_the_last_game(
    browser: webdriver.Chrome, server: Server
) -> None:
    browser.get(f"{server.url}/")
    wait_until(browser, lambda: "game=connect4" in browser.current_url, "Connect Four first")
    browser.get(f"{server.url}/#game=tictactoe")
    wait_until(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#board svg"), "a board")
    browser.get(f"{server.url}/")
    wait_until(browser, lambda: "game=tictactoe" in browser.current_url, "the last game again")
