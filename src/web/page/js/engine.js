// The engine session.

import { $, PROVEN } from './games.js';

// The page's one engine session (main connects it).
export let engine = null;

export function useEngine(session) {
  engine = session;
}

export class Engine {
  constructor(onInfo, onClose) {
    this.nextId = 1;
    this.pending = new Map();
    this.onInfo = onInfo;
    this.onClose = onClose;
    this.bestmove = null;
  }

  connect() {
    return new Promise((resolve, reject) => {
      const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
      this.socket = new WebSocket(`${scheme}://${location.host}/ws`);
      this.socket.onopen = () => {
        this.opened = true;
        resolve();
      };
      this.socket.onerror = () => reject(new Error('cannot reach the engine'));
      // A socket refused before it opened is told by connect's error instead; the
      // server says why it closed one (idle, a bound) in the close frame's reason.
      this.socket.onclose = (event) => this.opened && this.onClose(event.reason);
      this.socket.onmessage = (event) => this.receive(event.data);
    });
  }

  // One message is one protocol message: a reply (`=`/`?`, the id, the text, an empty
  // line) or an unsolicited line (`info`, `bestmove`, `readyok`).
  receive(text) {
    if (text[0] === '=' || text[0] === '?') {
      const ok = text[0] === '=';
      const id = /^\d*/.exec(text.slice(1))[0];
      let body = text.slice(1 + id.length);
      body = body.startsWith(' ') ? body.slice(1) : body.replace(/^\n/, '');
      body = body.replace(/\n+$/, '');
      const waiting = this.pending.get(id);
      if (waiting) {
        this.pending.delete(id);
        waiting({ ok, text: body });
      }
      return;
    }
    for (const line of text.split('\n')) {
      if (line.startsWith('info ')) {
        this.onInfo(line);
      } else if (line.startsWith('bestmove ')) {
        const waiting = this.bestmove;
        this.bestmove = null;
        // The move is the first word (a `ponder` move may follow).
        if (waiting) waiting(line.slice('bestmove '.length).trim().split(/\s+/)[0]);
      }
    }
  }

  // Sends one request; resolves with its reply, { ok, text }.
  request(command) {
    const id = String(this.nextId++);
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.socket.send(`${id} ${command}`);
    });
  }

  // `go` with the limits; resolves with the best move.
  async think(limits) {
    const best = new Promise((resolve) => { this.bestmove = resolve; });
    const started = await this.request(`go ${limits}`);
    if (!started.ok) {
      this.bestmove = null;
      throw new Error(started.text);
    }
    return best;
  }

  // A short search of the position the session is on, for the page itself (not shown
  // as thinking): its last score, the side to move's, in centi-units (a mate as
  // ±PROVEN·10); 0 when it gave none.
  async evaluate(limits) {
    let last = null;
    const show = this.onInfo;
    this.onInfo = (line) => {
      const words = line.split(' ');
      const s = words.indexOf('score');
      if (s >= 0) last = words[s + 1] === 'mate' ? Math.sign(Number(words[s + 2])) * PROVEN * 10 : Number(words[s + 2]);
    };
    try {
      await this.think(limits);
    } finally {
      this.onInfo = show;
    }
    return last ?? 0;
  }

  stop() {
    return this.request('stop');
  }
}
