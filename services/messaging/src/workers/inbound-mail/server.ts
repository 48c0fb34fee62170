/**
 * The email gateway's SMTP listener (ADR 0039): the operator's MTA hands it the mail domain's
 * mail. Every decision is made inside the SMTP dialogue, so nothing is accepted and then dropped:
 * an unknown, expired or used-up address or a sender over its limit is refused at RCPT TO, an
 * oversize mail or one the send path refuses at the end of DATA, with a 5xx the MTA bounces;
 * a fault of ours (database down) is a 451, which the MTA retries.
 *
 * One recipient per transaction (the second RCPT gets 452, and RFC 5321 senders then send the
 * mail again for the rest): each recipient then gets its own answer to DATA. Replicas keep no
 * state; limits are counted in Redis, so the MTA may spread mail over any number of them.
 */
import { simpleParser } from 'mailparser';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { counterOf, type Metrics, type RedisStore } from '@chat/kit';
import type { Services } from '../../context';
import { checkInboundRecipient, doPostInboundMail, MailRefusal, type InboundContext, type InboundTarget } from '../../actions/inbound-mail';

export interface InboundMailOptions {
  host: string;
  port: number;
  maxBytes: number;
  senderPerMinute: number;
  realmPerMinute: number;
  redis: RedisStore;
  keyPrefix: (subject: 'sender' | 'realm') => string;
  context: InboundContext;
  /** The service's registry: posted, refused (5xx) and deferred (4xx) mail are counted there. */
  metrics?: Metrics;
}

export interface InboundMailListener {
  port: number;
  stop(): Promise<void>;
}

/** An error smtp-server sends as the reply: `<code> <text>`. */
function reply(code: number, text: string): Error & { responseCode: number } {
  return Object.assign(new Error(text), { responseCode: code });
}

function limiter(redis: RedisStore, keyPrefix: string, perMinute: number): RateLimiterRedis | null {
  return perMinute > 0 ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points: perMinute, duration: 60 }) : null;
}

/** Counts one mail against a limit; a refusal when it is used up. */
async function consume(limit: RateLimiterRedis | null, key: string, what: string): Promise<void> {
  if (!limit) return;
  try {
    await limit.consume(key);
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    throw new MailRefusal(550, `5.7.1 Rate limit exceeded for ${what}; try again in ${Math.ceil(err.msBeforeNext / 1000)} s.`);
  }
}

function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

export async function startInboundMail(services: Services, opts: InboundMailOptions): Promise<InboundMailListener> {
  const { log } = services;
  const bySender = limiter(opts.redis, opts.keyPrefix('sender'), opts.senderPerMinute);
  const byRealm = limiter(opts.redis, opts.keyPrefix('realm'), opts.realmPerMinute);
  // What RCPT decided, for DATA; an envelope object lives for one transaction.
  const targets = new WeakMap<SMTPServerSession['envelope'], InboundTarget>();
  const counts = { posted: 0, refused: 0, deferred: 0 };
  if (opts.metrics) {
    counterOf(opts.metrics, 'messaging_inbound_mail_posted_total', 'Mails the inbound listener posted', () => counts.posted);
    counterOf(opts.metrics, 'messaging_inbound_mail_refused_total', 'Mails (or recipients) the inbound listener refused with a 5xx', () => counts.refused);
    counterOf(opts.metrics, 'messaging_inbound_mail_deferred_total', 'Mails the inbound listener answered with a 4xx (a fault of ours, or a second recipient)', () => counts.deferred);
  }

  const refusal = (err: unknown, during: string): Error => {
    if (err instanceof MailRefusal) {
      counts.refused++;
      return reply(err.responseCode, err.message);
    }
    counts.deferred++;
    log.error({ err }, `inbound mail: ${during} failed`);
    return reply(451, '4.3.0 Temporary failure, try again later.');
  };

  const server = new SMTPServer({
    banner: 'email gateway',
    size: opts.maxBytes,
    authOptional: true,
    // TLS and authentication belong to the operator's MTA in front; this hop is internal.
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length > 0) {
        counts.deferred++;
        return callback(reply(452, '4.5.3 One recipient per mail; send again for the others.'));
      }
      const from = session.envelope.mailFrom ? session.envelope.mailFrom.address.toLowerCase() : '';
      void (async () => {
        const target = await checkInboundRecipient(services, opts.context, address.address);
        await consume(bySender, from || '<>', 'this sender');
        // Channel addresses take mail from automated systems: the realm's limit is the family's.
        if (target.kind === 'channel') await consume(byRealm, String(target.realmId), 'this organization');
        targets.set(session.envelope, target);
      })().then(
        () => callback(),
        (err) => {
          log.info({ to: address.address, from, reason: err instanceof Error ? err.message : String(err) }, 'inbound mail refused at RCPT');
          callback(refusal(err, 'RCPT'));
        },
      );
    },
    onData(stream, session, callback) {
      void (async () => {
        const raw = await readAll(stream);
        if (stream.sizeExceeded) throw new MailRefusal(552, `5.3.4 Message exceeds the ${opts.maxBytes} bytes allowed.`);
        const target = targets.get(session.envelope);
        if (!target) throw new MailRefusal(554, '5.5.1 No valid recipients.');
        // No text made from the HTML: a mail with HTML only is converted to Markdown instead (mail-body.ts).
        const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
        return doPostInboundMail(services, opts.context, target, mail);
      })().then(
        (messageId) => {
          counts.posted++;
          log.info({ messageId }, 'inbound mail posted');
          callback(null, `Posted as message ${messageId}`);
        },
        (err) => {
          log.info({ reason: err instanceof Error ? err.message : String(err) }, 'inbound mail refused at DATA');
          callback(refusal(err, 'DATA'));
        },
      );
    },
  });
  server.on('error', (err) => log.warn({ err }, 'inbound mail listener error'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.server.address() as { port: number }).port;
  log.info({ host: opts.host, port }, 'inbound mail listener ready');
  return {
    port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
