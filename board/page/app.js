// mancala-board's page: the game, its controls and its clock. It plays through the engine's
// protocol only and knows no rules and no game: the games and their boards come from the
// engine's `variant` listing, the legal moves, the positions after moves, the sowing of a move
// and the end of the game from its answers (`query moves`, `query fen`, `query sowing`, `query
// gameover`, `d`), as in any GUI.
//
// Everything that talks to the engine runs as a task, one at a time (`serial`): a control
// pressed at any moment first interrupts what runs (a search is stopped and its move dropped,
// a move being shown jumps to its end), then waits its turn. So no answer can reach a request
// it does not belong to, and no search runs on a game that changed under it.
import { EngineLink } from './link.js';
import { drawBoard, moveName, parsePosition, showSowing, Sound, uprightIn } from './view.js';

const $ = (id) => document.getElementById(id);
const MARGIN_TIMEOUT = 5000;
const REDUCED_MOTION = window.matchMedia('(prefers-reduced-motion: reduce)');
const SIDE_NAME = { S: 'South', N: 'North' };

const games = new Map(); // name → { title, pits, total, sownStores, stores, roundsWon, closing }, in the engine's order
const sound = new Sound();

const state = {
  variant: null,
  base: 'startpos', // 'startpos', 'fen <string>' or 'random <seed>'
  start: null, // the position string of the base
  plies: [], // { move, side, fen (after it), trace, capture }
  legal: [],
  over: false,
  end: null, // { south, north, rule } once the game is over
  human: 'S', // the side the person plays, or null for engine vs engine
  view: null, // the ply shown while browsing the moves (null: the live game)
  generation: 0, // bumped by every control: a search or showing of the game before is dropped
  tasks: 0, // tasks running or waiting
  searching: false,
  stopSent: false,
  engineQueued: false,
  animating: false,
  skip: false,
  broken: false,
  endClosed: false, // the person closed the end-of-game panel to look at the board
  choosing: null, // the pit clicked whose direction of sowing the person is asked for
  lines: new Map(),
  clock: { spec: null, left: [0, 0], running: null, since: 0, flagged: null },
};

const link = new EngineLink({
  onBroken: (why) => engineBroke(why),
  onTakenOver: () => engineBroke('this board is open in another tab now: press “Restart the engine” for a board of your own here'),
});

// ---------------------------------------------------------------------------------------------
// Tasks.

let chain = Promise.resolve();

function serial(task) {
  state.tasks += 1;
  setBusy();
  const run = chain.then(task).finally(() => {
    state.tasks -= 1;
    // Nothing left to run: the pits take clicks again.
    if (state.tasks === 0) render();
    else setBusy();
  });
  chain = run.catch(() => {});
  return run;
}

// Stops whatever runs now: the search (its move will be dropped) and the showing of a move.
function interrupt() {
  state.generation += 1;
  state.skip = true;
  if (state.searching && !state.stopSent && link.connected && !link.broken) {
    state.stopSent = true;
    try { link.send('stop'); } catch (e) { /* the connection went: the search went with it */ }
  }
}

// A control: interrupts, then runs `task` in its turn; its failure is shown in words.
function control(task) {
  interrupt();
  return serial(async () => {
    try {
      await task();
    } catch (e) {
      if (!link.broken) showMessage(e.message);
    }
    render();
    scheduleEngine();
  });
}

function engineToMove() {
  const pos = current();
  return !!pos && !state.broken && !state.over && !state.clock.flagged &&
    (state.human === null || pos.side !== state.human);
}

// Queues the engine's move when it is the engine's turn.
function scheduleEngine() {
  if (state.engineQueued || !engineToMove()) return;
  state.engineQueued = true;
  serial(async () => {
    state.engineQueued = false;
    if (!engineToMove()) return;
    try {
      if (await engineMove()) scheduleEngine();
    } catch (e) {
      if (!link.broken) showMessage(e.message);
      render();
    }
  });
}

// ---------------------------------------------------------------------------------------------
// The game.

function current() {
  return positionAt(state.plies.length);
}

// The position after `ply` moves (0: the start).
function positionAt(ply) {
  const text = ply === 0 ? state.start : state.plies[ply - 1].fen;
  return text ? parsePosition(text, games.get(state.variant).pits) : null;
}

function moves() {
  return state.plies.map((p) => p.move);
}

function positionCommand(list) {
  return `position ${state.base}${list.length ? ' moves ' + list.join(' ') : ''}`;
}

// Sets the engine's game to ours and reads back the legal moves and the end.
async function readBack() {
  await link.command(positionCommand(moves()));
  const fen = await link.query('fen');
  const legal = (await link.query('moves')).split(' ').filter((m) => m);
  const over = (await link.query('gameover')) === 'true';
  let end = null;
  if (over) {
    const diagram = await link.request('d', (l) => l.startsWith('Game over:'));
    const rule = diagram[diagram.length - 1].slice('Game over: '.length).replace(/\s*\(.*\)$/, '');
    const [south, north] = (await link.query('score')).split(' ').map(Number);
    // The winner is the result's: a match of rounds won may go to the player with more rounds
    // won where the score of its last round says otherwise.
    const winner = { p1win: 'S', p2win: 'N', draw: '' }[await link.query('result')];
    end = { south, north, rule, winner };
  }
  if (state.plies.length) state.plies[state.plies.length - 1].fen = fen;
  else state.start = fen;
  state.legal = legal;
  state.over = over;
  state.end = end;
}

// The sowing of `move` from the engine's current position, or null if it will not tell.
async function sowingOf(move) {
  try {
    return await link.query(`sowing ${move}`);
  } catch (e) {
    if (link.broken) throw e;
    return null;
  }
}

// Plays `move` in the live game: shows it counter by counter, then reads the new position back.
// An engine's move is dropped if a control came meanwhile (`generation` changed); a person's
// move stands (its showing jumps to the end). Returns whether the move was played.
async function playMove(move, generation, byEngine) {
  const before = current();
  await link.command(positionCommand(moves()));
  const trace = await sowingOf(move);
  const dropped = () => byEngine && generation !== state.generation;
  if (trace && trace !== 'pass' && !REDUCED_MOTION.matches && state.view === null && !dropped()) {
    state.animating = true;
    state.skip = false;
    setBusy();
    try {
      await showSowing($('board'), before, trace, {
        n: games.get(state.variant).pits,
        stop: () => state.skip || link.broken || dropped(),
        sound,
      });
    } finally {
      state.animating = false;
      setBusy();
    }
  }
  if (dropped()) return false;
  if (trace) $('board').dataset.lastSowing = `${move}: ${trace}`;
  state.plies.push({ move, side: before.side, fen: null, trace, capture: !!trace && /(^| )x/.test(trace) });
  try {
    await readBack();
  } catch (e) {
    state.plies.pop();
    throw e;
  }
  clockMoved(before.side);
  delete $('fen').dataset.edited;
  render();
  return true;
}

function goLine() {
  const clock = state.clock;
  if (!clock.spec) return `go movetime ${Number($('movetime').value)}`;
  const left = clockLeft();
  const ms = (i) => Math.max(1, Math.floor(left[i]));
  return `go p1time ${ms(0)} p2time ${ms(1)} p1inc ${clock.spec.inc} p2inc ${clock.spec.inc}`;
}

// The engine's move: a search, then the move shown and played unless a control came.
async function engineMove() {
  const generation = state.generation;
  const side = current().side;
  const limit = state.clock.spec ? clockLeft()[side === 'S' ? 0 : 1] : Number($('movetime').value);
  const line = goLine();
  state.lines.clear();
  state.searching = true;
  state.stopSent = false;
  setBusy();
  renderTurn();
  let answer;
  try {
    answer = await link.request(line, (l) => l.startsWith('bestmove'), {
      timeout: limit + MARGIN_TIMEOUT,
      onLine: (l) => { if (l.startsWith('info depth') && generation === state.generation) showInfo(l, side); },
    });
  } finally {
    state.searching = false;
    state.stopSent = false;
    setBusy();
  }
  if (generation !== state.generation) return false;
  const move = answer[answer.length - 1].split(' ')[1];
  if (!move || move === '(none)') return false;
  return playMove(move, generation, true);
}

// The moves from the pit `letter` that choose a direction (`A<`, `A>`): none where the game
// decides the pit's direction.
function directedMoves(letter) {
  return ['<', '>'].map((way) => letter + way).filter((m) => state.legal.includes(m));
}

// A person's click on the pit `letter`: its move, or (where the mover chooses the pit's
// direction) the question which way.
function pitClicked(letter) {
  if (!state.animating && canPlay() && directedMoves(letter).length) {
    state.choosing = letter;
    render();
    return;
  }
  humanPlay(letter);
}

// A person's click (or key) on `move`.
function humanPlay(move) {
  state.choosing = null;
  if (state.animating) { state.skip = true; return; }
  if (!canPlay() || !state.legal.includes(move)) return;
  showMessage('');
  const generation = state.generation;
  serial(async () => {
    if (generation !== state.generation || !canPlay(true) || !state.legal.includes(move)) return;
    try {
      await playMove(move, generation, false);
    } catch (e) {
      if (!link.broken) showMessage(e.message);
    }
    render();
    scheduleEngine();
  });
  setBusy();
  render();
}

// A new game from `base` (and `list` of moves from it); if the engine refuses it, the game
// stays as it was and the reason is thrown.
async function startGame(base, list = []) {
  const saved = snapshot();
  try {
    state.base = base;
    state.plies = [];
    await link.command(`ucinewgame`);
    await link.command(positionCommand([]));
    state.start = await link.query('fen');
    for (const [i, move] of list.entries()) {
      const side = current().side;
      await link.command(positionCommand(moves()));
      const trace = await link.query(`sowing ${move}`).catch((e) => {
        throw new Error(`move ${i + 1} of the list, ‘${move}’, cannot be played: ${e.message}`);
      });
      state.plies.push({ move, side, fen: null, trace, capture: /(^| )x/.test(trace) });
      await link.command(positionCommand(moves()));
      state.plies[i].fen = await link.query('fen');
    }
    await readBack();
  } catch (e) {
    restore(saved);
    try { await readBack(); } catch (again) { /* the first error says it */ }
    throw e;
  }
  state.view = null;
  state.endClosed = false;
  delete $('board').dataset.lastSowing;
  resetAnalysis();
  clockReset();
  showMessage('');
  delete $('fen').dataset.edited;
}

function snapshot() {
  return { base: state.base, start: state.start, plies: [...state.plies], view: state.view };
}

function restore(saved) {
  Object.assign(state, saved);
}

async function undo() {
  if (!state.plies.length) return;
  // Back to the last position where the person was to move (one move in engine vs engine).
  state.plies.pop();
  if (state.human) {
    while (state.plies.length && current().side !== state.human) state.plies.pop();
  }
  state.view = null;
  state.endClosed = false;
  resetAnalysis();
  await readBack();
  state.clock.flagged = null;
  clockSync();
}

function humanToMove() {
  const pos = current();
  return !!state.human && !!pos && pos.side === state.human && !state.over && !state.clock.flagged;
}

// Whether a click may play now: the person's turn in the live game, nothing else running
// (`inTask`: asked by the task that will play it).
function canPlay(inTask) {
  return humanToMove() && state.view === null && !state.broken && !state.animating &&
    (inTask ? state.tasks === 1 : state.tasks === 0);
}

// ---------------------------------------------------------------------------------------------
// The clock: optional, one per side; the engine plays on its own (`go p1time … p2time …`).

function clockReset() {
  const value = $('clock').value;
  const clock = state.clock;
  if (value) {
    const [base, inc] = value.split('+').map(Number);
    clock.spec = { base, inc };
    clock.left = [base, base];
  } else {
    clock.spec = null;
  }
  clock.running = null;
  clock.flagged = null;
  clockSync();
}

// What is left on each clock now.
function clockLeft() {
  const clock = state.clock;
  const left = [...clock.left];
  if (clock.running !== null) left[clock.running] -= performance.now() - clock.since;
  return left;
}

// The clock of the side to move runs while the live game waits for it.
function clockSync() {
  const clock = state.clock;
  const pos = current();
  const runs = clock.spec && pos && !state.over && !state.broken && !clock.flagged && state.plies.length > 0
    ? (pos.side === 'S' ? 0 : 1) : null;
  if (runs === clock.running) return;
  if (clock.running !== null) clock.left[clock.running] -= performance.now() - clock.since;
  clock.running = runs;
  clock.since = performance.now();
  renderClocks();
}

// `side` has moved: its increment, and the other clock starts.
function clockMoved(side) {
  const clock = state.clock;
  if (!clock.spec) return;
  clockSync();
  clock.left[side === 'S' ? 0 : 1] += clock.spec.inc;
  clockSync();
  renderClocks();
}

function clockTick() {
  const clock = state.clock;
  if (clock.running === null) return;
  const left = clockLeft();
  if (left[clock.running] <= 0) {
    clock.left = left;
    clock.left[clock.running] = 0;
    clock.flagged = clock.running === 0 ? 'S' : 'N';
    clock.running = null;
    interrupt();
    serial(async () => { render(); });
  }
  renderClocks();
}

function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (ms < 10000) return `0:${(Math.max(0, ms) / 1000).toFixed(1).padStart(4, '0')}`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function renderClocks() {
  const clock = state.clock;
  const left = clockLeft();
  for (const [id, side] of playerSides()) {
    const el = $(id).querySelector('.clock');
    el.hidden = !clock.spec;
    if (!clock.spec) continue;
    const i = side === 'S' ? 0 : 1;
    el.textContent = clockText(left[i]);
    el.classList.toggle('running', clock.running === i);
    el.classList.toggle('low', left[i] < 10000);
  }
}

// ---------------------------------------------------------------------------------------------
// Words for people.

// Who plays `side`, in words.
function nameOf(side) {
  if (state.human === side) return 'You';
  const movetime = $('movetime').selectedOptions[0].textContent;
  const engine = state.clock.spec ? 'Engine' : `Engine · ${movetime}`;
  return state.human === null ? `${engine} (${SIDE_NAME[side]})` : engine;
}

// The players' bars, top and bottom, with their sides: the person's at the bottom.
function playerSides() {
  return flipped() ? [['player-top', 'S'], ['player-bottom', 'N']] : [['player-top', 'N'], ['player-bottom', 'S']];
}

function flipped() {
  return state.human === 'N';
}

// A reason from the server or the engine, as a player would want to read it.
function friendly(why) {
  const text = String(why || '');
  if (/is not a command a board sends/.test(text)) return 'The board cannot send that to the engine.';
  if (/already thinking/.test(text)) return 'The engine is still thinking: try again in a moment.';
  if (/^the engine (does not take input|is not running)/.test(text)) return 'The engine is not running: press “Restart the engine”.';
  return text;
}

function showMessage(text) {
  const words = text ? friendly(text) : '';
  $('message').textContent = words.charAt(0).toUpperCase() + words.slice(1);
}

function setStatus(text, bad) {
  $('engine-status').textContent = text;
  $('engine-status').classList.toggle('bad', !!bad);
  $('restart').hidden = !bad;
}

// The page's state, for people (the cursor, the buttons) and for tests: 'broken', 'updating'
// (a move being read back or shown), 'thinking', 'over' or 'idle'.
function setBusy() {
  document.body.dataset.human = state.human || '';
  let busy;
  if (state.broken) busy = 'broken';
  else if (state.searching) busy = 'thinking';
  else if (state.tasks > 0 || state.animating) busy = 'updating';
  else if (state.over || state.clock.flagged) busy = 'over';
  else busy = 'idle';
  document.body.dataset.state = busy;
}

// The end of the game for the person playing: "You won 40–32 (board empty)", "You lost …",
// "Draw …"; in engine vs engine, who won. A flag fall ends it too.
function resultWords() {
  const flag = state.clock.flagged;
  if (flag) {
    const loser = flag;
    let outcome;
    if (!state.human) outcome = `${SIDE_NAME[loser === 'S' ? 'N' : 'S']} won`;
    else outcome = loser === state.human ? 'You lost' : 'You won';
    return { text: `${outcome} on time`, rule: `${SIDE_NAME[loser]}'s clock ran out`, outcome: !state.human ? 'over' : loser === state.human ? 'lost' : 'won' };
  }
  const { south, north, rule, winner } = state.end;
  const mine = state.human === 'N' ? north : south;
  const theirs = state.human === 'N' ? south : north;
  let outcome;
  if (!winner) outcome = `Draw ${south}–${north}`;
  else if (!state.human) outcome = `${SIDE_NAME[winner]} won ${winner === 'S' ? south : north}–${winner === 'S' ? north : south}`;
  else outcome = `${winner === state.human ? 'You won' : 'You lost'} ${mine}–${theirs}`;
  const kind = !winner ? 'draw' : !state.human ? 'over' : winner === state.human ? 'won' : 'lost';
  return { text: `${outcome} (${rule})`, rule: `The game ended: ${rule}.`, outcome: kind };
}

// ---------------------------------------------------------------------------------------------
// Drawing.

function render() {
  const game = games.get(state.variant);
  if (!game) return;
  const live = state.view === null;
  const ply = live ? state.plies.length : state.view;
  const pos = positionAt(ply);
  const finished = state.over || !!state.clock.flagged;
  if (!state.animating) {
    // The key to pits owned across the board, where the game has them (a match for territory).
    $('owned-key').hidden = !pos.owners;
    $('child-key').hidden = !pos.children.some((c) => c);
    // A game whose pits close: how many counters have left the game at them.
    $('closed-key').hidden = !game.closing;
    if (game.closing && pos) {
      const held = pos.pits.reduce((a, b) => a + b, 0) + pos.captured[0] + pos.captured[1];
      $('out-of-game').textContent = String(Math.max(0, game.total - held));
    }
    drawBoard($('board'), pos, {
      game,
      previous: ply > 0 ? positionAt(ply - 1) : null,
      lastMove: ply > 0 ? state.plies[ply - 1].move : null,
      flipped: flipped(),
      names: ['South', 'North'],
      toMove: pos && !(live && finished) ? pos.side : '',
      playable: (move) => live && canPlay() && (state.legal.includes(move) || directedMoves(move).length > 0),
      onPit: (move) => pitClicked(move),
    });
  }
  document.body.classList.toggle('upright', uprightIn($('board-wrap').clientWidth, game.pits));
  document.body.style.setProperty('--pits', game.pits);
  if (pos) {
    // Text typed into the field stays until it is loaded or the game moves on (a refused
    // Load keeps it, to be corrected).
    const fen = $('fen');
    if (!fen.dataset.edited) fen.value = pos.text;
  }
  renderPlayers(pos, live && finished);
  renderEnd(live && finished);
  renderMoves();
  renderTurn();
  renderLines();
  renderClocks();
  renderPass();
  renderDirections();
  clockSync();
  setBusy();
}

function renderPlayers(pos, finished) {
  for (const [id, side] of playerSides()) {
    const bar = $(id);
    // In a match of rounds won, the rounds each player has won beside its name.
    const won = pos && pos.roundWins ? pos.roundWins[side === 'S' ? 0 : 1] : null;
    const rounds = won === null ? '' : ` · ${won} ${won === 1 ? 'round' : 'rounds'} won`;
    bar.querySelector('.name').textContent = `${nameOf(side)} · ${SIDE_NAME[side]}${rounds}`;
    bar.classList.toggle('to-move', !!pos && !finished && pos.side === side);
    bar.dataset.side = side;
  }
}

function renderEnd(finished) {
  const result = $('result');
  if (!finished) {
    $('end').hidden = true;
    result.textContent = '';
    delete result.dataset.outcome;
    return;
  }
  const words = resultWords();
  result.textContent = words.text;
  result.dataset.outcome = words.outcome;
  $('end-rule').textContent = words.rule;
  $('swap-rematch').hidden = !state.human;
  const appearing = $('end').hidden && !state.endClosed;
  $('end').hidden = state.endClosed;
  // The keyboard goes where the next step is: Enter plays the rematch.
  if (appearing) $('rematch').focus({ preventScroll: true });
}

function renderTurn() {
  const pos = current();
  if (!pos) return;
  let text;
  const who = SIDE_NAME[pos.side];
  if (state.broken) text = 'No engine: press “Restart the engine” to go on with this game.';
  else if (state.view !== null) text = `You are looking at the position after move ${state.view} of ${state.plies.length}.`;
  else if (state.clock.flagged) text = `The game is over: ${SIDE_NAME[state.clock.flagged]}'s time is up.`;
  else if (state.over) text = 'The game is over.';
  else if (state.searching) text = state.human ? 'The engine is thinking…' : `${who} (the engine) is thinking…`;
  else if (humanToMove() && state.choosing) text = `Your move (${who}): which way does ${state.choosing} sow?`;
  else if (humanToMove()) text = state.legal.includes('pass') ? `Your move (${who}): your row is empty, press Pass.` : `Your move (${who}): click a pit.`;
  else text = `${who} to move (the engine).`;
  $('turn').textContent = text;
}

// The question which way to sow the pit clicked, as two buttons after the turn's line.
function renderDirections() {
  $('directions')?.remove();
  const letter = state.choosing;
  if (!letter || !canPlay() || !directedMoves(letter).length) {
    state.choosing = null;
    return;
  }
  const box = document.createElement('span');
  box.id = 'directions';
  // `<` sows clockwise (towards the row's previous letter), `>` counter-clockwise.
  const words = { '<': 'clockwise', '>': 'counter-clockwise' };
  for (const move of directedMoves(letter)) {
    const button = document.createElement('button');
    button.className = 'choose-direction';
    button.dataset.move = move;
    button.textContent = `${move} (${words[move.slice(-1)]})`;
    button.addEventListener('click', () => humanPlay(move));
    box.append(button);
  }
  $('turn').after(box);
}

function renderPass() {
  let pass = $('pass');
  if (canPlay() && state.legal.includes('pass')) {
    if (!pass) {
      pass = document.createElement('button');
      pass.id = 'pass';
      pass.textContent = 'Pass';
      pass.addEventListener('click', () => humanPlay('pass'));
      $('turn').after(pass);
    }
  } else if (pass) {
    pass.remove();
  }
}

// The move list, by turns (a turn is a side's moves until the other side moves: a sowing that
// ends in a store moves again), each move a button that shows its position.
function renderMoves() {
  const list = $('moves');
  list.dataset.moves = moves().join(' ');
  list.replaceChildren();
  if (!state.plies.length) {
    const none = document.createElement('p');
    none.className = 'none';
    none.textContent = 'No move yet.';
    list.append(none);
  }
  const shown = state.view === null ? state.plies.length : state.view;
  let row = null;
  let turn = 0;
  let lastSide = null;
  state.plies.forEach((ply, i) => {
    const startsTurn = ply.side !== lastSide;
    if (startsTurn && (ply.side === 'S' || !row || row.dataset.north === '1')) {
      turn += 1;
      row = document.createElement('div');
      row.className = 'turn';
      const number = document.createElement('span');
      number.className = 'number';
      number.textContent = `${turn}.`;
      const south = document.createElement('span');
      south.className = 'cell south';
      const north = document.createElement('span');
      north.className = 'cell north';
      if (ply.side === 'N') south.textContent = '…';
      row.append(number, south, north);
      list.append(row);
    }
    if (ply.side === 'N') row.dataset.north = '1';
    lastSide = ply.side;
    const cell = row.querySelector(ply.side === 'S' ? '.south' : '.north');
    const button = document.createElement('button');
    button.className = 'move';
    button.textContent = ply.move + (ply.capture ? '×' : '');
    button.title = `${SIDE_NAME[ply.side]} played ${ply.move}${ply.capture ? ', with a capture' : ''}: show the position after it`;
    if (i + 1 === shown) button.classList.add('current');
    button.addEventListener('click', () => browse(i + 1));
    cell.append(button);
  });
  const at = list.querySelector('.current');
  if (at && state.view !== null) at.scrollIntoView({ block: 'nearest' });
  else list.scrollTop = list.scrollHeight;
  const live = state.view === null;
  $('viewing').hidden = live;
  $('viewing-text').textContent = live ? '' : `Position after move ${state.view} of ${state.plies.length}.`;
  $('nav-first').disabled = shown === 0;
  $('nav-back').disabled = shown === 0;
  $('nav-forward').disabled = live;
  $('nav-last').disabled = live;
}

// Shows the position after `ply` moves; the live game when it is the last.
function browse(ply) {
  if (state.animating) state.skip = true;
  const last = state.plies.length;
  const target = Math.max(0, Math.min(last, ply));
  state.view = target === last ? null : target;
  if (!state.animating) render();
  else renderMoves();
}

// One `info` line: the evaluation bar and the engine's lines.
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
    item.textContent = `depth ${info.depth}, ${scoreText(info)} for ${SIDE_NAME[info.side]}: ${info.pv}`;
    list.appendChild(item);
  }
}

// The bar: the bottom player's share from the left, and in words who is ahead and by how much.
function renderEval(info) {
  const sign = info.side === 'S' ? 1 : -1;
  let south; // South's expected margin, in counters
  if (info.margin !== undefined) south = sign * info.margin;
  else if (info.mate !== undefined) south = sign * (info.mate > 0 ? 99 : -99);
  else south = sign * (info.cp || 0) / 100;
  const bottom = flipped() ? -south : south;
  const share = 50 + Math.max(-50, Math.min(50, bottom * 2.5));
  $('evalfill').style.width = `${share}%`;
  const proven = info.margin !== undefined;
  const ahead = south > 0 ? 'S' : 'N';
  const who = state.human ? (ahead === state.human ? 'You' : 'The engine') : SIDE_NAME[ahead];
  const by = Math.abs(south).toFixed(proven ? 0 : 1);
  const counters = by === '1' ? 'counter' : 'counters';
  let text;
  if (south === 0) text = proven ? 'Even: a draw with best play' : 'Even';
  else if (proven) text = `${who} ${who === 'You' ? 'win' : 'wins'} by ${by} with best play`;
  else text = `${who} ${who === 'You' ? 'are' : 'is'} ahead by ${by} ${counters}`;
  $('evaltext').textContent = text;
}

// Forgets the engine's lines and evaluation: they were about another game.
function resetAnalysis() {
  state.lines.clear();
  renderLines();
  $('evalfill').style.width = '50%';
  $('evaltext').textContent = '';
}

// ---------------------------------------------------------------------------------------------
// The engine.

// Reads the engine's games from `variant` (`info string variant <name> <title> 2x<N> <total>
// counters[, sown into stores | , with stores][, any total][, a match of rounds won, …][ (current)]`)
// and offers them in the game list.
async function learnGames() {
  const lines = await link.command('variant');
  games.clear();
  let listed = null;
  for (const line of lines) {
    const m = /^info string variant (\S+) (.*) 2x(\d+) (\d+) counters((?:, [^,()]+)*)( \(current\))?$/.exec(line);
    if (!m) continue;
    const traits = m[5].split(', ').filter((t) => t);
    games.set(m[1], {
      title: m[2],
      pits: Number(m[3]),
      total: Number(m[4]),
      sownStores: traits.includes('sown into stores'),
      stores: traits.includes('sown into stores') || traits.includes('with stores'),
      roundsWon: traits.some((t) => t.startsWith('a match of rounds won')),
      closing: traits.some((t) => t.startsWith('pits closing at')),
    });
    if (m[6]) listed = m[1];
  }
  if (!games.size) throw new Error('the engine lists no games');
  $('variant').replaceChildren(...[...games].map(([name, game]) => {
    const option = document.createElement('option');
    option.value = name;
    option.textContent = `${game.title} (2×${game.pits})`;
    return option;
  }));
  if (!state.variant || !games.has(state.variant)) state.variant = listed || [...games.keys()][0];
  $('variant').value = state.variant;
}

// Whether the current game is one of deals and a side choice: the engine answers `query side`
// for such a game only.
async function offerDeal() {
  let dealt = true;
  try { await link.query('side'); } catch (e) { if (link.broken) throw e; dealt = false; }
  $('deal').hidden = !dealt;
  $('side-answer').textContent = '';
  $('side-play').hidden = true;
}

async function startEngine() {
  await link.request('uci', (l) => l === 'uciok', { timeout: 10000 });
  await learnGames();
  await link.command(`variant ${state.variant}`);
  await link.command(`setoption name MultiPV value ${$('multipv').value}`);
  state.broken = false;
  setStatus('engine ready');
}

function engineBroke(why) {
  state.broken = true;
  state.searching = false;
  state.skip = true;
  setStatus(why, true);
  clockSync();
  render();
}

// A new engine for this board (or a new board), then the game as it was.
function restartEngine() {
  interrupt();
  return serial(async () => {
    try {
      setStatus('restarting the engine…');
      await link.restart();
      state.broken = false;
      await startEngine();
      await readBack();
      showMessage('');
    } catch (e) {
      state.broken = true;
      setStatus(`cannot restart the engine: ${friendly(e.message)}`, true);
    }
    render();
    scheduleEngine();
  });
}

// ---------------------------------------------------------------------------------------------
// Controls.

// A new game from `base` with the person playing `side`; if the engine refuses it, the side
// stays as it was with the game (startGame keeps the game).
async function startAs(side, base) {
  const saved = { human: state.human, auto: $('auto').getAttribute('aria-pressed') };
  state.human = side;
  setAuto(false);
  try {
    await startGame(base);
  } catch (e) {
    state.human = saved.human;
    $('auto').setAttribute('aria-pressed', saved.auto);
    throw e;
  }
}

function setAuto(on) {
  $('auto').setAttribute('aria-pressed', String(on));
  state.human = on ? null : (state.human || 'S');
}

function wire() {
  $('variant').addEventListener('change', () => control(async () => {
    const saved = { variant: state.variant, ...snapshot(), legal: state.legal, over: state.over, end: state.end };
    try {
      await link.command(`variant ${$('variant').value}`);
      state.variant = $('variant').value;
      state.start = null;
      state.plies = [];
      await offerDeal();
      await startGame('startpos');
    } catch (e) {
      restore(saved);
      $('variant').value = saved.variant;
      try {
        await link.command(`variant ${saved.variant}`);
        await offerDeal();
        await readBack();
      } catch (again) { /* the first error says it */ }
      throw e;
    }
  }));
  $('multipv').addEventListener('change', () => control(() => link.command(`setoption name MultiPV value ${$('multipv').value}`)));
  $('movetime').addEventListener('change', () => render());
  $('clock').addEventListener('change', () => control(async () => { clockReset(); }));
  $('sound').addEventListener('change', () => { sound.on = $('sound').checked; if (sound.on) sound.tick(); });
  $('new-game').addEventListener('click', () => control(() => startGame('startpos')));
  $('rematch').addEventListener('click', () => control(() => startGame(state.base)));
  $('swap-rematch').addEventListener('click', () => control(() =>
    startAs(state.human === 'N' ? 'S' : 'N', state.base)));
  $('end-close').addEventListener('click', () => { state.endClosed = true; render(); });
  $('undo').addEventListener('click', () => control(() => undo()));
  $('swap').addEventListener('click', () => control(async () => {
    state.human = state.human === 'N' ? 'S' : 'N';
    setAuto(false);
    state.view = null;
  }));
  $('auto').addEventListener('click', () => {
    // The press shows at once; the task applies whatever the button says when it runs, so
    // quick presses add up as they look.
    const on = $('auto').getAttribute('aria-pressed') !== 'true';
    $('auto').setAttribute('aria-pressed', String(on));
    control(async () => {
      setAuto($('auto').getAttribute('aria-pressed') === 'true');
      state.view = null;
    });
  });
  $('copy').addEventListener('click', async () => {
    const text = $('fen').value;
    try {
      await navigator.clipboard.writeText(text);
    } catch (e) {
      $('fen').select();
      document.execCommand('copy');
    }
  });
  $('fen').addEventListener('input', () => { $('fen').dataset.edited = '1'; });
  $('load').addEventListener('click', () => {
    // A position string, optionally followed by `moves` and the moves played from it.
    const text = $('fen').value.trim();
    const words = text.split(/\s+/).filter((w) => w);
    if (!words.length || (words.length > 1 && words[1] !== 'moves')) {
      showMessage('Load takes a position string (like the one shown), optionally followed by “moves” and the moves played from it.');
      return;
    }
    const pits = games.get(state.variant).pits;
    const shaped = /^([0-9]+[sn]?|x)(-([0-9]+[sn]?|x))*-[SN](-[SNX])*$/.test(words[0]);
    control(async () => {
      try {
        await startGame(`fen ${words[0]}`, words.slice(2));
      } catch (e) {
        // The text stays in the field, to be corrected.
        $('fen').value = text;
        $('fen').dataset.edited = '1';
        if (!shaped || /is not a command a board sends/.test(e.message)) {
          throw new Error(`That is not a position string of this game: it has ${2 * pits} pit counts, the two captured totals and the side to move, like ${current().text}`);
        }
        throw new Error(`That position cannot be loaded: ${e.message}`);
      }
    });
  });
  $('deal-button').addEventListener('click', () => {
    const seed = $('seed').value.trim();
    if (!/^[0-9]{1,20}$/.test(seed) || BigInt(seed) > 18446744073709551615n) {
      showMessage('A seed is a whole number from 0 to 18446744073709551615.');
      return;
    }
    control(() => startGame(`random ${seed}`));
  });
  $('side-button').addEventListener('click', () => control(async () => {
    await link.command(positionCommand(moves()));
    const lines = await link.request('query side', (l) => l.startsWith('response') || l.startsWith('info string error'));
    const last = lines[lines.length - 1];
    if (!last.startsWith('response ')) throw new Error(last.slice('info string error '.length));
    const answer = last.slice('response '.length);
    const info = lines.find((l) => l.startsWith('info string choose'));
    const scores = info ? ` (${info.slice('info string '.length)})` : '';
    // The chooser moves second: taking South means North moves first.
    const first = answer === 'south' ? 'North' : answer === 'north' ? 'South' : null;
    $('side-answer').textContent = first
      ? `The engine would choose ${answer}: ${first} then moves first${scores}.`
      : `The engine would choose either: both give the chooser the same margin${scores}.`;
    const take = answer === 'north' ? 'N' : 'S';
    const play = $('side-play');
    play.hidden = false;
    play.textContent = `Play it: you take ${SIDE_NAME[take]}, ${SIDE_NAME[take === 'S' ? 'N' : 'S']} moves first`;
    play.dataset.side = take;
  }));
  $('side-play').addEventListener('click', () => control(async () => {
    const take = $('side-play').dataset.side;
    const board = current().text.split('-');
    const n = games.get(state.variant).pits;
    board[2 * n + 2] = take === 'S' ? 'N' : 'S';
    await startAs(take, `fen ${board.join('-')}`);
    $('side-play').hidden = true;
  }));
  $('restart').addEventListener('click', () => restartEngine());
  $('nav-first').addEventListener('click', () => browse(0));
  $('nav-back').addEventListener('click', () => browse((state.view ?? state.plies.length) - 1));
  $('nav-forward').addEventListener('click', () => browse((state.view ?? state.plies.length) + 1));
  $('nav-last').addEventListener('click', () => browse(state.plies.length));
  $('live').addEventListener('click', () => browse(state.plies.length));
  window.addEventListener('resize', () => { if (!state.animating) render(); });
  // A click on the board shows the end of a move being sown at once.
  $('board-wrap').addEventListener('click', () => { if (state.animating) state.skip = true; });
  window.addEventListener('keydown', (event) => {
    if (state.animating) state.skip = true;
    const typing = ['INPUT', 'SELECT', 'TEXTAREA'].includes(document.activeElement?.tagName);
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    const at = state.view ?? state.plies.length;
    const keys = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: state.plies.length };
    if (event.key in keys) {
      event.preventDefault();
      browse(keys[event.key]);
    } else if (event.key === 'Escape' && !$('end').hidden) {
      state.endClosed = true;
      render();
    } else if (/^[A-Za-z]$/.test(event.key) && canPlay() &&
      (state.legal.includes(event.key) || directedMoves(event.key).length)) {
      pitClicked(event.key);
    } else if ((event.key === '<' || event.key === '>') && state.choosing && canPlay()) {
      // The direction of the pit asked about: `<` clockwise, `>` counter-clockwise.
      humanPlay(state.choosing + event.key);
    }
  });
  window.addEventListener('pagehide', () => {
    if (link.boardId) navigator.sendBeacon(`/api/boards/${link.boardId}/close`);
  });
  setInterval(clockTick, 100);
}

async function main() {
  wire();
  try {
    await link.openBoard();
    await startEngine();
    await offerDeal();
  } catch (e) {
    state.broken = true;
    setStatus(`no board: ${e.message}`, true);
    setBusy();
    return;
  }
  control(() => startGame('startpos'));
}

// For tests and people at the console: the page's state in one object.
window.mancalaBoard = { state, moveName };

main();
