// Drawing the board: the pits and stores of any two-row game, turned so that the person's row is
// at the bottom, and a move shown counter by counter (the lifted counters travel in a hand and
// fall one by one). It draws what it is given and knows no rules.

const $ = (id) => document.getElementById(id);

// The most stones drawn in a pit (the count says how many there are).
const MOST_STONES = 12;

export function moveName(pit, n) {
  return pit < n ? String.fromCharCode(65 + pit) : String.fromCharCode(97 + pit - n);
}

export function pitOf(letter, n) {
  return letter >= 'a' ? n + letter.charCodeAt(0) - 97 : letter.charCodeAt(0) - 65;
}

// A position string (`6-6-…-0-0-S[-X]`) of a game of `n` pits a row; in a match of rounds a pit
// blocked for the round is `x` (it holds nothing); a child's count is marked with its owner
// (`5s`, `5n`); a match for territory adds a field naming each pit's owner (`S` or `N`, in pit
// order), the only field of 2n letters.
export function parsePosition(text, n) {
  const fields = text.split('-');
  const cells = fields.slice(0, 2 * n);
  const owners = fields.slice(2 * n + 3).find((f) => f.length === 2 * n && /^[SN]+$/.test(f));
  // A match of rounds won: the rounds each player has won, `South:North`.
  const won = fields.slice(2 * n + 3).find((f) => /^[0-9]+:[0-9]+$/.test(f));
  return {
    owners: owners ? [...owners] : null,
    roundWins: won ? won.split(':').map(Number) : null,
    text,
    pits: cells.map((cell) => (cell === 'x' ? 0 : parseInt(cell, 10))),
    blocked: cells.map((cell) => cell === 'x'),
    children: cells.map((cell) => (/^[0-9]+[sn]$/.test(cell) ? cell.slice(-1).toUpperCase() : null)),
    captured: [Number(fields[2 * n]), Number(fields[2 * n + 1])],
    side: fields[2 * n + 2],
  };
}

// The counters of a pit drawn as stones, up to a dozen.
function stones(count) {
  const group = document.createElement('span');
  group.className = 'stones';
  group.setAttribute('aria-hidden', 'true');
  for (let i = 0; i < Math.min(count, MOST_STONES); i++) {
    const stone = document.createElement('span');
    stone.className = 'stone';
    group.append(stone);
  }
  if (count > MOST_STONES) group.classList.add('many');
  return group;
}

// The inside of a pit: its stones, and its count below them (never over a stone).
function fillPit(button, count) {
  const number = document.createElement('span');
  number.className = 'count';
  number.textContent = String(count);
  button.replaceChildren(stones(count), number);
  button.dataset.count = count;
}

// Whether a board of `n` pits a row stands upright in `width` pixels: pits narrower than a
// finger (42 px) would be too small to touch.
export function uprightIn(width, n) {
  return (width - 130) / n < 42;
}

// Draws `pos` on the board element. `opts`: game { pits, stores }, previous (the position
// before the last move, for its marks), lastMove, flipped (North's row at the bottom), names
// [South's, North's], playable(move), onPit(move), toMove ('S', 'N' or '').
export function drawBoard(board, pos, opts) {
  const n = opts.game.pits;
  board.style.setProperty('--pits', n);
  board.querySelectorAll('.pit, .store, .letter').forEach((el) => el.remove());
  const upright = uprightIn(board.parentElement.clientWidth, n);
  board.classList.toggle('upright', upright);
  board.classList.toggle('flipped', !!opts.flipped);
  if (!pos) return;
  board.dataset.turn = opts.toMove;
  board.dataset.position = pos.text;
  const before = opts.previous;
  const last = opts.lastMove;
  const origin = last && last !== 'pass' ? pitOf(last, n) : -1;
  // `row` 1 to 4 (top letters, top pits, bottom pits, bottom letters) and `col` 1 to n + 2 (the
  // left store, the pits, the right store), for South at the bottom; turned half round when
  // North is, and a quarter round when the board stands upright.
  const place = (el, row, col) => {
    let [r, c] = [row, col];
    if (opts.flipped) [r, c] = [r === '2 / 4' ? r : 5 - r, n + 3 - c];
    if (upright) {
      el.style.gridRow = String(c);
      el.style.gridColumn = r === '2 / 4' ? '2 / 4' : String(5 - r);
    } else {
      el.style.gridRow = String(r);
      el.style.gridColumn = String(c);
    }
    board.appendChild(el);
    return el;
  };
  const make = (tag, cls, text) => {
    const el = document.createElement(tag);
    el.className = cls;
    if (text !== undefined) el.textContent = text;
    return el;
  };
  // Games with stores (sown into, or drawn on the board) keep their counters in stores; the
  // others' are captured counters beside the board.
  const storeLabel = opts.game.stores ? 'store' : 'captured';
  const gain = (side) => (before ? pos.captured[side] - before.captured[side] : 0);
  for (const side of [0, 1]) {
    const el = make('div', `store ${side ? 'north' : 'south'}`);
    el.id = side ? 'north-store' : 'south-store';
    el.classList.toggle('to-move', opts.toMove === (side ? 'N' : 'S'));
    const name = make('span', 'who', opts.names[side]);
    const total = make('b', 'total', String(pos.captured[side]));
    el.append(name, total, make('span', 'what', storeLabel));
    if (gain(side) > 0) el.append(make('span', 'gain', `+${gain(side)}`));
    el.dataset.captured = pos.captured[side];
    el.setAttribute('aria-label', `${opts.names[side]}: ${pos.captured[side]} ${storeLabel}`);
    place(el, '2 / 4', side ? 1 : n + 2);
  }
  for (let col = 0; col < n; col++) {
    // North's row from North's right to North's left, above South's row from South's left.
    const northPit = 2 * n - 1 - col;
    const southPit = col;
    place(make('div', 'letter', moveName(northPit, n)), 1, col + 2);
    place(make('div', 'letter', moveName(southPit, n)), 4, col + 2);
    for (const [pit, row] of [[northPit, 2], [southPit, 3]]) {
      const move = moveName(pit, n);
      const side = row === 2 ? 'N' : 'S';
      const button = make('button', `pit ${side === 'N' ? 'north' : 'south'}`);
      fillPit(button, pos.pits[pit]);
      // In a match for territory a pit may belong to the player across the board this round.
      const owner = pos.owners ? pos.owners[pit] : side;
      const ownerNote = owner === side ? '' : `, owned by ${opts.names[owner === 'N' ? 1 : 0]}`;
      if (owner !== side) button.classList.add('changed-hands');
      // A child: a pit a move made a player's own (nobody plays it; its counters are its owner's).
      const child = pos.children ? pos.children[pit] : null;
      const childNote = child ? `, ${opts.names[child === 'N' ? 1 : 0]}'s child` : '';
      if (child) button.classList.add('child', child === 'N' ? 'child-north' : 'child-south');
      if (opts.toMove === owner) button.classList.add('to-move');
      button.dataset.pit = pit;
      button.dataset.move = move;
      const playable = opts.playable(move);
      if (pos.blocked[pit]) {
        // Out of play for this round (or, in a game whose pits close, for the rest of the
        // game): nobody plays it.
        button.classList.add('blocked');
        button.querySelector('.count').textContent = '×';
        button.setAttribute('aria-label', `pit ${move}, ${opts.game.closing ? 'closed' : 'blocked for this round'}`);
      } else {
        button.setAttribute('aria-label', `pit ${move}, ${pos.pits[pit]} counters${ownerNote}${childNote}${playable ? ', play it' : ''}`);
      }
      if (playable) button.classList.add('legal');
      else button.setAttribute('aria-disabled', 'true');
      // A pit that cannot be played still takes a click: during a move's showing, it shows
      // the move's end at once.
      button.addEventListener('click', () => opts.onPit(move, playable));
      if (before) {
        if (pit === origin) button.classList.add('origin');
        else if (pos.pits[pit] > before.pits[pit]) button.classList.add('sown');
        else if (pos.pits[pit] < before.pits[pit]) button.classList.add('taken');
      }
      place(button, row, col + 2);
    }
  }
}

// Clears the last move's marks (rings and gains): a new move is starting.
export function clearMarks(board) {
  board.querySelectorAll('.pit').forEach((p) => p.classList.remove('origin', 'sown', 'taken', 'lifted', 'dropped', 'captured'));
  board.querySelectorAll('.gain').forEach((g) => g.remove());
}

// The sound of counters falling: a short tick, made on the spot (no file to fetch).
export class Sound {
  constructor() { this.on = false; this.context = null; }

  tick(pitch) {
    if (!this.on) return;
    try {
      this.context = this.context || new AudioContext();
      const t = this.context.currentTime;
      const osc = this.context.createOscillator();
      const gain = this.context.createGain();
      osc.type = 'triangle';
      osc.frequency.setValueAtTime(pitch || 880, t);
      osc.frequency.exponentialRampToValueAtTime(220, t + 0.06);
      gain.gain.setValueAtTime(0.15, t);
      gain.gain.exponentialRampToValueAtTime(0.001, t + 0.08);
      osc.connect(gain).connect(this.context.destination);
      osc.start(t);
      osc.stop(t + 0.09);
    } catch (e) { /* no audio here: silence */ }
  }
}

// Shows a move told as `query sowing` tells it (`C:4 D E F *S again`, `xb:3>S`, `x*S:5>N`, `+C>S`, `B>C`, `-a`, `#a`, …) on the
// drawn board, from position `pos`: the lifted counters travel in a hand over the pits and fall
// one by one, captures fly to their store. `stop()` says when to show the end at once (a click,
// a key, any control). Resolves when shown.
export async function showSowing(board, pos, trace, { n, stop, sound, duration = 1800 }) {
  const hand = $('hand');
  const words = trace.split(' ');
  const pause = Math.max(12, Math.min(110, duration / words.length));
  const pits = [...pos.pits];
  const captured = [...pos.captured];
  let holding = 0;
  clearMarks(board);
  board.classList.add('sowing');
  hand.style.setProperty('--travel', `${Math.round(pause * 0.8)}ms`);
  // Moves the hand over `el`, holding `count` counters.
  const handOver = (el, count) => {
    const frame = board.parentElement.getBoundingClientRect();
    const box = el.getBoundingClientRect();
    hand.style.transform = `translate(${box.left - frame.left + box.width / 2}px, ${box.top - frame.top + box.height / 2}px)`;
    hand.replaceChildren(stones(count));
    hand.dataset.count = count;
    hand.hidden = count === 0;
  };
  const pitEl = (letter) => board.querySelector(`.pit[data-pit="${pitOf(letter, n)}"]`);
  const storeEl = (side) => $(side === 'S' ? 'south-store' : 'north-store');
  const showStore = (side) => {
    const total = storeEl(side).querySelector('.total');
    if (total) total.textContent = String(captured[side === 'S' ? 0 : 1]);
    storeEl(side).classList.remove('dropped');
    void storeEl(side).offsetWidth;
    storeEl(side).classList.add('dropped');
  };
  // Flies `count` counters in the hand from `from` to `side`'s store; false if stopped on the
  // way.
  const flyToStore = async (from, count, side, tone) => {
    handOver(from, count);
    await new Promise((r) => setTimeout(r, pause));
    if (stop()) return false;
    handOver(storeEl(side), count);
    captured[side === 'S' ? 0 : 1] += count;
    showStore(side);
    sound.tick(tone);
    holding = 0;
    hand.hidden = true;
    return true;
  };
  const showPit = (letter, what) => {
    const el = pitEl(letter);
    if (!el) return;
    fillPit(el, pits[pitOf(letter, n)]);
    el.classList.remove('lifted', 'dropped', 'captured');
    void el.offsetWidth; // restart the flash
    el.classList.add(what);
  };
  try {
    for (const word of words) {
      if (stop()) break;
      let m;
      if ((m = /^([A-Za-z]):(\d+)$/.exec(word))) {
        // A lift: the pit empties into the hand.
        holding = Number(m[2]);
        pits[pitOf(m[1], n)] = 0;
        handOver(pitEl(m[1]), 0);
        showPit(m[1], 'lifted');
        handOver(pitEl(m[1]), holding);
      } else if ((m = /^x([A-Za-z]):(\d+)>([SN])$/.exec(word))) {
        // A capture: the counters fly from the pit to the store.
        const count = Number(m[2]);
        pits[pitOf(m[1], n)] -= count;
        showPit(m[1], 'captured');
        if (!(await flyToStore(pitEl(m[1]), count, m[3], 440))) break;
      } else if ((m = /^x\*([SN]):(\d+)>([SN])$/.exec(word))) {
        // A store given away: its counters fly to the other store.
        const count = Number(m[2]);
        captured[m[1] === 'S' ? 0 : 1] -= count;
        showStore(m[1]);
        if (!(await flyToStore(storeEl(m[1]), count, m[3], 330))) break;
      } else if ((m = /^\+([A-Za-z])>([SN])$/.exec(word))) {
        // A pit becomes a player's child: ringed in that player's colour from now on.
        const el = pitEl(m[1]);
        if (el) el.classList.add('child', m[2] === 'N' ? 'child-north' : 'child-south');
        showPit(m[1], 'dropped');
        sound.tick(550);
      } else if ((m = /^([A-Za-z])>([A-Za-z])$/.exec(word))) {
        // One counter moved on from a pit to another (a first move that is not sown).
        pits[pitOf(m[1], n)] -= 1;
        showPit(m[1], 'lifted');
        handOver(pitEl(m[1]), 1);
        await new Promise((r) => setTimeout(r, pause));
        if (stop()) break;
        handOver(pitEl(m[2]), 0);
        pits[pitOf(m[2], n)] += 1;
        showPit(m[2], 'dropped');
        sound.tick(880);
      } else if ((m = /^-([A-Za-z])$/.exec(word))) {
        // A counter for the opponent's closed pit leaves the game.
        holding = Math.max(0, holding - 1);
        handOver(pitEl(m[1]), holding);
        showPit(m[1], 'captured');
        sound.tick(330);
      } else if ((m = /^#([A-Za-z])$/.exec(word))) {
        // The pit closes: its counters are lifted next and sown on.
        const el = pitEl(m[1]);
        if (el) el.classList.add('blocked');
        sound.tick(220);
      } else if ((m = /^\*([SN])$/.exec(word))) {
        holding = Math.max(0, holding - 1);
        handOver(storeEl(m[1]), holding);
        captured[m[1] === 'S' ? 0 : 1] += 1;
        showStore(m[1]);
        sound.tick(660);
      } else if (/^[A-Za-z]$/.test(word)) {
        holding = Math.max(0, holding - 1);
        handOver(pitEl(word), holding);
        pits[pitOf(word, n)] += 1;
        showPit(word, 'dropped');
        sound.tick(880);
      } else {
        continue; // `again`, `endless`: the position read back says what follows
      }
      await new Promise((r) => setTimeout(r, pause));
    }
  } finally {
    hand.hidden = true;
    board.classList.remove('sowing');
  }
}
