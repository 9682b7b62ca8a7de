// The perfectplay analysis board: one page for every game the server describes, made to be
// read from the back of a room. State lives in the URL's fragment (game, options, start, the
// moves played, opponent, skill, hints), so a reload or a shared link restores it. Every answer
// comes from the JSON API, whose actions count from 0; everything a person reads here (the
// moves, the URL, the digit keys) counts columns and cells from 1, as Pons' move strings do.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const LETTER = { "1": "W", "0": "D", "-1": "L" };
const KIND = { "1": "win", "0": "draw", "-1": "loss" };
const FILL = { "1": "#005A8C", "0": "#5C5C5C", "-1": "#A63F00" };

let games = {};          // name -> description from /api/games
const state = { game: "", options: {}, start: "", moves: [], redo: [],
                opponent: "", skill: 1, hints: true, compact: false };
let board = null;        // the /api/position answer shown
let analysis = null;     // the /api/analyze answer of the position shown (or null)
const analyses = new Map();  // query -> analyze answer (answers only: a refusal may be retried)
const refusals = new Map();  // query -> the message of a refused analysis
const pending = new Set();   // queries asked and not yet answered
let generation = 0;      // bumped on every change; late answers of older ones are dropped
let cursor = 0;          // keyboard cursor: a cell index
let byKeyboard = false;  // the board's focus came from the keyboard: its cursor is drawn
const LAST_GAME = "perfectplay.game";  // the game last played here, opened next time

function query(moves, extra) {
  const params = new URLSearchParams({ game: state.game });
  for (const [name, value] of Object.entries(state.options)) params.set(name, value);
  if (state.start) params.set("start", state.start);
  if (moves.length) params.set("moves", moves.join(","));
  for (const [name, value] of Object.entries(extra || {})) params.set(name, value);
  return params.toString();
}

async function api(path, params) {
  const response = await fetch(`/api/${path}?${params}`);
  const body = await response.json();
  if (!response.ok) {
    const error = new Error(body.error || `HTTP ${response.status}`);
    error.kind = body.type;
    throw error;
  }
  return body;
}

function say(text) { $("message").textContent = text || ""; }

function game() { return games[state.game]; }

function name(player) {
  const index = game().players.indexOf(player);
  return index < 0 ? player : game().names[index];
}

// A value in words ("wins in 5 moves") or compact ("W5"); a move is one player's turn.
function words(value, plies) {
  const key = String(value);
  if (state.compact) return key === "0" ? "D" : `${LETTER[key]}${plies}`;
  const moves = `${plies} move${plies === 1 ? "" : "s"}`;
  if (key === "1") return `wins in ${moves}`;
  if (key === "-1") return `loses in ${moves}`;
  return "draw";
}

// --- the URL ------------------------------------------------------------------------
function saveUrl() {
  const params = new URLSearchParams({ game: state.game });
  for (const [option, value] of Object.entries(state.options)) params.set(option, value);
  if (state.start) params.set("start", state.start);
  if (state.moves.length) params.set("play", state.moves.map((action) => action + 1).join(","));
  if (state.opponent) params.set("vs", state.opponent);
  if (state.skill !== 1) params.set("skill", String(state.skill));
  if (!state.hints) params.set("hints", "0");
  if (state.compact) params.set("compact", "1");
  // Commas stay commas: a person reads "play=4,4,3" (a fragment may hold them as they are).
  history.replaceState(null, "", "#" + params.toString().replace(/%2C/g, ","));
}

function readUrl() {
  const params = new URLSearchParams(location.hash.slice(1));
  const chosen = params.get("game");
  if (!chosen || !games[chosen]) return false;
  state.game = chosen;
  state.options = { ...games[chosen].options };
  for (const option of Object.keys(state.options)) {
    if (params.has(option)) state.options[option] = params.get(option);
  }
  state.start = params.get("start") || "";
  const numbers = (text) => (text || "").split(",").filter((m) => m !== "").map(Number);
  // "play" counts from 1; "moves" (links made before it) from 0.
  state.moves = params.has("play") ? numbers(params.get("play")).map((n) => n - 1)
                                   : numbers(params.get("moves"));
  state.redo = [];
  state.opponent = params.get("vs") || "";
  state.skill = params.has("skill") ? Number(params.get("skill")) : 1;
  state.hints = params.get("hints") !== "0";
  state.compact = params.get("compact") === "1";
  return true;
}

// --- the setup controls -------------------------------------------------------------
function showSetup() {
  $("game").value = state.game;
  const holder = $("options");
  holder.textContent = "";
  for (const [option, value] of Object.entries(state.options)) {
    const label = document.createElement("label");
    label.textContent = ` ${option} `;
    const input = document.createElement("input");
    input.id = `option-${option}`;
    input.name = option;
    input.value = value;
    if (String(value).length > 4) input.className = "wide";
    label.appendChild(input);
    holder.appendChild(label);
  }
  $("paste").placeholder = game().paste || "";
  $("paste").value = state.start;
  $("hints").checked = state.hints;
  $("compact").checked = state.compact;
  $("opponent").value = state.opponent;
  $("skill").value = state.skill;
  $("edit-label").hidden = !("aloc" in state.options);
  if ("aloc" in state.options) $("more").open = true;  // a footholds board is edited there
  $("score-head").hidden = true;
}

function readOptions() {
  for (const option of Object.keys(state.options)) {
    state.options[option] = $(`option-${option}`).value.trim();
  }
}

// --- drawing ------------------------------------------------------------------------
function element(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function cellCorner(cell) {
  const row = Math.floor(cell / board.cols), col = cell % board.cols;
  return [board.margin + col * board.cell_size, board.margin + row * board.cell_size];
}

function drawBoard() {
  const holder = $("board");
  holder.innerHTML = board.svg;  // the library's own drawing; its text is escaped there
  const svg = holder.querySelector("svg");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const overlay = element("g", { id: "overlay" });
  svg.appendChild(overlay);
  const size = board.cell_size;
  // One numbering a person reads: columns under the board, empty cells in their corner.
  if (game().moves === "column") {
    const y = board.margin + board.rows * size + 17;
    for (let col = 0; col < board.cols; col++) {
      overlay.appendChild(element("text", { class: "number", x: board.margin + col * size + size / 2,
        y, "text-anchor": "middle", "font-size": 16, "font-weight": "bold", fill: "#1a1a1a" },
        String(col + 1)));
    }
  }
  if (state.hints && analysis) {
    for (const move of analysis.moves) {
      const legal = board.legal.find((entry) => entry.action === move.action);
      const [x, y] = cellCorner(legal.cell);
      const key = String(move.value);
      const group = element("g", { class: `hint ${KIND[key]}`, "data-action": move.action,
                                   "data-value": move.value, "data-plies": move.plies });
      group.appendChild(element("title", {},
        `${legal.label}: ${words(move.value, move.plies)} for ${name(board.to_move)}`));
      group.appendChild(element("rect", { x: x + 5, y: y + 5, width: size - 10, height: size - 10,
                                          rx: 6, fill: FILL[key] }));
      group.appendChild(element("text", { x: x + size / 2, y: y + size / 2 + 6, "text-anchor": "middle",
                                          "font-size": 17, "font-weight": "bold", fill: "#fff" },
                                `${LETTER[key]}${move.plies}`));
      overlay.appendChild(group);
    }
  }
  // Cell numbers (from 1) in the corner of each empty cell, over its value if it shows one.
  if (game().moves === "cell") {
    const hinted = new Set(state.hints && analysis ? analysis.moves.map((move) => move.action) : []);
    board.codes.forEach((code, cell) => {
      if (code) return;
      const [x, y] = cellCorner(cell);
      overlay.appendChild(element("text", { class: "number", x: x + 9, y: y + 17, "font-size": 11,
        fill: hinted.has(cell) ? "#ffffff" : "#4d4d4d" }, String(cell + 1)));
    });
  }
    // The winning line: a thick bar through its cells' centres.
  const line = board.winning_cells || [];
  if (line.length) {
    const centre = (cell) => cellCorner(cell).map((v) => v + size / 2);
    const [x1, y1] = centre(line[0]), [x2, y2] = centre(line[line.length - 1]);
    overlay.appendChild(element("line", { id: "winning-line", x1, y1, x2, y2, stroke: "#1a1a1a",
      "stroke-width": 9, "stroke-linecap": "round", "stroke-opacity": 0.85,
      "data-cells": line.join(",") }));
  }
  drawCursor();
}

// The keyboard cursor, drawn while the board has the focus from the keyboard (not after a
// click: the square would sit on a cell nobody chose).
function drawCursor() {
  const overlay = document.getElementById("overlay");
  if (!overlay) return;
  document.getElementById("cursor")?.remove();
  if (document.activeElement !== $("board") || !byKeyboard) return;
  const [x, y] = cellCorner(cursor);
  overlay.appendChild(element("rect", { id: "cursor", x: x + 2, y: y + 2, width: board.cell_size - 4,
    height: board.cell_size - 4, fill: "none", stroke: "#005A8C", "stroke-dasharray": "5 3", "stroke-width": 3 }));
}

function boardClick(event) {
  const svg = $("board").querySelector("svg");
  if (!board || !svg) return;
  // The click in the drawing's own units, wherever and however large the board is drawn.
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
  const col = Math.floor((point.x - board.margin) / board.cell_size);
  const row = Math.floor((point.y - board.margin) / board.cell_size);
  if (row < 0 || col < 0 || row >= board.rows || col >= board.cols) return;
  clickCell(row * board.cols + col);
}

function drawMoves() {
  const body = $("moves").querySelector("tbody");
  body.textContent = "";
  const scored = Boolean(analysis && analysis.moves.some((move) => move.score !== null));
  $("score-head").hidden = !scored;
  $("score-legend").hidden = !scored;
  // Hidden values are hidden everywhere: the table, its legend and the value history.
  $("values").hidden = !state.hints;
  $("values-hidden").hidden = state.hints;
  if (!analysis || !state.hints) return;
  for (const move of analysis.moves) {
    const row = document.createElement("tr");
    row.className = KIND[String(move.value)];
    row.dataset.action = move.action;
    row.tabIndex = 0;
    const cells = [move.label, words(move.value, move.plies), move.plies];
    if (scored) cells.push(move.score > 0 ? `+${move.score}` : String(move.score));
    cells.forEach((text, index) => {
      const cell = document.createElement("td");
      cell.textContent = text;
      if (index === 1) cell.className = "value";
      row.appendChild(cell);
    });
    row.addEventListener("click", () => play(move.action));
    row.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); play(move.action); }
    });
    body.appendChild(row);
  }
}

function drawStatus() {
  const key = query(state.moves);
  const busy = pending.has(key) && !analysis;
  const refused = refusals.get(key);
  $("working").hidden = !busy;
  $("retry").hidden = !refused;
  $("best").disabled = !analysis || !analysis.moves.length || board.over;
  $("undo").disabled = !state.moves.length;
  $("redo").disabled = !state.redo.length;
  const colours = game().stone_colours;
  const shown = board.over ? board.winner : board.to_move;
  const swatch = $("swatch");
  swatch.hidden = !(colours && shown);
  if (colours && shown) swatch.style.background = colours[game().players.indexOf(shown)];
  let text;
  if (board.over) text = board.winner ? `${name(board.winner)} won` : "draw";
  else if (analysis && state.hints) {
    text = `${name(board.to_move)} to move: ${words(analysis.value, analysis.plies)}`;
  }
  else text = `${name(board.to_move)} to move`;
  $("status").textContent = text;
  $("status").title = analysis ? `answered by the ${analysis.source}` : "";
  if (refused) say(refused);
}

// The value history, as GamesmanUni draws it: every ply's value for both players (the first
// player's win at the top, its loss at the bottom; the second player's read the other way), the
// moves left with perfect play beside each point, and the moves that changed the outcome (or
// put off a win) marked. A click on a point goes there.
function drawHistory() {
  const [first, second] = game().names;
  const firstKey = game().players[0];
  const points = [], mistakes = new Set(), turns = new Set();
  for (let ply = 0; ply <= state.moves.length; ply++) {
    const key = query(state.moves.slice(0, ply));
    const here = analyses.get(key);
    if (!here) { points.push(pending.has(key) ? "pending" : refusals.has(key) ? "refused" : null); continue; }
    let forFirst;
    if (here.to_move === null) forFirst = here.winner === null ? 0 : here.winner === firstKey ? 1 : -1;
    else forFirst = here.to_move === firstKey ? here.value : -here.value;
    points.push({ value: forFirst, plies: here.plies });
    if (ply > 0) {
      const before = analyses.get(query(state.moves.slice(0, ply - 1)));
      if (before && before.moves.length) {
        const best = before.moves[0];
        const playedMove = before.moves.find((move) => move.action === state.moves[ply - 1]);
        if (playedMove && (playedMove.value < best.value ||
                           (playedMove.value > 0 && playedMove.plies > best.plies))) {
          mistakes.add(ply);
        }
      }
      const previous = points[ply - 1];
      if (previous && typeof previous === "object" && previous.value !== forFirst) turns.add(ply);
    }
  }
  // A fixed width, so that the text stays readable however long the game: the points close up.
  const width = 660, left = 112, right = 128, height = 164;
  const step = (width - left - right) / Math.max(8, state.moves.length);
  const labelEvery = Math.ceil(30 / step);
  const y = (value) => 74 - value * 50;
  const svg = element("svg", { viewBox: `0 0 ${width} ${height}`, id: "history-chart",
                               role: "img", "aria-label": "value history" });
  const bands = [[1, `${first} wins`, `${second} loses`], [0, "draw", "draw"],
                 [-1, `${first} loses`, `${second} wins`]];
  for (const [value, leftLabel, rightLabel] of bands) {
    svg.appendChild(element("line", { x1: left - 6, x2: width - right + 6, y1: y(value), y2: y(value),
                                      stroke: "#b0b0b0" }));
    svg.appendChild(element("text", { x: 2, y: y(value) + 6 }, leftLabel));
    svg.appendChild(element("text", { x: width - right + 10, y: y(value) + 6 }, rightLabel));
  }
  // What the numbers under the points are.
  svg.appendChild(element("text", { x: 2, y: 158, class: "axis" }, "moves left"));
  let previous = null;
  points.forEach((point, ply) => {
    const x = left + ply * step;
    if (typeof point !== "object" || point === null) {
      const mark = point === "pending" ? "…" : "?";
      svg.appendChild(element("text", { x, y: y(0) + 5, "text-anchor": "middle", class: point === "pending" ? "pending" : "unknown" }, mark));
      previous = null;
      return;
    }
    if (turns.has(ply)) {
      svg.appendChild(element("rect", { x: x - step / 2, y: 14, width: step, height: 120,
                                        fill: "#ffe8a3", class: "turn", "data-ply": ply }));
    }
    if (previous) svg.appendChild(element("line", { x1: previous[0], y1: previous[1], x2: x, y2: y(point.value), stroke: "#4d4d4d", "stroke-width": 2 }));
    const mistake = mistakes.has(ply);
    const colour = FILL[String(point.value)];
    const mark = mistake
      ? element("path", { d: `M${x - 6} ${y(point.value) - 6} l12 12 m0 -12 l-12 12`, stroke: "#A63F00", "stroke-width": 4, class: "mistake", "data-ply": ply, tabindex: 0 })
      : element("circle", { cx: x, cy: y(point.value), r: Math.min(6, Math.max(3, step / 3)), fill: colour, class: "point", "data-ply": ply, tabindex: 0 });
    const who = point.value > 0 ? `${first} wins` : point.value < 0 ? `${second} wins` : "draw";
    mark.appendChild(element("title", {}, `after move ${ply}: ${who}, ${point.plies} moves left` +
                             `${turns.has(ply) ? " (the outcome changed here)" : ""}`));
    mark.addEventListener("click", () => goTo(ply));
    mark.addEventListener("keydown", (event) => { if (event.key === "Enter") goTo(ply); });
    svg.appendChild(mark);
    // The moves left under every point (under every few when they close up: all in the title).
    svg.appendChild(element("text", { x, y: 158, "text-anchor": "middle", class: "remoteness",
      "data-ply": ply, visibility: ply % labelEvery === 0 ? "visible" : "hidden" }, String(point.plies)));
    previous = [x, y(point.value)];
  });
  $("history").textContent = "";
  $("history").appendChild(svg);
  drawMoveList(mistakes);
  drawReview();
}

// Each player's moves of the game so far reviewed as perfectplay's review() does, from the
// analyses of the positions before them; a move whose position is not analysed yet waits.
function drawReview() {
  const tally = new Map(game().players.map((key) => [key, { moves: 0, perfect: 0, good: 0, blunders: 0 }]));
  let waiting = 0;
  state.moves.forEach((action, index) => {
    const before = analyses.get(query(state.moves.slice(0, index)));
    const played = before && before.moves.find((move) => move.action === action);
    if (!played || !tally.has(before.to_move)) { waiting++; return; }
    const best = before.moves[0], counts = tally.get(before.to_move);
    counts.moves++;
    if (played.value === best.value && played.plies === best.plies) counts.perfect++;
    if (played.value === best.value) counts.good++;
    if (played.value < best.value) counts.blunders++;
  });
  const body = $("review").tBodies[0];
  body.textContent = "";
  for (const [key, counts] of tally) {
    const accuracy = counts.moves ? 100 * (counts.perfect + 0.5 * (counts.good - counts.perfect)) / counts.moves : null;
    const row = document.createElement("tr");
    row.dataset.player = key;
    for (const text of [name(key), counts.moves, counts.perfect, counts.blunders,
                        accuracy === null ? "" : `${accuracy.toFixed(1)}%`]) {
      const cell = document.createElement("td");
      cell.textContent = String(text);
      row.appendChild(cell);
    }
    body.appendChild(row);
  }
  $("review-legend").dataset.waiting = waiting;
}

function drawMoveList(mistakes) {
  const list = $("movelist");
  list.textContent = "";
  const entry = (text, ply, kind) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = text;
    button.addEventListener("click", () => goTo(ply));
    item.appendChild(button);
    item.dataset.ply = ply;
    if (kind) item.className = kind;
    list.appendChild(item);
    return item;
  };
  state.moves.forEach((action, index) => {
    const item = entry(moveName(index, action), index + 1);
    if (state.hints && mistakes.has(index + 1)) item.classList.add("mistake");
    if (index === state.moves.length - 1) item.classList.add("current");
  });
  for (const action of state.redo.slice().reverse()) {
    const ply = list.children.length + 1;
    entry(`(${moveName(ply - 1, action)})`, ply, "redo");
  }
}

// A move as a person names it: its column or cell from 1, or "row,col" from 1.
function moveName(index, action) {
  const before = analyses.get(query(state.moves.slice(0, index)));
  const move = before ? before.moves.find((m) => m.action === action) : null;
  if (move) return move.label;
  if (game().moves === "row-col" && board) {
    return `${Math.floor(action / board.cols) + 1},${(action % board.cols) + 1}`;
  }
  return String(action + 1);
}

// --- changes ------------------------------------------------------------------------
async function refresh() {
  const mine = ++generation;
  saveUrl();
  $("hints").checked = state.hints;
  const here = query(state.moves);
  try {
    board = await api("position", here);
  } catch (error) {
    if (mine !== generation) return;
    say(error.message);
    if (state.moves.length) { state.moves.pop(); state.redo = []; return refresh(); }
    board = null;
    $("board").textContent = "";
    $("status").textContent = "";
    return;
  }
  if (mine !== generation) return;
  say("");
  analysis = analyses.get(here) || null;
  drawAll();
  if (!analysis) {
    analysis = await analyzed(state.moves, () => mine === generation && drawAll());
    if (mine !== generation) return;
    drawAll();
  }
  await agentTurn(mine);
  // The earlier positions of the value history, newest first: none is left out.
  for (let ply = state.moves.length - 1; ply >= 0 && mine === generation; ply--) {
    if (!analyses.has(query(state.moves.slice(0, ply)))) {
      await analyzed(state.moves.slice(0, ply), () => mine === generation && drawHistory());
      if (mine === generation) drawHistory();
    }
  }
}

function drawAll() { drawBoard(); drawMoves(); drawStatus(); drawHistory(); }

// The analysis of the position after `moves`, or null when the server refused it (its message
// is kept to show; asking again tries again). `asked` runs once the question is out.
async function analyzed(moves, asked) {
  const key = query(moves);
  if (analyses.has(key)) return analyses.get(key);
  pending.add(key);
  refusals.delete(key);
  if (asked) asked();
  try {
    const answer = await api("analyze", key);
    analyses.set(key, answer);
    return answer;
  } catch (error) {
    refusals.set(key, error.message);
    return null;
  } finally {
    pending.delete(key);
  }
}

async function agentTurn(mine) {
  if (!state.opponent || board.over) return;
  const players = game().players;
  const agentSide = state.opponent === "first" ? players[0] : players[1];
  if (board.to_move !== agentSide) return;
  try {
    const seed = Math.floor(Math.random() * 2 ** 31);
    const answer = await api("agent", query(state.moves, { skill: state.skill, seed }));
    if (mine === generation) play(answer.action);
  } catch (error) {
    if (mine === generation) say(`the agent: ${error.message}`);
  }
}

function play(action) {
  if (!board) return;
  // A move that cannot be played says why, rather than doing nothing without a word.
  if (board.over) { say("The game is over: Undo, or start a New game."); return; }
  if (!board.legal.some((entry) => entry.action === action)) { say(refusedMove(action)); return; }
  state.moves.push(action);
  state.redo = [];
  refresh();
}

// Why an action is no legal move here, as a person reads it (from 1).
function refusedMove(action) {
  if (game().moves === "column") {
    return action >= 0 && action < board.cols ? `Column ${action + 1} is full.`
                                               : `There is no column ${action + 1}.`;
  }
  if (action < 0 || action >= board.rows * board.cols) return `There is no cell ${action + 1}.`;
  if (game().moves === "cell") return `Cell ${action + 1} is taken.`;
  return "That is no move here: a piece moves to a foothold next to it.";
}

function playBest() {
  if (analysis && analysis.moves.length && !board.over) play(analysis.moves[0].action);
}

function undo() {
  if (!state.moves.length) return;
  state.redo.push(state.moves.pop());
  refresh();
}

function redo() {
  if (!state.redo.length) return;
  state.moves.push(state.redo.pop());
  refresh();
}

function goTo(ply) {
  const line = state.moves.concat(state.redo.slice().reverse());
  state.moves = line.slice(0, ply);
  state.redo = line.slice(ply).reverse();
  refresh();
}

function retry() {
  refusals.delete(query(state.moves));
  say("");
  refresh();
}

function clickCell(cell) {
  const edit = $("edit").value;
  if ("aloc" in state.options && edit) return editFootholds(cell, edit);
  cursor = cell;
  const action = game().moves === "column" ? cell % board.cols : cell;
  play(action);
}

function editFootholds(cell, edit) {
  readOptions();
  const row = Math.floor(cell / board.cols), col = cell % board.cols;
  if (edit === "hole") {
    const rows = state.options.board.split("/");
    const line = rows[row].split("");
    line[col] = line[col] === "1" ? "0" : "1";
    rows[row] = line.join("");
    state.options.board = rows.join("/");
  } else {
    state.options[edit] = `${row},${col}`;
  }
  state.start = "";
  state.moves = []; state.redo = [];
  showSetup();
  $("edit").value = edit;
  refresh();
}

function newGame(chosen) {
  state.game = chosen;
  remember(chosen);
  state.options = { ...games[chosen].options };
  state.start = ""; state.moves = []; state.redo = [];
  showSetup();
  refresh();
}

function remember(chosen) {
  try { localStorage.setItem(LAST_GAME, chosen); } catch (error) { /* storage off: no memory */ }
}

function lastGame() {
  try { return localStorage.getItem(LAST_GAME); } catch (error) { return null; }
}

function toggleFullscreen() {
  if (document.fullscreenElement) document.exitFullscreen();
  else document.documentElement.requestFullscreen?.();
}

function keyboard(event) {
  if (!board) return;
  const key = event.key;
  const steps = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  if (steps[key]) {
    const row = Math.min(board.rows - 1, Math.max(0, Math.floor(cursor / board.cols) + steps[key][0]));
    const col = Math.min(board.cols - 1, Math.max(0, cursor % board.cols + steps[key][1]));
    cursor = row * board.cols + col;
    drawCursor();
  } else if (key === "Enter" || key === " ") clickCell(cursor);
  else if (/^[1-9]$/.test(key)) {
    const number = Number(key) - 1;  // digits count columns and cells from 1
    if (game().moves === "row-col") return;
    play(number);
  } else if (key === "u" || key === "Backspace") undo();
  else if (key === "r") redo();
  else if (key === "b") playBest();
  else if (key === "h") { state.hints = !state.hints; refresh(); }
  else if (key === "f") toggleFullscreen();
  else return;
  event.preventDefault();
}

// --- tablebases ---------------------------------------------------------------------
async function showTables() {
  const tables = await api("tablebases", "");
  if (!tables.length) return;
  $("tables").hidden = false;
  for (const table of tables) {
    const button = document.createElement("button");
    button.textContent = `${table.rows}x${table.cols} k=${table.k}`;
    button.addEventListener("click", () => showStats(table));
    $("table-list").appendChild(button);
  }
}

async function showStats(table) {
  const size = `rows=${table.rows}&cols=${table.cols}&k=${table.k}`;
  let stats;
  try { stats = await api("tablebase/stats", size); } catch (error) { say(error.message); return; }
  const most = Math.max(...stats.counts.map((entry) => entry.plies));
  const grid = document.createElement("table");
  const head = grid.insertRow();
  head.insertCell().textContent = "value \\ moves left";
  for (let plies = 0; plies <= most; plies++) head.insertCell().textContent = plies;
  for (const value of [1, 0, -1]) {
    const row = grid.insertRow();
    row.insertCell().textContent = `${LETTER[String(value)]} (${stats.by_value[String(value)]})`;
    for (let plies = 0; plies <= most; plies++) {
      const cell = row.insertCell();
      const entry = stats.counts.find((e) => e.value === value && e.plies === plies);
      if (!entry) continue;
      const button = document.createElement("button");
      button.textContent = entry.count;
      button.dataset.value = value; button.dataset.plies = plies;
      button.addEventListener("click", () => showExamples(table, value, plies));
      cell.appendChild(button);
    }
  }
  $("table-stats").textContent = `${stats.reachable} positions reachable; ${stats.longest.plies} moves at the most.`;
  $("table-stats").appendChild(grid);
}

async function showExamples(table, value, plies) {
  const size = `rows=${table.rows}&cols=${table.cols}&k=${table.k}&value=${value}&plies=${plies}`;
  let found;
  try { found = await api("tablebase/examples", size); } catch (error) { say(error.message); return; }
  const list = $("table-examples");
  list.textContent = "";
  for (const text of found.boards) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = "#";
    link.textContent = text;
    link.addEventListener("click", (event) => {
      event.preventDefault();
      state.game = table.game;
      state.options = { rows: String(table.rows), cols: String(table.cols), k: String(table.k) };
      state.start = text; state.moves = []; state.redo = [];
      showSetup();
      refresh();
    });
    item.appendChild(link);
    list.appendChild(item);
  }
}

// --- start --------------------------------------------------------------------------
async function main() {
  for (const described of await api("games", "")) {
    games[described.name] = described;
    const option = document.createElement("option");
    option.value = described.name;
    option.textContent = described.title;
    $("game").appendChild(option);
  }
  // The game last played here, else Connect Four (what most come for), else the first one.
  const names = Object.keys(games);
  state.game = [lastGame(), "connect4"].find((chosen) => chosen in games) || names[0];
  if (!readUrl()) state.options = { ...game().options };
  remember(state.game);
  showSetup();
  $("game").addEventListener("change", () => newGame($("game").value));
  $("setup").addEventListener("submit", (event) => {
    event.preventDefault();
    readOptions();
    state.start = ""; state.moves = []; state.redo = [];
    refresh();
  });
  $("paste-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const before = { options: { ...state.options }, start: state.start };
    readOptions();
    state.start = $("paste").value.trim();
    try {
      await api("position", query([]));
    } catch (error) {
      // The game shown stays; the message is the library's.
      Object.assign(state, before);
      say(error.message);
      return;
    }
    state.moves = []; state.redo = [];
    refresh();
  });
  $("hints").addEventListener("change", () => { state.hints = $("hints").checked; refresh(); });
  $("compact").addEventListener("change", () => { state.compact = $("compact").checked; saveUrl(); drawAll(); });
  $("opponent").addEventListener("change", () => { state.opponent = $("opponent").value; refresh(); });
  $("skill").addEventListener("change", () => {
    const skill = Number($("skill").value);
    state.skill = skill >= 0 && skill <= 1 ? skill : 1;
    refresh();
  });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("best").addEventListener("click", playBest);
  $("retry").addEventListener("click", retry);
  $("fullscreen").addEventListener("click", toggleFullscreen);
  $("board").addEventListener("keydown", keyboard);
  $("board").addEventListener("click", boardClick);
  // Whether the board's focus came from a key (Tab, arrows) or a click decides its cursor.
  document.addEventListener("keydown", () => { byKeyboard = true; }, true);
  document.addEventListener("mousedown", () => { byKeyboard = false; }, true);
  $("board").addEventListener("focus", () => board && drawCursor());
  $("board").addEventListener("blur", () => board && drawCursor());
  window.addEventListener("hashchange", () => {
    if (readUrl()) { remember(state.game); showSetup(); refresh(); }
  });
  await refresh();
  showTables();
}

main();
