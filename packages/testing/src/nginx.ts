/**
 * nginx (the Debian package) as the load balancer in front of replicas started on this machine:
 * one listening port per service, each spreading requests over that service's replicas, with
 * the long-poll-friendly timeouts of infra/nginx/compose.conf. Installed with apt-get when
 * missing (root only).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errors, LIMITS } from '@chat/contracts';

/**
 * Room a proxy leaves above the largest file the uploads service takes: a multipart body carries
 * its boundary and part headers, and a file just over the limit must reach the service, which
 * refuses it in the API's envelope. The same headroom is in infra/nginx/compose.conf and the
 * Ingress (k8s/base/ingress.yaml).
 */
export const PROXY_BODY_HEADROOM_MIB = 20;

/** nginx's body cap for an upload limit of `maxUploadMib`. */
export function proxyBodyLimitMib(maxUploadMib: number = LIMITS.maxFileUploadSizeMib): number {
  return maxUploadMib + PROXY_BODY_HEADROOM_MIB;
}

export interface Balancer {
  /** Listening URL per group name (e.g. a service). */
  urls: Record<string, string>;
  stop(): Promise<void>;
}

function nginxBinary(): string {
  const found = spawnSync('sh', ['-c', 'command -v nginx || ls /usr/sbin/nginx 2>/dev/null'], { encoding: 'utf8' }).stdout.trim().split('\n')[0];
  if (found) return found;
  if (process.getuid?.() !== 0) throw new Error('nginx is not installed: apt-get install nginx');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let res = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'nginx'], { env, stdio: 'ignore' });
  if (res.status !== 0) {
    spawnSync('apt-get', ['update'], { env, stdio: 'ignore' });
    res = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'nginx'], { env, stdio: 'ignore' });
  }
  if (res.status !== 0) throw new Error('installing nginx with apt-get failed');
  return '/usr/sbin/nginx';
}

/**
 * Starts nginx with one server per group: listening on `listen[group]`, balancing over
 * `upstreams[group]`. `maxUploadMib` is the uploads service's MAX_FILE_UPLOAD_SIZE_MIB: bodies up
 * to it plus the headroom pass; a larger one is refused by nginx, in the API's envelope too.
 */
export async function startBalancer(
  groups: Record<string, { listen: number; upstreams: string[] }>,
  host = '127.0.0.1',
  maxUploadMib: number = LIMITS.maxFileUploadSizeMib,
): Promise<Balancer> {
  const bin = nginxBinary();
  // nginx's own 413 is an HTML page; clients of the API read the envelope.
  const tooLarge = JSON.stringify(errors.fileTooLarge(maxUploadMib).toJSON()).replace(/'/g, "\\'");
  const dir = mkdtempSync(path.join(os.tmpdir(), 'chat-nginx-'));
  // Longer than the longest a client may hold GET /events.
  const timeout = LIMITS.eventQueueLongpollTimeoutSeconds + 30;
  const servers = Object.entries(groups).map(([name, g]) => `
    upstream ${name} {
      ${g.upstreams.map((u) => `server ${new URL(u).host} max_fails=0;`).join('\n      ')}
      keepalive 32;
    }
    server {
      listen ${host}:${g.listen};
      error_page 413 @too_large;
      location @too_large {
        default_type application/json;
        return 413 '${tooLarge}';
      }
      location / {
        proxy_pass http://${name};
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_read_timeout ${timeout}s;
        proxy_send_timeout ${timeout}s;
        proxy_buffering off;
        proxy_request_buffering off;
        proxy_next_upstream error timeout http_502 http_503;
      }
    }`);
  const conf = `
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
${process.getuid?.() === 0 ? 'user root;' : ''}
events { worker_connections 8192; }
http {
  access_log off;
  client_max_body_size ${proxyBodyLimitMib(maxUploadMib)}m;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  ${servers.join('\n')}
}
`;
  writeFileSync(path.join(dir, 'nginx.conf'), conf);
  const child: ChildProcess = spawn(bin, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const urls = Object.fromEntries(Object.entries(groups).map(([name, g]) => [name, `http://${host}:${g.listen}`]));
  const first = Object.values(groups)[0]!;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    const up = await fetch(`http://${host}:${first.listen}/healthz`).then(() => true, () => false);
    if (up) break;
    if (i > 100) throw new Error(`nginx did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    urls,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGQUIT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
