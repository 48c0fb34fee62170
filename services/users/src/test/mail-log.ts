import { mkdtempSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A message as read back from its raw MIME form: the headers tests care about and the text part. */
export interface LoggedMail {
  file: string;
  from: string;
  to: string;
  replyTo: string;
  subject: string;
  text: string;
  html: string;
}

export function tempMailDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'chat-mail-'));
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= / ?B?), as nodemailer writes non-ASCII headers. */
function decodeHeader(value: string): string {
  return value.replace(/\s*=\?UTF-8\?([QB])\?([^?]*)\?=\s*/gi, (_m, kind: string, data: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'),
  );
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Parses the raw message: unfolded headers, and the text/plain and text/html parts decoded. */
export function parseMail(raw: string, file = ''): LoggedMail {
  const source = raw.replace(/\r\n/g, '\n');
  const split = source.indexOf('\n\n');
  const headerBlock = source.slice(0, split).replace(/\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of headerBlock.split('\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  const parts = source.slice(split + 2).split(/\n--[^\n]+\n/);
  const part = (type: string) => {
    const p = parts.find((x) => x.toLowerCase().includes(`content-type: ${type}`));
    if (!p) return '';
    const body = p.slice(p.indexOf('\n\n') + 2);
    return /content-transfer-encoding: quoted-printable/i.test(p) ? decodeQuotedPrintable(body) : body;
  };
  return {
    file,
    from: decodeHeader(headers.get('from') ?? ''),
    to: headers.get('to') ?? '',
    replyTo: headers.get('reply-to') ?? '',
    subject: decodeHeader(headers.get('subject') ?? ''),
    text: part('text/plain'),
    html: part('text/html'),
  };
}

/** Every message in the log directory, oldest first (file names start with the time). */
export async function readMailLog(dir: string): Promise<LoggedMail[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return Promise.all(names.map(async (n) => parseMail(await readFile(path.join(dir, n), 'utf8'), n)));
}

/** The sign-up key in a message's invitation link. */
export function joinKeyIn(mail: LoggedMail): string {
  const m = /\/join\/([a-z0-9]+)\//.exec(mail.text);
  if (!m) throw new Error(`no invitation link in: ${mail.text}`);
  return m[1]!;
}
