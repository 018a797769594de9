// The page's connection to its board's engine: numbered requests over the board's WebSocket and
// the engine's answers matched to them. It knows the protocol's shape (a request's answer ends
// with a line the caller names) and the board server's own messages, nothing of any game.
//
// One rule keeps answers with their requests: the page sends a request only when every earlier
// one has its answer or has failed (the page's tasks run one at a time, see app.js), except
// `stop`, which has no answer of its own. A line that no request waits for is dropped.

export const QUERY_TIMEOUT = 5000;

export class EngineLink {
  // `onBroken(why)`: the engine stopped, hung or the connection was lost. `onTakenOver()`:
  // another tab took this board.
  constructor({ onBroken, onTakenOver }) {
    this.onBroken = onBroken;
    this.onTakenOver = onTakenOver;
    this.socket = null;
    this.boardId = null;
    this.pending = []; // requests with an answer, in the order sent
    this.silent = new Map(); // number → record, for requests without an answer (a refusal may come)
    this.nextNumber = 1;
    this.broken = false;
  }

  get connected() {
    return !!this.socket && this.socket.readyState === WebSocket.OPEN;
  }

  async api(path) {
    const reply = await fetch(path, { method: 'POST', headers: { 'X-Mancala-Board': '1' } });
    if (!reply.ok) {
      let why = `${reply.status}`;
      try { why = (await reply.json()).error; } catch (e) { /* not JSON */ }
      throw new Error(why);
    }
    return reply.status === 204 ? null : reply.json();
  }

  // A new board (an engine process of its own) and its WebSocket.
  async openBoard() {
    this.boardId = (await this.api('/api/boards')).id;
    await this.connect();
  }

  connect() {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://${location.host}/api/boards/${this.boardId}/socket`);
      socket.onopen = () => { this.socket = socket; resolve(); };
      socket.onerror = () => reject(new Error('cannot connect to the board'));
      socket.onmessage = (event) => { if (this.socket === socket) this.received(event.data); };
      socket.onclose = () => {
        if (this.socket === socket) this.broke('the connection to the board was lost');
      };
    });
  }

  // A new engine for this board, or a new board when this one is gone; every request of the
  // old engine is forgotten (its late answers and refusals included).
  async restart() {
    this.forget(new Error('the engine was restarted'));
    let reopen = !this.connected;
    if (!reopen) {
      try {
        await this.api(`/api/boards/${this.boardId}/restart`);
      } catch (e) {
        if (e.message !== 'no such board') throw e;
        reopen = true;
      }
    }
    if (reopen) {
      this.drop();
      await this.openBoard();
    }
    this.forget(new Error('the engine was restarted'));
    this.broken = false;
  }

  // Closes the socket without its closing being news.
  drop() {
    const old = this.socket;
    this.socket = null;
    if (old) old.close();
  }

  // Rejects every request in flight with `error`.
  forget(error) {
    const waiting = this.pending;
    this.pending = [];
    this.silent.clear();
    for (const entry of waiting) {
      clearTimeout(entry.timer);
      entry.reject(error);
    }
  }

  broke(why) {
    if (this.broken) return;
    this.broken = true;
    this.forget(new Error(why));
    this.onBroken(why);
  }

  // Sends `line` numbered, as the board server wants it; returns the number.
  send(line) {
    const number = this.nextNumber++;
    this.socket.send(`${number} ${line}`);
    return number;
  }

  usable() {
    if (!this.connected || this.broken) throw new Error('the engine is not connected');
  }

  // Sends `line`; resolves with the lines received until `done(line)` says the answer is
  // complete. A request the server refuses is rejected with the reason.
  request(line, done, { timeout = QUERY_TIMEOUT, onLine } = {}) {
    return new Promise((resolve, reject) => {
      try { this.usable(); } catch (e) { reject(e); return; }
      const number = this.send(line);
      const entry = { number, line, done, onLine, lines: [], resolve, reject };
      entry.timer = setTimeout(() => this.broke(`the engine does not answer '${line}'`), timeout);
      this.pending.push(entry);
    });
  }

  // Sends a command that has no answer of its own and waits until the engine has taken it;
  // resolves with what the engine said meanwhile, or fails with the reason if the server
  // refused it or the engine answered with an error.
  async command(line) {
    this.usable();
    const number = this.send(line);
    const record = { refused: null };
    this.silent.set(number, record);
    try {
      const lines = await this.request('isready', (l) => l === 'readyok');
      if (record.refused) throw new Error(record.refused);
      const error = lines.find((l) => l.startsWith('info string error'));
      if (error) throw new Error(error.slice('info string error '.length));
      return lines;
    } finally {
      this.silent.delete(number);
    }
  }

  // `query <what>`: the text of its `response`.
  async query(what) {
    const lines = await this.request(`query ${what}`, (l) => l.startsWith('response') || l.startsWith('info string error'));
    const last = lines[lines.length - 1];
    if (!last.startsWith('response')) throw new Error(last.slice('info string error '.length));
    return last.slice('response'.length).trim();
  }

  received(text) {
    if (text === 'board taken-over') {
      this.socket = null;
      this.broken = true;
      this.forget(new Error('another tab took this board over'));
      this.onTakenOver();
      return;
    }
    if (text.startsWith('board exit')) {
      this.broke('the engine stopped (it may have crashed)');
      return;
    }
    if (text.startsWith('board refused ')) {
      // `board refused <number> <why>`: that request never reached the engine.
      const rest = text.slice('board refused '.length);
      const space = rest.indexOf(' ');
      const number = Number(rest.slice(0, space));
      const why = rest.slice(space + 1);
      const at = this.pending.findIndex((entry) => entry.number === number);
      if (at >= 0) {
        const [entry] = this.pending.splice(at, 1);
        clearTimeout(entry.timer);
        entry.reject(new Error(why));
      } else if (this.silent.has(number)) {
        this.silent.get(number).refused = why;
      }
      return; // a refusal of a request nobody waits for any more is not news
    }
    const head = this.pending[0];
    if (!head) return;
    head.lines.push(text);
    if (head.onLine) head.onLine(text);
    if (head.done(text)) {
      clearTimeout(head.timer);
      this.pending.shift();
      head.resolve(head.lines);
    }
  }
}
