// The perfectplay analysis board: one page for every game the server describes.
// State lives in the URL's fragment (game, options, start, moves, opponent, skill, hints),
// so a reload or a shared link restores it. Every answer comes from the JSON API.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const LETTER = { "1": "W", "0": "D", "-1": "L" };
const WORD = { "1": "win", "0": "draw", "-1": "loss" };

let games = {};          // name -> description from /api/games
const state = { game: "tictactoe", options: {}, start: "", moves: [], redo: [],
                opponent: "", skill: 1, hints: true };
let board = null;        // the /api/position answer shown
let analysis = null;     // the /api/analyze answer of the position shown (or null)
const analyses = new Map();  // query -> analyze answer, or {error}
let generation = 0;      // bumped on every change; late answers of older ones are dropped
let cursor = 0;          // keyboard cursor: a cell index

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

function saveUrl() {
  const params = new URLSearchParams(query(state.moves));
  if (state.opponent) params.set("vs", state.opponent);
  if (state.skill !== 1) params.set("skill", String(state.skill));
  if (!state.hints) params.set("hints", "0");
  history.replaceState(null, "", "#" + params.toString());
}

function readUrl() {
  const params = new URLSearchParams(location.hash.slice(1));
  const name = params.get("game");
  if (!name || !games[name]) return false;
  state.game = name;
  state.options = { ...games[name].options };
  for (const option of Object.keys(state.options)) {
    if (params.has(option)) state.options[option] = params.get(option);
  }
  state.start = params.get("start") || "";
  state.moves = (params.get("moves") || "").split(",").filter((m) => m !== "").map(Number);
  state.redo = [];
  state.opponent = params.get("vs") || "";
  state.skill = params.has("skill") ? Number(params.get("skill")) : 1;
  state.hints = params.get("hints") !== "0";
  return true;
}

// --- the setup controls -------------------------------------------------------------
function showSetup() {
  $("game").value = state.game;
  const holder = $("options");
  holder.textContent = "";
  for (const [name, value] of Object.entries(state.options)) {
    const label = document.createElement("label");
    label.textContent = ` ${name} `;
    const input = document.createElement("input");
    input.id = `option-${name}`;
    input.name = name;
    input.value = value;
    if (String(value).length > 4) input.className = "wide";
    label.appendChild(input);
    holder.appendChild(label);
  }
  $("paste").placeholder = games[state.game].paste || "";
  $("paste").value = state.start;
  $("hints").checked = state.hints;
  $("opponent").value = state.opponent;
  $("skill").value = state.skill;
  $("edit-label").hidden = state.game !== "footholds";
}

function readOptions() {
  for (const name of Object.keys(state.options)) state.options[name] = $(`option-${name}`).value.trim();
}

// --- drawing ------------------------------------------------------------------------
function element(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
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
  const overlay = element("g", { id: "overlay" });
  svg.appendChild(overlay);
  if (state.hints && analysis) {
    const size = board.cell_size;
    for (const move of analysis.moves) {
      const legal = board.legal.find((entry) => entry.action === move.action);
      const [x, y] = cellCorner(legal.cell);
      const key = String(move.value);
      const group = element("g", { class: `hint ${WORD[key]}`, "data-action": move.action,
                                   "data-value": move.value, "data-plies": move.plies });
      group.appendChild(element("title", {},
        `${JSON.stringify(move.move)}: ${WORD[key]} for ${board.to_move}, ${move.plies} plies`));
      group.appendChild(element("rect", { x: x + 6, y: y + 6, width: size - 12, height: size - 12,
                                          rx: 6, fill: board.styles[key][1], "fill-opacity": 0.85 }));
      group.appendChild(element("text", { x: x + size / 2, y: y + size / 2 + 5, "text-anchor": "middle",
                                          "font-size": 15, "font-weight": "bold", fill: "#fff" },
                                `${LETTER[key]}${move.plies}`));
      overlay.appendChild(group);
    }
  }
  drawCursor();
}

// The keyboard cursor, drawn while the board has the focus.
function drawCursor() {
  const overlay = document.getElementById("overlay");
  if (!overlay) return;
  document.getElementById("cursor")?.remove();
  if (document.activeElement !== $("board")) return;
  const [x, y] = cellCorner(cursor);
  overlay.appendChild(element("rect", { id: "cursor", x: x + 2, y: y + 2, width: board.cell_size - 4,
    height: board.cell_size - 4, fill: "none", stroke: "#000", "stroke-dasharray": "4 3", "stroke-width": 2 }));
}

function boardClick(event) {
  const svg = $("board").querySelector("svg");
  if (!board || !svg) return;
  const box = svg.getBoundingClientRect();
  const scale = svg.viewBox.baseVal.width / box.width;
  const col = Math.floor(((event.clientX - box.left) * scale - board.margin) / board.cell_size);
  const row = Math.floor(((event.clientY - box.top) * scale - board.margin) / board.cell_size);
  if (row < 0 || col < 0 || row >= board.rows || col >= board.cols) return;
  clickCell(row * board.cols + col);
}

function drawMoves() {
  const body = $("moves").querySelector("tbody");
  body.textContent = "";
  if (!analysis || !state.hints) return;
  for (const move of analysis.moves) {
    const row = document.createElement("tr");
    row.className = WORD[String(move.value)];
    row.dataset.action = move.action;
    for (const text of [JSON.stringify(move.move), LETTER[String(move.value)], move.plies]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.appendChild(cell);
    }
    row.addEventListener("click", () => play(move.action));
    body.appendChild(row);
  }
}

function drawStatus(error) {
  let text;
  if (board.over) text = board.winner ? `${board.winner} won` : "draw";
  else if (analysis) {
    const key = String(analysis.value);
    text = `${board.to_move} to move: ${WORD[key]} (${LETTER[key]}${analysis.plies}), ` +
           `${analysis.plies} plies with perfect play [${analysis.source}]`;
  } else text = `${board.to_move} to move` + (error ? ` — ${error}` : "");
  $("status").textContent = text;
}

// The value for the first player after each ply, and the moves that gave value away.
function drawHistory() {
  const first = games[state.game].players[0];
  const points = [], mistakes = new Set();
  for (let ply = 0; ply <= state.moves.length; ply++) {
    const here = analyses.get(query(state.moves.slice(0, ply)));
    if (!here || here.error) { points.push(null); continue; }
    let forFirst;
    if (here.to_move === null) forFirst = here.winner === null ? 0 : here.winner === first ? 1 : -1;
    else forFirst = here.to_move === first ? here.value : -here.value;
    points.push({ value: forFirst, plies: here.plies });
    if (ply > 0) {
      const before = analyses.get(query(state.moves.slice(0, ply - 1)));
      if (before && !before.error && before.moves.length) {
        const best = before.moves[0];
        const played = before.moves.find((move) => move.action === state.moves[ply - 1]);
        if (played && (played.value < best.value || (played.value > 0 && played.plies > best.plies))) {
          mistakes.add(ply);
        }
      }
    }
  }
  const step = 26, width = Math.max(200, 30 + step * state.moves.length), height = 110;
  const y = (value) => 55 - value * 35;
  const svg = element("svg", { width, height, viewBox: `0 0 ${width} ${height}`, id: "history-chart" });
  for (const [value, label] of [[1, `${first} wins`], [0, "draw"], [-1, `${first} loses`]]) {
    svg.appendChild(element("line", { x1: 20, x2: width, y1: y(value), y2: y(value), stroke: "#ddd" }));
    svg.appendChild(element("text", { x: 0, y: y(value) - 3, fill: "#666" }, label));
  }
  let previous = null;
  points.forEach((point, ply) => {
    const x = 25 + ply * step;
    if (!point) {
      svg.appendChild(element("text", { x: x - 3, y: 58, fill: "#999", class: "unknown" }, "?"));
      previous = null;
      return;
    }
    if (previous) svg.appendChild(element("line", { x1: previous[0], y1: previous[1], x2: x, y2: y(point.value), stroke: "#555" }));
    const mistake = mistakes.has(ply);
    const mark = mistake
      ? element("path", { d: `M${x - 5} ${y(point.value) - 5} l10 10 m0 -10 l-10 10`, stroke: "#D55E00", "stroke-width": 3, class: "mistake", "data-ply": ply })
      : element("circle", { cx: x, cy: y(point.value), r: 4, fill: "#0072B2", class: "point", "data-ply": ply });
    mark.appendChild(element("title", {}, `after ply ${ply}: ${point.value > 0 ? "win" : point.value < 0 ? "loss" : "draw"} for ${first}, ${point.plies} plies left${mistake ? " — a mistake" : ""}`));
    svg.appendChild(mark);
    svg.appendChild(element("text", { x: x - 4, y: 105, fill: "#444" }, String(point.plies)));
    previous = [x, y(point.value)];
  });
  $("history").textContent = "";
  $("history").appendChild(svg);
  const list = $("movelist");
  list.textContent = "";
  state.moves.forEach((action, index) => {
    const item = document.createElement("li");
    item.textContent = moveName(index, action);
    item.dataset.ply = index + 1;
    if (mistakes.has(index + 1)) item.classList.add("mistake");
    if (index === state.moves.length - 1) item.classList.add("current");
    item.addEventListener("click", () => goTo(index + 1));
    list.appendChild(item);
  });
  for (const action of state.redo.slice().reverse()) {
    const item = document.createElement("li");
    item.textContent = `(${moveName(list.children.length, action)})`;
    item.className = "redo";
    const ply = list.children.length + 1;
    item.addEventListener("click", () => goTo(ply));
    list.appendChild(item);
  }
}

function moveName(index, action) {
  const before = analyses.get(query(state.moves.slice(0, index)));
  const move = before && !before.error ? before.moves.find((m) => m.action === action) : null;
  return move ? JSON.stringify(move.move) : `action ${action}`;
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
  analysis = null;
  drawBoard(); drawMoves(); drawStatus(); drawHistory();
  analysis = await analyzed(state.moves);
  if (mine !== generation) return;
  const error = analysis.error;
  if (error) { analysis = null; say(error); }
  drawBoard(); drawMoves(); drawStatus(error); drawHistory();
  await agentTurn(mine);
  // The earlier positions of the value history, newest first.
  for (let ply = state.moves.length - 1; ply >= 0 && mine === generation; ply--) {
    if (!analyses.has(query(state.moves.slice(0, ply)))) {
      await analyzed(state.moves.slice(0, ply));
      if (mine === generation) drawHistory();
    }
  }
}

async function analyzed(moves) {
  const key = query(moves);
  if (!analyses.has(key)) {
    try {
      analyses.set(key, await api("analyze", key));
    } catch (error) {
      return { error: error.message };  // not kept: a later try may find a free process
    }
  }
  return analyses.get(key);
}

async function agentTurn(mine) {
  if (!state.opponent || board.over) return;
  const players = games[state.game].players;
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
  if (!board || board.over) return;
  if (!board.legal.some((entry) => entry.action === action)) return;
  state.moves.push(action);
  state.redo = [];
  refresh();
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

function clickCell(cell) {
  const edit = $("edit").value;
  if (state.game === "footholds" && edit) return editFootholds(cell, edit);
  cursor = cell;
  const action = games[state.game].moves === "column" ? cell % board.cols : cell;
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

function newGame(name) {
  state.game = name;
  state.options = { ...games[name].options };
  state.start = ""; state.moves = []; state.redo = [];
  showSetup();
  refresh();
}

function keyboard(event) {
  if (!board) return;
  const key = event.key;
  const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  if (moves[key]) {
    const row = Math.min(board.rows - 1, Math.max(0, Math.floor(cursor / board.cols) + moves[key][0]));
    const col = Math.min(board.cols - 1, Math.max(0, cursor % board.cols + moves[key][1]));
    cursor = row * board.cols + col;
    drawCursor();
  } else if (key === "Enter" || key === " ") clickCell(cursor);
  else if (/^[1-9]$/.test(key)) {
    const number = Number(key) - 1;
    if (games[state.game].moves === "column") play(number);
    else if (state.game === "tictactoe") play(number);
    else return;
  } else if (key === "u" || key === "Backspace") undo();
  else if (key === "r") redo();
  else if (key === "h") { state.hints = !state.hints; refresh(); }
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
  head.insertCell().textContent = "value \\ plies";
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
  $("table-stats").textContent = `${stats.reachable} positions reachable; ${stats.longest.plies} plies at the most.`;
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
      state.game = "mnk";
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
  for (const game of await api("games", "")) {
    games[game.name] = game;
    const option = document.createElement("option");
    option.value = game.name;
    option.textContent = game.title;
    $("game").appendChild(option);
  }
  if (!readUrl()) state.options = { ...games[state.game].options };
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
  $("opponent").addEventListener("change", () => { state.opponent = $("opponent").value; refresh(); });
  $("skill").addEventListener("change", () => {
    const skill = Number($("skill").value);
    state.skill = skill >= 0 && skill <= 1 ? skill : 1;
    refresh();
  });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("board").addEventListener("keydown", keyboard);
  $("board").addEventListener("click", boardClick);
  $("board").addEventListener("focus", () => board && drawCursor());
  $("board").addEventListener("blur", () => board && drawCursor());
  window.addEventListener("hashchange", () => { if (readUrl()) { showSetup(); refresh(); } });
  await refresh();
  showTables();
}

main();
