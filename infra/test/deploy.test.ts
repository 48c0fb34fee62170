import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { errors, LIMITS, SERVICES, SERVICE_NODE_ARGS } from '@chat/contracts';
import { proxyBodyLimitMib } from '@chat/testing';

// No container engine runs here, so the deployment files are checked by parsing them, against
// the code: every variable they set must be one a service's config reads, every command a file
// the build produces (scripts/build.mjs, run by npm test before the tests).
const root = path.resolve(__dirname, '../..');
// Merge keys (<<) as docker compose resolves them.
const parse = (text: string) => parseAllDocuments(text, { merge: true }).map((d) => d.toJS() as Record<string, any>).filter(Boolean);
const load = (file: string) => parse(readFileSync(path.join(root, file), 'utf8'));

/** Every environment variable the code reads: config schema keys plus the few read directly. */
function knownEnv(): Set<string> {
  const files = [
    'packages/kit/src/config.ts',
    ...SERVICES.map((s) => `services/${s}/src/config.ts`),
    'services/messaging/src/workers/inbound-mail/config.ts',
  ];
  const names = new Set(['NODE_OPTIONS']);
  for (const f of files) {
    for (const m of readFileSync(path.join(root, f), 'utf8').matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)) names.add(m[1]!);
  }
  return names;
}
const env = knownEnv();
const expectKnown = (names: string[], where: string) => {
  const unknown = names.filter((n) => !env.has(n));
  expect({ where, unknown }).toEqual({ where, unknown: [] });
};
const built = (file: string) => expect({ file, built: existsSync(path.join(root, file)) }).toEqual({ file, built: true });

describe('infra/Dockerfile', () => {
  const text = readFileSync(path.join(root, 'infra/Dockerfile'), 'utf8');
  const final = text.slice(text.lastIndexOf('\nFROM '));
  it('builds the compiled output and ships production dependencies only, as a non-root user with a health check', () => {
    expect(text).toMatch(/node scripts\/build\.mjs/);
    expect(text).toMatch(/pnpm install --frozen-lockfile --prod/);
    expect(final).toMatch(/^USER node$/m);
    expect(final).toMatch(/^HEALTHCHECK [\s\S]*?CMD .*\/healthz/m);
    expect(final).not.toMatch(/tsx/);
    for (const name of SERVICES) expect(final).toContain(`/app/services/${name}/dist ./services/${name}/dist`);
    expect(final).toContain('/app/infra/dist ./infra/dist');
    expect(final).toMatch(/packages\/db\/prisma\/migrations/);
    const defaults = /^ENV (.*)$/m.exec(final)![1]!.split(/\s+/).map((kv) => kv.split('=')[0]!);
    expectKnown(defaults, 'Dockerfile ENV');
  });

  it('builds the web app and ships its build where the gateway looks for it', () => {
    expect(text.slice(0, text.indexOf('\nFROM ', text.indexOf('FROM ') + 1))).toMatch(/^COPY web \.\/web$/m);
    expect(final).toContain('COPY --from=build /app/web/dist ./web/dist');
    expect(/^ENV (.*)$/m.exec(final)![1]!.split(/\s+/)).toContain('WEB_DIST_DIR=/app/web/dist');
  });
});

describe('docker-compose.yml', () => {
  const [compose] = load('docker-compose.yml');
  const services = compose!.services as Record<string, any>;
  it('runs every service from its compiled entry point with a health check, only nginx public', () => {
    for (const name of SERVICES) {
      const svc = services[name];
      expect(svc.command).toEqual([...SERVICE_NODE_ARGS[name], `services/${name}/dist/main.js`]);
      built(svc.command.at(-1));
      expect(svc.healthcheck.test.join(' ')).toContain('/readyz');
      // Only the inbound mail listener is published besides nginx, for the host's MTA.
      expect(svc.ports).toEqual(name === 'messaging' ? ['${INBOUND_SMTP_PUBLISH:-127.0.0.1:2525}:2525'] : undefined);
      expectKnown(Object.keys(svc.environment), `compose ${name}`);
      expect(svc.environment.METRICS_PORT).toBe('9464');
      expect(svc.environment.UPLOADS_BACKEND).toBe('s3');
    }
    expect(services.gateway.deploy.replicas).toBe(2);
    expect(services.nginx.ports).toEqual(['9991:80']);
    expect(services.migrate.command).toEqual(['infra/dist/migrate.js']);
    built(services.migrate.command[0]);
    for (const infra of ['postgres', 'redis', 'minio']) expect(services[infra].healthcheck).toBeDefined();
    // The gateway reaches each backend at the port the backends listen on.
    for (const s of SERVICES.filter((n) => n !== 'gateway')) {
      expect(services.gateway.environment[`${s.toUpperCase()}_URL`]).toBe(`http://${s}:${services[s].environment.PORT}`);
    }
  });
  it('sends the users service\'s mail to the mail catcher, whose web inbox only the host sees', () => {
    expect(services.users.environment).toMatchObject({ EMAIL_HOST: '${EMAIL_HOST:-mailpit}', EMAIL_PORT: '${EMAIL_PORT:-1025}', EMAIL_USE_TLS: '${EMAIL_USE_TLS:-false}' });
    // A sender address apart from EXTERNAL_HOST (localhost), which mail servers refuse.
    expect(services.users.environment.NOREPLY_EMAIL_ADDRESS).toMatch(/^\$\{NOREPLY_EMAIL_ADDRESS:-noreply@[a-z.]+\.[a-z]+\}$/);
    expect(services.mailpit.image).toMatch(/^axllent\/mailpit:/);
    expect(services.mailpit.ports).toEqual(['127.0.0.1:8025:8025']);
  });
  it('puts nginx in front of the gateways with timeouts longer than a long-poll', () => {
    const volume = (services.nginx.volumes as string[])[0]!.split(':')[0]!;
    const conf = readFileSync(path.join(root, volume), 'utf8');
    expect(conf).toMatch(/server gateway:8080/);
    // Every path, the web app's / and /static/app/ included, goes to the gateways.
    expect(conf).toMatch(/location \/ \{\s*proxy_pass http:\/\/gateways;/);
    const read = Number(/proxy_read_timeout (\d+)s;/.exec(conf)![1]);
    expect(read).toBeGreaterThan(LIMITS.eventQueueLongpollTimeoutSeconds);
    expect(conf).toMatch(/proxy_buffering off;/);
  });
  it('lets a file near the upload limit through, and refuses a larger body in the envelope', () => {
    const volume = (services.nginx.volumes as string[])[0]!.split(':')[0]!;
    const conf = readFileSync(path.join(root, volume), 'utf8');
    expect(Number(/client_max_body_size (\d+)m;/.exec(conf)![1])).toBe(proxyBodyLimitMib(LIMITS.maxFileUploadSizeMib));
    expect(conf).toMatch(/error_page 413 @too_large;/);
    const body = /return 413 '([^']+)';/.exec(conf)![1]!;
    expect(JSON.parse(body)).toEqual(errors.fileTooLarge(LIMITS.maxFileUploadSizeMib).toJSON());
  });
});

const hasKubectl = spawnSync('which', ['kubectl']).status === 0;

/** The rendered overlay: kubectl kustomize where it exists, else base plus the overlay's own checks. */
function render(overlay: string): Array<Record<string, any>> {
  if (hasKubectl) return parse(execFileSync('kubectl', ['kustomize', path.join(root, 'k8s/overlays', overlay)]).toString());
  const kustomization = load('k8s/base/kustomization.yaml')[0]!;
  return (kustomization.resources as string[]).flatMap((f) => load(`k8s/base/${f}`));
}

describe.each(['dev', 'prod'])('k8s overlay %s', (overlay) => {
  const docs = render(overlay);
  const of = (kind: string, name?: string) => docs.filter((d) => d.kind === kind && (!name || d.metadata.name === name));
  const configKeys = Object.keys(of('ConfigMap')[0]!.data);

  it('deploys every service, compiled, with probes, resources, metrics port, autoscaler and disruption budget', () => {
    for (const name of SERVICES) {
      const [dep] = of('Deployment', name);
      const spec = dep!.spec.template.spec;
      const c = spec.containers[0];
      expect(c.args).toEqual([...SERVICE_NODE_ARGS[name], `services/${name}/dist/main.js`]);
      built(c.args.at(-1));
      expect(c.readinessProbe.httpGet.path).toBe('/readyz');
      expect(c.livenessProbe.httpGet.path).toBe('/healthz');
      expect(c.resources.requests.cpu).toBeDefined();
      expect(c.resources.limits.memory).toBeDefined();
      expect(c.ports.find((p: any) => p.name === 'metrics').containerPort).toBe(Number(of('ConfigMap')[0]!.data.METRICS_PORT));
      expect(dep!.spec.template.metadata.annotations['prometheus.io/port']).toBe('9464');
      expect(spec.securityContext.runAsNonRoot).toBe(true);
      // Migrations run before any container of a new version starts.
      expect(spec.initContainers[0].args).toEqual(['infra/dist/migrate.js']);
      expectKnown(c.env.map((e: any) => e.name), `${overlay} ${name} env`);
      const hpa = of('HorizontalPodAutoscaler', name)[0]!;
      expect(hpa.spec.scaleTargetRef.name).toBe(name);
      expect(hpa.spec.metrics.some((m: any) => m.type === 'Resource' && m.resource.name === 'cpu')).toBe(true);
      expect(of('PodDisruptionBudget', name)).toHaveLength(1);
      // The Service exposes the API port, never the metrics port.
      expect(of('Service', name)[0]!.spec.ports.map((p: any) => p.targetPort)).toEqual(['http']);
    }
    const gatewayHpa = of('HorizontalPodAutoscaler', 'gateway')[0]!;
    expect(gatewayHpa.spec.metrics.find((m: any) => m.type === 'Pods').pods.metric.name).toBe('gateway_longpolls_waiting');
  });

  it('wires config and secrets under names the services read', () => {
    expectKnown(configKeys, `${overlay} ConfigMap`);
    const secrets = of('Secret');
    if (overlay === 'dev') {
      const keys = Object.keys(secrets[0]!.data);
      expectKnown(keys, 'dev Secret');
      for (const k of ['DATABASE_URL', 'REDIS_URL', 'INTERNAL_SECRET']) expect(keys).toContain(k);
    } else {
      // Created out of band; the overlay names the keys it needs.
      expect(secrets).toHaveLength(0);
      const comment = readFileSync(path.join(root, 'k8s/overlays/prod/kustomization.yaml'), 'utf8');
      const named = /\(([A-Z0-9_,\s#]+)\)/.exec(comment)![1]!.replace(/#/g, '').split(/[,\s]+/).filter(Boolean);
      expectKnown(named, 'prod secret keys');
      for (const k of ['DATABASE_URL', 'REDIS_URL', 'INTERNAL_SECRET']) expect(named).toContain(k);
    }
    for (const d of of('Deployment')) {
      const refs = d.spec.template.spec.containers[0].envFrom.map((e: any) => e.configMapRef?.name ?? e.secretRef?.name);
      expect(refs).toEqual([of('ConfigMap')[0]!.metadata.name, overlay === 'dev' ? secrets[0]!.metadata.name : 'chat-secrets']);
    }
  });

  it('runs migrations as a job before the rollout', () => {
    const [job] = of('Job', 'migrate');
    expect(job!.spec.template.spec.containers[0].args).toEqual(['infra/dist/migrate.js']);
    expect(job!.metadata.annotations['argocd.argoproj.io/hook']).toBe('PreSync');
  });

  it('sends every outside request to the gateway, with timeouts longer than a long-poll', () => {
    const [ingress] = of('Ingress');
    const backends = ingress!.spec.rules.flatMap((r: any) => r.http.paths.map((p: any) => p.backend.service.name));
    expect(new Set(backends)).toEqual(new Set(['gateway']));
    // The web app's / and /static/app/ as well as the API.
    expect(ingress!.spec.rules.flatMap((r: any) => r.http.paths.map((p: any) => `${p.pathType} ${p.path}`))).toContain('Prefix /');
    for (const key of ['proxy-read-timeout', 'proxy-send-timeout']) {
      expect(Number(ingress!.metadata.annotations[`nginx.ingress.kubernetes.io/${key}`])).toBeGreaterThan(LIMITS.eventQueueLongpollTimeoutSeconds);
    }
    // Bodies of the upload limit plus multipart overhead reach the uploads service.
    expect(ingress!.metadata.annotations['nginx.ingress.kubernetes.io/proxy-body-size']).toBe(`${proxyBodyLimitMib(LIMITS.maxFileUploadSizeMib)}m`);
  });

  it('lets only the gateway take outside traffic, and each service reach only what it uses', () => {
    const policies = of('NetworkPolicy');
    const deny = policies.find((p) => Object.keys(p.spec.podSelector).length === 0 || !p.spec.podSelector.matchLabels)!;
    expect(deny.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(deny.spec.ingress).toBeUndefined();
    const policyOf = (name: string) => policies.find((p) => p.spec.podSelector.matchLabels?.['app.kubernetes.io/name'] === name)!;
    const egressPorts = (name: string) => new Set(policyOf(name).spec.egress.filter((e: any) => !e.to).flatMap((e: any) => e.ports.map((p: any) => p.port)));
    const gw = policyOf('gateway');
    expect(gw.spec.ingress).toEqual([{ ports: [{ protocol: 'TCP', port: 8080 }] }]);
    const uses: Record<string, number[]> = {
      gateway: [5432, 6379], messaging: [5432, 6379, 80, 443], events: [5432, 6379],
      users: [5432, 6379, 443, 9000, 587, 465], uploads: [5432, 6379, 443, 9000], push: [5432, 6379, 443],
    };
    for (const name of SERVICES) {
      expect([...egressPorts(name)].sort()).toEqual([...uses[name]!].sort());
      if (name === 'gateway') continue;
      // Backends: from gateway pods only, but for the mail listener (from the MTA, on its own
      // port) and the attachments it stores through uploads.
      const from = (n: string) => ({ podSelector: { matchLabels: { 'app.kubernetes.io/name': n } } });
      expect(policyOf(name).spec.ingress).toEqual([
        { from: name === 'uploads' ? [from('gateway'), from('messaging')] : [from('gateway')], ports: [{ protocol: 'TCP', port: 8080 }] },
        ...(name === 'messaging' ? [{ ports: [{ protocol: 'TCP', port: 2525 }] }] : []),
      ]);
    }
    const toBackends = gw.spec.egress.find((e: any) => e.to)!.to.map((t: any) => t.podSelector.matchLabels['app.kubernetes.io/name']);
    expect(toBackends.sort()).toEqual(SERVICES.filter((s) => s !== 'gateway').sort());
    const metrics = policies.find((p) => p.metadata.name.startsWith('metrics'))!;
    expect(metrics.spec.ingress[0].ports).toEqual([{ protocol: 'TCP', port: 9464 }]);
    expect(egressPorts('migrate')).toEqual(new Set([5432]));
  });
});

it('lists only kustomize files that exist', () => {
  const kustomization = load('k8s/base/kustomization.yaml')[0]!;
  const base = path.join(root, 'k8s/base');
  expect(readdirSync(base).filter((f) => f !== 'kustomization.yaml').sort()).toEqual([...(kustomization.resources as string[])].sort());
  expect(readdirSync(path.join(root, 'k8s/overlays')).sort()).toEqual(['dev', 'prod']);
});
