// One websocket to a table (docs/PROTOCOL.md), with resync by sequence number.
//
// The connection remembers the highest seq it has seen. On every (re)connection it sends
// hello with that seq and the server answers with what was missed (or a snapshot). A stream
// message whose seq skips ahead means something was lost: the connection asks again with
// hello. Dropped sockets reconnect by themselves with a growing pause (up to 5 s). The
// connection says `batch: true` in hello: the updates of one burst (an action and the bots'
// replies) come in one `batch` frame, whose updates are checked by seq as lone ones are; so
// do the updates of a replay, each batch marked `replayed`.

const STREAM = new Set(["update", "seats", "continue", "chat", "rematch"]);

// Close codes that end the seat for good: the status they leave the connection in.
const ENDED = { 4401: "signed_out", 4409: "claimed" };

export class TableConnection {
  /**
   * @param {string} tableId
   * @param {string|null} token the seat token, or null to watch
   * @param {{onMessage: Function, onStatus: Function}} handlers
   */
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.lastSeq = null;
    this.ws = null;
    this.closed = false;
    this.retries = 0;
    this.syncing = false;
    this.status = "connecting";
    this.nextId = 1;
    this.holdUntil = 0;
    this.pingTimer = null;
    this.pongTimer = null;
    this.reconnectTimer = null;
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const base = location.pathname.replace(/[^/]*$/, "");
    return `${proto}//${location.host}${base}ws/${encodeURIComponent(this.tableId)}`;
  }

  start() {
    this.closed = false;
    this.open();
  }

  open() {
    clearTimeout(this.reconnectTimer);
    this.setStatus(this.lastSeq === null && this.retries === 0 ? "connecting" : "reconnecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.retries = 0;
      this.hello();
      this.startPing();
    };
    ws.onmessage = (e) => {
      if (ws !== this.ws) return;
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = (e) => {
      if (ws !== this.ws) return;
      this.stopPing();
      this.ws = null;
      const ended = ENDED[e.code];
      if (ended) {
        // the seat token was revoked (docs/PROTOCOL.md): reconnecting with it is useless
        this.closed = true;
        this.setStatus(ended);
        return;
      }
      if (this.closed) {
        this.setStatus("closed");
        return;
      }
      this.setStatus("reconnecting");
      this.scheduleReconnect();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  scheduleReconnect() {
    if (this.closed) return;
    const delay = Math.min(5000, 250 * 2 ** this.retries);
    this.retries += 1;
    const wait = Math.max(delay, this.holdUntil - Date.now());
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.open(), wait);
  }

  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.handlers.onStatus?.(status);
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  hello() {
    this.syncing = true;
    this.send({ type: "hello", token: this.token, last_seq: this.lastSeq, batch: true });
  }

  /** Act for the seat; the seq makes a click on an out-of-date screen harmless. */
  act(action) {
    const id = `a${this.nextId++}`;
    const sent = this.send({ type: "act", action, seq: this.lastSeq, id });
    return sent ? id : null;
  }

  request(type, extra = {}) {
    return this.send({ type, ...extra });
  }

  receive(msg) {
    const seq = typeof msg.seq === "number" ? msg.seq : null;
    if (msg.type === "snapshot") {
      this.lastSeq = seq;
      this.syncing = false;
      this.setStatus("open");
    } else if (msg.type === "resumed") {
      this.lastSeq = Math.max(this.lastSeq ?? 0, seq ?? 0);
      this.syncing = false;
      this.setStatus("open");
    } else if (STREAM.has(msg.type)) {
      if (this.lastSeq !== null && seq !== null) {
        if (seq <= this.lastSeq) return; // seen already (a resync overlapping live frames)
        if (seq > this.lastSeq + 1) {
          // A gap: something was lost. Ask for everything after the last seq we hold.
          if (!this.syncing) this.hello();
          return;
        }
      }
      this.lastSeq = seq;
    } else if (msg.type === "batch") {
      // the updates not seen yet (a resync may overlap them); the last carries the state
      const updates = (msg.updates || []).filter((u) => this.lastSeq === null || u.seq > this.lastSeq);
      if (!updates.length) return;
      if (this.lastSeq !== null && updates[0].seq > this.lastSeq + 1) {
        if (!this.syncing) this.hello();
        return;
      }
      this.lastSeq = updates[updates.length - 1].seq;
      // a batch before `resumed` is part of a replay (what was missed while away)
      msg = { ...msg, updates, replayed: this.syncing };
    } else if (msg.type === "game_over") {
      if (this.lastSeq !== null && seq !== null && seq < this.lastSeq) return;
    } else if (msg.type === "pong") {
      clearTimeout(this.pongTimer);
      return;
    }
    this.handlers.onMessage(msg);
  }

  startPing() {
    this.stopPing();
    this.pingTimer = setInterval(() => {
      if (!this.send({ type: "ping" })) return;
      clearTimeout(this.pongTimer);
      this.pongTimer = setTimeout(() => this.ws?.close(), 10000);
    }, 20000);
  }

  stopPing() {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
  }

  /** Test and debugging aid: drop the socket as a network failure would, reconnecting after `ms`. */
  drop(ms = 0) {
    this.holdUntil = Date.now() + ms;
    this.ws?.close();
  }

  /** Reconnect at once (after drop(), or when the player asks). */
  reconnectNow() {
    this.holdUntil = 0;
    if (!this.ws && !this.closed) this.open();
  }

  close() {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.stopPing();
    this.ws?.close();
    this.ws = null;
  }
}
