// HTTP/1.1 as the bench's load processes speak it: requests written as text on a keep-alive
// socket, answers split out of its bytes by their head (Content-Length or chunked).
//
// The load shares the two cores with the cluster it measures. node:http's client cost about as
// much CPU per answer as the gateway spent serving it, so its queueing was counted as the
// servers' time and its CPU taken from them. Every answer is still read in full.
import net from 'node:net';

const HEAD_END = Buffer.from('\r\n\r\n');

/** One answer's head: status, Content-Length, chunked or not, and whether the server closes. */
function parseHead(head) {
  const lines = head.split('\r\n');
  const status = Number(lines[0].split(' ')[1]);
  let length = -1;
  let chunked = false;
  let close = false;
  for (let i = 1; i < lines.length; i++) {
    const colon = lines[i].indexOf(':');
    const name = lines[i].slice(0, colon).trim().toLowerCase();
    const value = lines[i].slice(colon + 1).trim();
    if (name === 'content-length') length = Number(value);
    else if (name === 'transfer-encoding') chunked = /chunked/i.test(value);
    else if (name === 'connection') close = /close/i.test(value);
  }
  return { status, length, chunked, close };
}

/** A chunked body, or null while incomplete: [body, bytes consumed]. */
function dechunk(buf) {
  const parts = [];
  let at = 0;
  for (;;) {
    const eol = buf.indexOf('\r\n', at);
    if (eol < 0) return null;
    const size = parseInt(buf.toString('latin1', at, eol), 16);
    if (buf.length < eol + 2 + size + 2) return null;
    if (size === 0) return [Buffer.concat(parts), eol + 4];
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/**
 * A 'data' listener that calls `onAnswer(status, body, close, now)` for each complete answer
 * (`now`: Date.now() when the bytes that completed it arrived).
 */
export function answerReader(onAnswer) {
  let buf = Buffer.alloc(0);
  let head = null;
  return (d) => {
    const now = Date.now();
    buf = buf.length ? Buffer.concat([buf, d]) : d;
    for (;;) {
      if (!head) {
        const end = buf.indexOf(HEAD_END);
        if (end < 0) return;
        head = parseHead(buf.toString('latin1', 0, end));
        buf = buf.subarray(end + 4);
      }
      let body;
      if (head.chunked) {
        const r = dechunk(buf);
        if (!r) return;
        [body, buf] = [r[0], buf.subarray(r[1])];
      } else {
        if (head.length < 0 || buf.length < head.length) return;
        [body, buf] = [buf.subarray(0, head.length), buf.subarray(head.length)];
      }
      const { status, close } = head;
      head = null;
      onAnswer(status, body, close, now);
    }
  };
}

/** `target`: the URL's host and port. */
export function connectTo(target) {
  return net.connect({ host: target.hostname, port: Number(target.port), noDelay: true });
}

/**
 * One keep-alive connection sending a request at a time, as a client in a loop does. A closed
 * socket is opened again for the next request.
 */
export class Connection {
  constructor(target) {
    this.target = target;
    this.socket = null;
    this.waiting = null;
  }

  /** Resolves with { status, body } or { error }. */
  request(text) {
    if (!this.socket) this.open();
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.socket.write(text);
    });
  }

  /** Opens the connection ahead of the first request; resolves once it is up (or failed). */
  ready() {
    if (!this.socket) this.open();
    const socket = this.socket;
    return new Promise((resolve) => {
      if (!socket.connecting) return resolve();
      socket.once('connect', resolve);
      socket.once('close', resolve);
    });
  }

  open() {
    const socket = connectTo(this.target);
    this.socket = socket;
    socket.on('data', answerReader((status, body, close) => {
      if (close) this.drop(socket);
      this.settle({ status, body });
    }));
    socket.on('error', (err) => {
      this.drop(socket);
      this.settle({ error: err.message });
    });
    socket.on('close', () => {
      this.drop(socket);
      this.settle({ error: 'connection closed' });
    });
  }

  drop(socket) {
    if (this.socket === socket) this.socket = null;
    socket.destroy();
  }

  settle(result) {
    const resolve = this.waiting;
    this.waiting = null;
    resolve?.(result);
  }

  close() {
    if (this.socket) this.drop(this.socket);
  }
}
