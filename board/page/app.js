// mancala-board's page: draws the board and plays through the engine's protocol only. It knows
// no rules and no game: the games and their boards come from the engine's `variant` listing, and
// the legal moves, the positions after moves and the end of the game from its answers (`query
// moves`, `query fen`, `query gameover`, `d`), as in any GUI.
'use strict';

// The engine's games, by name: { title, pits (a row), total }, in the engine's order.
const GAMES = new Map();
const QUERY_TIMEOUT = 5000;
const MARGIN_TIMEOUT = 5000;

const $ = (id) => document.getElementById(id);

const state = {
  boardId: null,
  socket: null,
  variant: null, // the engine's current game, from its listing
  base: 'startpos', // 'startpos', 'fen <string>' or 'random <seed>'
  moves: [],
  position: null, // parsed position string
  previous: null, // the position before the last move, to show its sowing
  fresh: true, // the next position read back starts a game (Load, New game, a deal): no sowing shown
  legal: [],
  over: false,
  human: 'S', // the side a person plays, or null for engine vs engine
  thinking: false,
  generation: 0, // bumped whenever the game changes under a running search
  lines: new Map(),
  pending: [], // requests waiting for their answer, in the order sent
  nextRequest: 1, // the number of the next request (the server names a refused one by it)
  refused: new Map(), // request number → why, for refused commands that expect no answer
  broken: false,
  updating: 0, // position updates in flight: no clicks meanwhile
  interrupting: false, // a search is being stopped: no new one starts by itself
  animating: false, // a move is being shown counter by counter
  skip: false, // the person asked to see the end of the move at once
};

// People who ask their system for less motion see each move's result at once.
const REDUCED_MOTION = window.matchMedia('(prefers-reduced-motion: reduce)');

// ---------------------------------------------------------------------------------------------
// Talking to the engine.

function setStatus(text, bad) {
  $('engine-status').textContent = text;
  $('engine-status').classList.toggle('bad', !!bad);
  $('restart').hidden = !bad;
}

function showMessage(text) {
  $('message').textContent = text || '';
}

// The page's state, for people (the cursor, the buttons) and for tests: 'broken', 'updating'
// (reading back a position), 'thinking', 'over' or 'idle'.
function setBusy(busy) {
  document.body.dataset.human = state.human || '';
  document.body.dataset.state = state.broken ? 'broken' : state.updating || state.animating ? 'updating' : busy || state.interrupting ? 'thinking' : state.over ? 'over' : 'idle';
}

// Sends `line` numbered, as the board server wants it; returns the number.
function send(line) {
  const number = state.nextRequest++;
  state.socket.send(`${number} ${line}`);
  return number;
}

// Sends `line`; resolves with the lines received until `done(line)` says the answer is complete
// (or at once, with the request's number, when `done` is null: the command has no answer). A
// request the server refuses is rejected with the reason, whatever else is still arriving.
function request(line, done, timeout, onLine) {
  return new Promise((resolve, reject) => {
    if (!state.socket || state.socket.readyState !== WebSocket.OPEN || state.broken) {
      reject(new Error('the engine is not connected'));
      return;
    }
    const number = send(line);
    if (!done) {
      resolve(number);
      return;
    }
    const entry = { number, line, done, onLine, lines: [], resolve, reject };
    entry.timer = setTimeout(() => engineBroke(`the engine does not answer '${line}'`), timeout || QUERY_TIMEOUT);
    state.pending.push(entry);
  });
}

// Sends a command that has no answer of its own and waits until the engine has taken it: it
// fails with the reason if the server refused it or the engine answered with an error.
async function command(line) {
  const number = await request(line, null);
  const lines = await request('isready', (l) => l === 'readyok');
  const refused = state.refused.get(number);
  state.refused.delete(number);
  if (refused) throw new Error(refused);
  const error = lines.find((l) => l.startsWith('info string error'));
  if (error) throw new Error(error.slice('info string error '.length));
}

function response(what) {
  return request(`query ${what}`, (l) => l.startsWith('response')).then((lines) => {
    const last = lines[lines.length - 1];
    return last.slice('response'.length).trim();
  });
}

function received(text) {
  if (text === 'board taken-over') {
    // Another connection has this board now; this one is closed (its closing is not news).
    state.socket = null;
    engineBroke('another connection took this board over: press “Restart the engine” for a board of your own');
    return;
  }
  if (text.startsWith('board exit')) {
    engineBroke('the engine stopped (it may have crashed)');
    return;
  }
  if (text.startsWith('board refused ')) {
    // `board refused <number> <why>`: that request never reached the engine.
    const rest = text.slice('board refused '.length);
    const space = rest.indexOf(' ');
    const number = Number(rest.slice(0, space));
    const why = rest.slice(space + 1);
    const at = state.pending.findIndex((entry) => entry.number === number);
    if (at >= 0) {
      const [entry] = state.pending.splice(at, 1);
      clearTimeout(entry.timer);
      entry.reject(new Error(why));
    } else {
      state.refused.set(number, why);
    }
    return;
  }
  const head = state.pending[0];
  if (!head) {
    return; // a line nobody waits for (a stopped search's bestmove after an undo)
  }
  head.lines.push(text);
  if (head.onLine) head.onLine(text);
  if (head.done(text)) {
    clearTimeout(head.timer);
    state.pending.shift();
    head.resolve(head.lines);
  }
}

function engineBroke(why) {
  state.broken = true;
  state.thinking = false;
  setStatus(why, true);
  const waiting = state.pending;
  state.pending = [];
  for (const entry of waiting) {
    clearTimeout(entry.timer);
    entry.reject(new Error(why));
  }
  setBusy(false);
  render(); // no pit takes a click until the engine is back
}

async function api(path, method) {
  const reply = await fetch(path, { method: method || 'POST', headers: { 'X-Mancala-Board': '1' } });
  if (!reply.ok) {
    let why = `${reply.status}`;
    try { why = (await reply.json()).error; } catch (e) { /* not JSON */ }
    throw new Error(why);
  }
  return reply.status === 204 ? null : reply.json();
}

function connect() {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://${location.host}/api/boards/${state.boardId}/socket`);
    socket.onopen = () => { state.socket = socket; resolve(); };
    socket.onerror = () => reject(new Error('cannot connect to the board'));
    socket.onmessage = (event) => received(event.data);
    socket.onclose = () => {
      if (state.socket === socket) engineBroke('the connection to the board was lost');
    };
  });
}

// Reads the engine's games from `variant` (`info string variant <name> <title> 2x<N> <total>
// counters[, sown into stores][, any total][ (current)]`) and offers them in the game list.
// Any two-row game the engine describes is drawn: its pits, its stores, its counters.
async function learnGames() {
  await request('variant', null);
  const lines = await request('isready', (l) => l === 'readyok');
  if (state.refused.size) throw new Error([...state.refused.values()][0]);
  GAMES.clear();
  let current = null;
  for (const line of lines) {
    const m = /^info string variant (\S+) (.*) 2x(\d+) (\d+) counters((?:, [^,()]+)*)( \(current\))?$/.exec(line);
    if (!m) continue;
    const traits = m[5].split(', ').filter((t) => t);
    GAMES.set(m[1], {
      title: m[2],
      pits: Number(m[3]),
      total: Number(m[4]),
      sownStores: traits.includes('sown into stores'),
    });
    if (m[6]) current = m[1];
  }
  if (!GAMES.size) throw new Error('the engine lists no games');
  const select = $('variant');
  select.replaceChildren(...[...GAMES].map(([name, game]) => {
    const option = document.createElement('option');
    option.value = name;
    option.textContent = `${game.title} (2×${game.pits})`;
    return option;
  }));
  if (!state.variant || !GAMES.has(state.variant)) state.variant = current || [...GAMES.keys()][0];
  select.value = state.variant;
}

// Whether the current game is one of deals and a side choice (its moves are forced): the
// engine answers `query side` for such a game only.
async function offerDeal() {
  const lines = await request('query side', (l) => l.startsWith('response') || l.startsWith('info string error'));
  $('deal').hidden = !lines[lines.length - 1].startsWith('response');
}

async function startEngine() {
  await request('uci', (l) => l === 'uciok', 10000);
  await learnGames();
  await command(`variant ${state.variant}`);
  await command(`setoption name MultiPV value ${$('multipv').value}`);
  state.broken = false;
  setStatus('engine ready');
}

async function openBoard() {
  state.boardId = (await api('/api/boards')).id;
  await connect();
}

// A new engine process for this board (or a new board, if the server closed this one or the
// connection to it was lost), then the game as it was.
async function restartEngine() {
  try {
    setStatus('restarting the engine…');
    const connected = state.socket && state.socket.readyState === WebSocket.OPEN;
    let reopen = !connected;
    if (connected) {
      try {
        await api(`/api/boards/${state.boardId}/restart`);
      } catch (e) {
        if (e.message !== 'no such board') throw e;
        reopen = true;
      }
    }
    if (reopen) {
      if (connected) {
        const old = state.socket;
        state.socket = null; // its closing is not news
        old.close();
      }
      await openBoard();
    }
    state.pending = [];
    state.broken = false;
    state.thinking = false;
    state.generation += 1;
    await startEngine();
    await refresh();
  } catch (e) {
    setStatus(`cannot restart the engine: ${e.message}`, true);
  }
}

// ---------------------------------------------------------------------------------------------
// The game.

function moveName(pit, n) {
  return pit < n ? String.fromCharCode(65 + pit) : String.fromCharCode(97 + pit - n);
}

function parsePosition(text) {
  const n = GAMES.get(state.variant).pits;
  const fields = text.split('-');
  return {
    text,
    pits: fields.slice(0, 2 * n).map(Number),
    captured: [Number(fields[2 * n]), Number(fields[2 * n + 1])],
    side: fields[2 * n + 2],
    lastFour: fields[2 * n + 3],
  };
}

function positionCommand() {
  return `position ${state.base}${state.moves.length ? ' moves ' + state.moves.join(' ') : ''}`;
}

// Sets the engine's game to ours and reads back the position, the legal moves and the end.
async function refresh() {
  const generation = state.generation;
  state.updating += 1;
  setBusy(false);
  try {
    await readBack(generation);
  } finally {
    state.updating -= 1;
    setBusy(state.thinking);
  }
  if (generation !== state.generation) return;
  render();
  maybeThink();
}

async function readBack(generation) {
  await command(positionCommand());
  const fen = await response('fen');
  const legal = (await response('moves')).split(' ').filter((m) => m);
  const over = (await response('gameover')) === 'true';
  if (generation !== state.generation) return;
  state.previous = state.fresh ? null : state.position;
  state.fresh = false;
  state.position = parsePosition(fen);
  state.legal = legal;
  state.over = over;
  $('result').textContent = '';
  delete $('result').dataset.outcome;
  if (over) {
    const diagram = await request('d', (l) => l.startsWith('Game over:'));
    const end = diagram[diagram.length - 1].slice('Game over: '.length);
    const [south, north] = (await response('score')).split(' ').map(Number);
    $('result').textContent = resultText(south, north, end);
  }
}

// The end of the game, for the person playing: "You won 40–32 (board empty)", "You lost …",
// "Draw …"; in engine vs engine, who won.
function resultText(south, north, end) {
  const rule = end.replace(/\s*\(.*\)$/, '');
  const mine = state.human === 'N' ? north : south;
  const theirs = state.human === 'N' ? south : north;
  let outcome;
  if (south === north) outcome = `Draw ${south}–${north}`;
  else if (!state.human) outcome = `${south > north ? 'South' : 'North'} won ${Math.max(south, north)}–${Math.min(south, north)}`;
  else outcome = `${mine > theirs ? 'You won' : 'You lost'} ${mine}–${theirs}`;
  $('result').dataset.outcome = south === north ? 'draw' : !state.human ? 'over' : mine > theirs ? 'won' : 'lost';
  return `${outcome} (${rule})`;
}

// Forgets the engine's lines and evaluation: they were about another game.
function resetAnalysis() {
  state.lines.clear();
  renderLines();
  $('evalfill').style.width = '50%';
  $('evaltext').textContent = '';
}

function humanToMove() {
  return state.human && state.position && state.position.side === state.human && !state.over;
}

// Whether a click may play now: the person's turn, and no update in flight.
function canPlay() {
  return humanToMove() && !state.updating && !state.thinking && !state.broken;
}

function maybeThink() {
  setBusy(false);
  // While a search is being interrupted, the control that interrupts it decides what comes next.
  if (state.over || state.thinking || state.broken || state.interrupting || !state.position) return;
  if (!humanToMove()) think();
}

async function think() {
  state.thinking = true;
  setBusy(true);
  state.lines.clear();
  const generation = state.generation;
  const side = state.position.side;
  const movetime = Number($('movetime').value);
  renderTurn();
  try {
    const lines = await request(`go movetime ${movetime}`, (l) => l.startsWith('bestmove'),
      movetime + MARGIN_TIMEOUT, (l) => { if (l.startsWith('info depth')) showInfo(l, side); });
    state.thinking = false;
    if (generation !== state.generation) {
      // The game changed under the search (undo, new game, swap, engine vs engine off): its
      // move is dropped, and the board is drawn for whoever is to move now.
      render();
      maybeThink();
      return;
    }
    const move = lines[lines.length - 1].split(' ')[1];
    if (!move || move === '(none)') { setBusy(false); return; }
    await showSowing(move, generation);
    if (generation !== state.generation) {
      render();
      maybeThink();
      return;
    }
    state.moves.push(move);
    await refresh();
  } catch (e) {
    state.thinking = false;
    if (!state.broken) showMessage(e.message);
  }
}

async function play(move) {
  if (!canPlay() || !state.legal.includes(move)) return;
  showMessage('');
  await showSowing(move, state.generation);
  state.moves.push(move);
  try {
    await refresh();
  } catch (e) {
    state.moves.pop();
    showMessage(e.message);
  }
}

// Shows `move` (legal in the position on the board, which the engine holds too) counter by
// counter, as the engine tells it (`query sowing`): each lift, each counter that falls, each
// capture. Fast (under two seconds for the longest relay), stopped by a click on the board, a
// key or any control, and not shown at all to people who ask for reduced motion.
async function showSowing(move, generation) {
  // No clicks, and no "idle" for anyone watching, until the move is on the board.
  state.updating += 1;
  setBusy(false);
  try {
    await tellSowing(move, generation);
  } finally {
    state.updating -= 1;
    setBusy(state.thinking);
  }
}

async function tellSowing(move, generation) {
  let trace;
  try {
    const lines = await request(`query sowing ${move}`, (l) => l.startsWith('response') || l.startsWith('info string error'));
    const last = lines[lines.length - 1];
    if (!last.startsWith('response ')) return;
    trace = last.slice('response '.length);
  } catch (e) {
    return; // the move is still played; the refusal, if any, is the position's to report
  }
  $('board').dataset.lastSowing = `${move}: ${trace}`;
  if (REDUCED_MOTION.matches || trace === 'pass' || !state.position) return;
  const n = GAMES.get(state.variant).pits;
  const pitOf = (letter) => letter >= 'a' ? n + letter.charCodeAt(0) - 97 : letter.charCodeAt(0) - 65;
  const pits = [...state.position.pits];
  const captured = [...state.position.captured];
  const words = trace.split(' ');
  const pause = Math.max(8, Math.min(90, 1800 / words.length));
  state.animating = true;
  state.skip = false;
  setBusy(state.thinking);
  $('board').classList.add('sowing');
  try {
    for (const word of words) {
      if (state.skip || generation !== state.generation || state.broken) break;
      let m;
      if ((m = /^([A-Za-z]):(\d+)$/.exec(word))) {
        const pit = pitOf(m[1]);
        pits[pit] = 0;
        showPit(pit, 0, 'lifted');
      } else if ((m = /^x([A-Za-z]):(\d+)>([SN])$/.exec(word))) {
        const pit = pitOf(m[1]);
        const side = m[3] === 'S' ? 0 : 1;
        pits[pit] -= Number(m[2]);
        captured[side] += Number(m[2]);
        showPit(pit, pits[pit], 'captured');
        showStore(side, captured[side]);
      } else if ((m = /^\*([SN])$/.exec(word))) {
        const side = m[1] === 'S' ? 0 : 1;
        captured[side] += 1;
        showStore(side, captured[side]);
      } else if (/^[A-Za-z]$/.test(word)) {
        const pit = pitOf(word);
        pits[pit] += 1;
        showPit(pit, pits[pit], 'dropped');
      } else {
        continue; // `again`, `endless`: the position read back says what follows
      }
      await new Promise((r) => setTimeout(r, pause));
    }
  } finally {
    state.animating = false;
    $('board').classList.remove('sowing');
    setBusy(state.thinking);
  }
}

// One pit during a move's showing: its stones and count, and what just happened to it.
function showPit(pit, count, what) {
  const button = document.querySelector(`.pit[data-pit="${pit}"]`);
  if (!button) return;
  const number = document.createElement('span');
  number.className = 'count';
  number.textContent = String(count);
  button.replaceChildren(stones(count), number);
  button.dataset.count = count;
  for (const cls of ['lifted', 'dropped', 'captured']) button.classList.remove(cls);
  void button.offsetWidth; // restart the flash
  button.classList.add(what);
}

function showStore(side, count) {
  const store = $(side ? 'north-store' : 'south-store');
  const total = store && store.querySelector('b');
  if (total) total.textContent = String(count);
}

// Ends a running search and forgets its answer.
async function interrupt() {
  state.generation += 1;
  state.skip = true;
  while (state.animating) await new Promise((r) => setTimeout(r, 5));
  if (state.thinking && state.socket) {
    state.interrupting = true;
    send('stop');
    // The stopped search's bestmove still comes: wait for it to pass.
    while (state.thinking) await new Promise((r) => setTimeout(r, 10));
    state.interrupting = false;
  }
}

// A new game from `base`; if the engine refuses it (a deal it cannot make), the game stays as
// it was and the reason is shown.
async function newGame(base) {
  await interrupt();
  const saved = { base: state.base, moves: state.moves };
  state.base = base || 'startpos';
  state.moves = [];
  state.fresh = true;
  showMessage('');
  $('side-answer').textContent = '';
  try {
    await command('ucinewgame');
    await refresh();
    resetAnalysis();
  } catch (e) {
    state.base = saved.base;
    state.moves = saved.moves;
    state.fresh = false;
    showMessage(e.message);
    try { await refresh(); } catch (again) { /* reported above */ }
  }
}

async function undo() {
  await interrupt();
  if (!state.moves.length) return;
  // Back to the last position where the person was to move (one move in engine vs engine).
  state.moves.pop();
  if (state.human) {
    while (state.moves.length) {
      await command(positionCommand());
      if (parsePosition(await response('fen')).side === state.human) break;
      state.moves.pop();
    }
  }
  state.previous = null;
  state.position = null;
  resetAnalysis();
  try { await refresh(); } catch (e) { showMessage(e.message); }
}

// ---------------------------------------------------------------------------------------------
// Drawing.

function render() {
  const game = GAMES.get(state.variant);
  const n = game.pits;
  const board = $('board');
  board.style.setProperty('--pits', n);
  board.replaceChildren();
  // A board whose pits would be narrower than a finger (a long row on a phone) stands upright:
  // South's row on the left from top to bottom, North's on the right, the stores above and below.
  const upright = (board.parentElement.clientWidth - 130) / n < 42;
  board.classList.toggle('upright', upright);
  const pos = state.position;
  if (!pos) return;
  board.dataset.turn = state.over ? '' : pos.side;
  const before = state.previous;
  const lastMove = state.moves[state.moves.length - 1];
  const origin = lastMove && lastMove !== 'pass' ? (lastMove >= 'a' ? n + lastMove.charCodeAt(0) - 97 : lastMove.charCodeAt(0) - 65) : -1;
  // `row` 1 to 4 (North's letters, North's pits, South's pits, South's letters) and `col` 1 to
  // n + 2 (North's store, the pits, South's store); an upright board swaps them.
  const cell = (tag, cls, text, row, col) => {
    const el = document.createElement(tag);
    el.className = cls;
    if (text !== undefined) el.textContent = text;
    if (upright) {
      el.style.gridRow = String(col);
      el.style.gridColumn = row === '2 / 4' ? '2 / 4' : String(5 - row);
    } else {
      el.style.gridRow = String(row);
      el.style.gridColumn = String(col);
    }
    board.appendChild(el);
    return el;
  };
  // Games that sow into stores, or whose position strings say who received the last four, keep
  // their counters in stores; the others' are captured counters beside the board.
  const storeLabel = game.sownStores || pos.lastFour !== undefined ? 'store' : 'captured';
  const gain = (side) => before ? pos.captured[side] - before.captured[side] : 0;
  const store = (side, cls) => {
    const el = cell('div', `store ${cls}`, undefined, '2 / 4', cls === 'north' ? 1 : n + 2);
    el.classList.toggle('to-move', board.dataset.turn === (side ? 'N' : 'S'));
    el.innerHTML = `<span>${side ? 'North' : 'South'}</span><b>${pos.captured[side]}</b><span class="what">${storeLabel}</span>` +
      (gain(side) > 0 ? `<span class="gain">+${gain(side)}</span>` : '');
    el.dataset.captured = pos.captured[side];
    el.id = cls === 'north' ? 'north-store' : 'south-store';
  };
  store(1, 'north');
  store(0, 'south');
  for (let col = 0; col < n; col++) {
    // North's row from North's right to North's left, above South's row from South's left.
    const northPit = 2 * n - 1 - col;
    const southPit = col;
    cell('div', 'letter', moveName(northPit, n), 1, col + 2);
    cell('div', 'letter', moveName(southPit, n), 4, col + 2);
    for (const [pit, row] of [[northPit, 2], [southPit, 3]]) {
      const move = moveName(pit, n);
      const button = cell('button', `pit ${row === 2 ? 'north' : 'south'}`, undefined, row, col + 2);
      button.append(stones(pos.pits[pit]));
      const count = document.createElement('span');
      count.className = 'count';
      count.textContent = String(pos.pits[pit]);
      button.append(count);
      if (board.dataset.turn === (row === 2 ? 'N' : 'S')) button.classList.add('to-move');
      button.dataset.pit = pit;
      button.dataset.move = move;
      button.dataset.count = pos.pits[pit];
      button.setAttribute('aria-label', `pit ${move}, ${pos.pits[pit]}`);
      const clickable = canPlay() && state.legal.includes(move);
      if (clickable) {
        button.classList.add('legal');
        button.addEventListener('click', () => play(move));
      } else {
        button.disabled = !clickable;
      }
      if (before) {
        if (pit === origin) button.classList.add('origin');
        else if (pos.pits[pit] > before.pits[pit]) button.classList.add('sown');
        else if (pos.pits[pit] < before.pits[pit]) button.classList.add('taken');
      }
    }
  }
  $('fen').value = pos.text;
  $('moves').textContent = state.moves.length ? state.moves.join(' ') : '(none yet)';
  $('moves').dataset.moves = state.moves.join(' ');
  renderTurn();
  renderLines();
}

// The counters of a pit drawn as stones, up to a dozen (the number beside says how many).
function stones(count) {
  const group = document.createElement('span');
  group.className = 'stones';
  group.setAttribute('aria-hidden', 'true');
  for (let i = 0; i < Math.min(count, 12); i++) {
    const stone = document.createElement('span');
    stone.className = 'stone';
    group.append(stone);
  }
  if (count > 12) group.classList.add('many');
  return group;
}

function renderTurn() {
  const pos = state.position;
  if (!pos) return;
  const who = pos.side === 'S' ? 'South' : 'North';
  let text;
  if (state.broken) text = 'No engine: press “Restart the engine” above to go on with this game.';
  else if (state.over) text = 'The game is over.';
  else if (state.thinking) text = `${who} to move: the engine is thinking…`;
  else if (humanToMove()) text = state.legal.includes('pass') ? `${who} (you) to move: your row is empty, press Pass.` : `${who} (you) to move: click a pit.`;
  else text = `${who} to move (the engine).`;
  $('turn').textContent = text;
  let pass = $('pass');
  if (canPlay() && state.legal.includes('pass')) {
    if (!pass) {
      pass = document.createElement('button');
      pass.id = 'pass';
      pass.textContent = 'Pass';
      pass.addEventListener('click', () => play('pass'));
      $('turn').after(pass);
    }
  } else if (pass) {
    pass.remove();
  }
}

// One `info` line: the evaluation bar (South's view) and the engine's lines.
function showInfo(line, side) {
  const words = line.split(' ');
  const get = (key) => { const i = words.indexOf(key); return i >= 0 ? words[i + 1] : undefined; };
  const pvAt = words.indexOf('pv');
  const info = {
    depth: get('depth'),
    multipv: Number(get('multipv') || 1),
    cp: get('cp') !== undefined ? Number(get('cp')) : undefined,
    mate: get('mate') !== undefined ? Number(get('mate')) : undefined,
    margin: get('margin') !== undefined ? Number(get('margin')) : undefined,
    pv: pvAt >= 0 ? words.slice(pvAt + 1).join(' ') : '',
    side,
  };
  state.lines.set(info.multipv, info);
  renderLines();
  if (info.multipv === 1) renderEval(info);
}

function scoreText(info) {
  if (info.margin !== undefined) {
    const sign = info.margin > 0 ? '+' : '';
    return info.mate !== undefined ? `${sign}${info.margin} (proven, ends in ${Math.abs(info.mate)})` : `${sign}${info.margin} (proven)`;
  }
  if (info.mate !== undefined) return info.mate > 0 ? `wins in ${info.mate}` : `loses in ${-info.mate}`;
  const v = (info.cp || 0) / 100;
  return `${v > 0 ? '+' : ''}${v.toFixed(2)}`;
}

function renderLines() {
  const list = $('lines');
  list.replaceChildren();
  for (const key of [...state.lines.keys()].sort()) {
    const info = state.lines.get(key);
    const item = document.createElement('li');
    const who = info.side === 'S' ? 'South' : 'North';
    item.textContent = `depth ${info.depth}, ${scoreText(info)} for ${who}: ${info.pv}`;
    list.appendChild(item);
  }
}

function renderEval(info) {
  const sign = info.side === 'S' ? 1 : -1;
  let south; // South's expected margin, in counters
  if (info.margin !== undefined) south = sign * info.margin;
  else if (info.mate !== undefined) south = sign * (info.mate > 0 ? 99 : -99);
  else south = sign * (info.cp || 0) / 100;
  const share = 50 + Math.max(-50, Math.min(50, south * 2.5));
  $('evalfill').style.width = `${share}%`;
  const proven = info.margin !== undefined ? ' proven' : '';
  $('evaltext').textContent = south === 0 ? `even${proven}` : `${south > 0 ? 'South' : 'North'} +${Math.abs(south).toFixed(info.margin !== undefined ? 0 : 1)}${proven}`;
}

// ---------------------------------------------------------------------------------------------
// Controls.

function wire() {
  $('variant').addEventListener('change', async () => {
    await interrupt();
    state.variant = $('variant').value;
    state.moves = [];
    state.position = null;
    state.fresh = true;
    resetAnalysis();
    render();
    try {
      await command(`variant ${state.variant}`);
      await offerDeal();
      await newGame('startpos');
    } catch (e) { showMessage(e.message); }
  });
  $('multipv').addEventListener('change', () => {
    command(`setoption name MultiPV value ${$('multipv').value}`).catch((e) => showMessage(e.message));
  });
  $('new-game').addEventListener('click', () => newGame('startpos'));
  $('undo').addEventListener('click', () => undo());
  $('swap').addEventListener('click', async () => {
    await interrupt();
    state.human = state.human === 'N' ? 'S' : 'N';
    setAuto(false);
    render();
    maybeThink();
  });
  $('auto').addEventListener('click', async () => {
    const on = $('auto').getAttribute('aria-pressed') !== 'true';
    await interrupt();
    setAuto(on);
    render();
    maybeThink();
  });
  $('copy').addEventListener('click', async () => {
    const text = $('fen').value;
    try {
      await navigator.clipboard.writeText(text);
      showMessage('');
    } catch (e) {
      $('fen').select();
      document.execCommand('copy');
    }
  });
  $('load').addEventListener('click', async () => {
    // A position string, optionally followed by `moves` and the moves played from it.
    const words = $('fen').value.trim().split(/\s+/).filter((w) => w);
    if (!words.length || (words.length > 1 && words[1] !== 'moves')) {
      showMessage('Load takes a position string (like the one shown), optionally followed by “moves” and moves');
      return;
    }
    const saved = { base: state.base, moves: state.moves };
    await interrupt();
    state.base = `fen ${words[0]}`;
    state.moves = words.slice(2);
    state.fresh = true;
    try {
      await refresh();
      resetAnalysis();
      showMessage('');
    } catch (e) {
      state.base = saved.base;
      state.moves = saved.moves;
      state.fresh = false;
      showMessage(e.message);
      try { await refresh(); } catch (again) { /* reported above */ }
    }
  });
  $('deal-button').addEventListener('click', () => {
    const seed = $('seed').value.trim();
    if (!/^[0-9]{1,20}$/.test(seed) || BigInt(seed) > 18446744073709551615n) {
      showMessage('a seed is a whole number from 0 to 18446744073709551615');
      return;
    }
    newGame(`random ${seed}`);
  });
  $('side-button').addEventListener('click', async () => {
    try {
      const lines = await request('query side', (l) => l.startsWith('response') || l.startsWith('info string error'));
      const info = lines.find((l) => l.startsWith('info string choose'));
      const answer = lines[lines.length - 1].replace('response ', '');
      const why = info ? ` (${info.slice('info string '.length)})` : '';
      $('side-answer').textContent = `The engine would choose ${answer}${why}.`;
    } catch (e) { showMessage(e.message); }
  });
  $('restart').addEventListener('click', () => restartEngine());
  window.addEventListener('resize', () => { if (state.position && !state.animating) render(); });
  // A click on the board or any key shows the end of a move being sown at once.
  $('board').addEventListener('click', () => { if (state.animating) state.skip = true; });
  window.addEventListener('keydown', () => { if (state.animating) state.skip = true; });
  window.addEventListener('pagehide', () => {
    if (state.boardId) navigator.sendBeacon(`/api/boards/${state.boardId}/close`);
  });
}

function setAuto(on) {
  $('auto').setAttribute('aria-pressed', String(on));
  state.human = on ? null : (state.human || 'S');
}

async function main() {
  wire();
  try {
    await openBoard();
    await startEngine();
    await offerDeal();
    await newGame('startpos');
  } catch (e) {
    state.broken = true;
    setStatus(`no board: ${e.message}`, true);
    setBusy(false);
  }
}

main();
