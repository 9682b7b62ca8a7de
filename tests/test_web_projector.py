"""The board as a class sees it on a projector (Chromium at 1280x720 and 1920x1080): a whole
7x6 Connect Four game by clicks with every column's value shown at every ply, a value history
with no gaps, the winning line, one numbering from 1, contrast of at least 4.5:1 measured on
the rendered page, keyboard focus that shows, and a board that fills the screen. In a
classroom: hidden values hide every value on the page; the board, the move table, the value
history and the footer fit the screen without scrolling and nothing moves when the board is
clicked; the numbers have a legend; a move that cannot be played says why; a mouse click
draws no keyboard cursor; Undo and Redo are disabled when there is nothing to undo or redo;
the page opens on Connect Four or on the game last played. How soon the values come is
measured by ``benches/web_board_latency.py`` (timings are never asserted)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from perfectplay import connect4, tictactoe
from test_web_browser import click_cell, open_board, played, wait_for_hints, wait_until
from web_server import Server, chromium, running

pytestmark = pytest.mark.compiled

# The WCAG 2 contrast ratio of every text and value colour on what it is drawn on, as the
# browser renders them (colours read from the computed styles and the SVG's attributes).
CONTRAST_SCRIPT = """
const rgb = (text) => {
  if ((text || "").startsWith("#")) {
    const hex = text.length === 4 ? [...text.slice(1)].map((c) => c + c).join("") : text.slice(1);
    return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)).concat([1]);
  }
  const parts = (text || "").match(/[0-9.]+/g);
  return parts ? parts.map(Number).concat(parts.length === 3 ? [1] : []) : null;
};
const luminance = ([r, g, b]) => {
  const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
};
const ratio = (a, b) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
};
const background = (node) => {
  for (let at = node; at && at.nodeType === 1; at = at.parentElement) {
    const colour = rgb(getComputedStyle(at).backgroundColor);
    if (colour && colour[3] > 0) return colour;
  }
  return [255, 255, 255, 1];
};
const found = [];
const texts = document.querySelectorAll(
  "#status, #moves td, #moves th, #movelist button, #controls button, #controls label, " +
  "#panel h2, header h1, header button, header label, footer, #history text");
for (const node of texts) {
  if (!node.textContent.trim() || node.closest("[hidden]")) continue;
  const style = getComputedStyle(node);
  const svg = node instanceof SVGElement;
  const ink = rgb(svg ? (node.getAttribute("fill") || style.fill) : style.color);
  found.push([node.id || node.tagName + "." + node.className, ratio(ink, background(node))]);
}
for (const hint of document.querySelectorAll("#overlay g.hint")) {
  const tile = rgb(hint.querySelector("rect").getAttribute("fill"));
  const ink = rgb(hint.querySelector("text").getAttribute("fill"));
  found.push(["hint " + hint.dataset.value, ratio(ink, tile)]);
}
for (const number of document.querySelectorAll("#overlay text.number")) {
  // A number on a value's tile is read against the tile, else against the board.
  const cell = number.getBBox();
  const tile = [...document.querySelectorAll("#overlay g.hint rect")].find((rect) => {
    const box = rect.getBBox();
    return cell.x >= box.x && cell.x <= box.x + box.width &&
           cell.y >= box.y && cell.y <= box.y + box.height;
  });
  const under = tile ? rgb(tile.getAttribute("fill")) : rgb("#f7f4ec");
  found.push(["number", ratio(rgb(number.getAttribute("fill")), under)]);
}
return found;
"""


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running("--workers", "2") as started:
        yield started


SIZES = [(1280, 720), (1920, 1080)]


@pytest.fixture(params=SIZES, ids=["1280x720", "1920x1080"])
def browser(request: Any) -> Iterator[webdriver.Chrome]:
    driver = chromium(*request.param)
    if driver is None:
        pytest.fail("the browser tests need Chromium and its driver: apt-get install chromium")
    try:
        yield driver
    finally:
        driver.quit()


def _history(browser: webdriver.Chrome) -> dict[str, Any]:
    found: dict[str, Any] = browser.execute_script(
        "const chart = document.querySelector('#history-chart');"
        "return {points: chart.querySelectorAll('.point, .mistake').length,"
        " gaps: chart.querySelectorAll('.unknown, .pending').length,"
        " remoteness: [...chart.querySelectorAll('text.remoteness')].map(t => +t.textContent)};"
    )
    return found


def test_a_whole_seven_by_six_game_by_clicks(browser: webdriver.Chrome, server: Server) -> None:
    open_board(browser, server, "game=connect4")
    position = connect4.Position()
    width, height = browser.execute_script("return [innerWidth, innerHeight]")
    assert (width, height) in SIZES  # the page has the whole screen
    # The board fills the screen (most of its height), and the moves table is above the fold.
    box = browser.find_element(By.CSS_SELECTOR, "#board svg").rect
    assert box["height"] >= 0.6 * height, (box, width, height)
    table = browser.find_element(By.ID, "moves").rect
    assert table["y"] < height, "the moves table is below the fold"
    # Columns are numbered from 1 under the board.
    numbers = browser.execute_script(
        "return [...document.querySelectorAll('#overlay text.number')].map(t => t.textContent)"
    )
    assert numbers == [str(column) for column in range(1, 8)]
    # A perfect game, every move a click on its column; its values at every ply.
    line: list[str] = []
    while not position.is_over:
        wait_for_hints(browser, position)
        labels = browser.execute_script(
            "return [...document.querySelectorAll('#moves tbody tr')]"
            ".map(row => [+row.dataset.action, row.cells[0].textContent, row.cells[1].textContent])"
        )
        for action, label, words in labels:
            assert label == str(action + 1)
            value, plies = position.analyze()[action]
            kind = {1: "wins in", 0: "draw", -1: "loses in"}[value]
            assert words.startswith(kind) and (value == 0 or f" {plies} move" in words), words
        column = position.best_moves()[0]
        click_cell(browser, column)
        position = position.play(column)
        line.append(str(column + 1))
        wait_until(browser, lambda p=position: played(browser) == p.played, "the move listed")
    assert position.winner == "x" and position.played == 41
    wait_until(browser, lambda: browser.find_element(By.ID, "status").text == "Red won", "won")
    drawn = browser.find_element(By.ID, "winning-line").get_attribute("data-cells")
    assert drawn == ",".join(map(str, position.winning_cells()))
    # The value history has every ply, the first player winning throughout.
    wait_until(browser, lambda: _history(browser)["gaps"] == 0, "a history with no gaps")
    history = _history(browser)
    assert history["points"] == 42
    assert history["remoteness"] == list(range(41, -1, -1))
    # The move list counts columns from 1, as the URL does.
    listed = browser.execute_script(
        "return [...document.querySelectorAll('#movelist li:not(.redo)')].map(l => l.innerText)"
    )
    assert listed == line
    assert browser.current_url.split("play=")[1].split("&")[0] == ",".join(line)
    # Contrast of every text and value colour on the page.
    low = [
        (what, round(ratio, 2))
        for what, ratio in browser.execute_script(CONTRAST_SCRIPT)
        if ratio < 4.5
    ]
    assert not low, low


def test_best_move_keyboard_focus_and_full_screen(
    browser: webdriver.Chrome, server: Server
) -> None:
    open_board(browser, server, "game=connect4&play=4,4")
    position = connect4.Position("44")
    wait_for_hints(browser, position)
    best = browser.find_element(By.ID, "best")
    best.click()
    wait_until(browser, lambda: played(browser) == 3, "a best move played")
    assert position.play(int(browser.current_url.rsplit(",", 1)[1]) - 1) in [
        position.play(move) for move in position.best_moves()
    ]
    # Tab reaches the controls, and the one with the focus is outlined.
    browser.find_element(By.ID, "undo").send_keys(Keys.TAB)
    focused = browser.execute_script(
        "const at = document.activeElement; const style = getComputedStyle(at);"
        "return [at.id, parseFloat(style.outlineWidth), style.outlineStyle]"
    )
    assert focused[1] >= 3 and focused[2] != "none", focused
    # Tic-tac-toe numbers its cells from 1, readable on the board and on a value's tile.
    open_board(browser, server, "game=tictactoe&play=5")
    wait_for_hints(browser, tictactoe.Position.start().play(4))
    numbers = browser.execute_script(
        "return [...document.querySelectorAll('#overlay text.number')].map(t => t.textContent)"
    )
    assert numbers == ["1", "2", "3", "4", "6", "7", "8", "9"]
    low = [
        (what, round(ratio, 2))
        for what, ratio in browser.execute_script(CONTRAST_SCRIPT)
        if ratio < 4.5
    ]
    assert not low, low
    browser.find_element(By.ID, "fullscreen").click()
    wait_until(
        browser,
        lambda: browser.execute_script("return document.fullscreenElement !== null"),
        "full screen",
    )


# Nine stones, best moves but the fifth (Red's stone in column 1, which gives up its win).
WITH_A_MISTAKE = "4,4,4,4,1,2,1,1,5"


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
