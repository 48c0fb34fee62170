import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { SERVICES, SERVICE_NODE_ARGS } from '@chat/contracts';

// No container engine runs here, so the deployment files are checked by parsing them.
const root = path.resolve(__dirname, '../..');
// Merge keys (<<) as docker compose resolves them.
const load = (file: string) =>
  parseAllDocuments(readFileSync(path.join(root, file), 'utf8'), { merge: true }).map((d) => d.toJS() as Record<string, any>);

describe('docker-compose.yml', () => {
  const [compose] = load('docker-compose.yml');
  it('runs every service, from an entry point that exists, behind one public port', () => {
    for (const name of SERVICES) {
      const svc = compose!.services[name];
      expect(svc).toBeDefined();
      expect(svc.command).toEqual([...SERVICE_NODE_ARGS[name], `services/${name}/src/main.ts`]);
      expect(existsSync(path.join(root, svc.command.at(-1)))).toBe(true);
      expect(svc.environment.INTERNAL_SECRET).toBeDefined();
      if (name !== 'gateway') expect(svc.ports).toBeUndefined();
    }
    expect(compose!.services.gateway.ports).toEqual(['9991:8080']);
    expect(existsSync(path.join(root, compose!.services.migrate.command[0]))).toBe(true);
  });
});

describe('k8s', () => {
  const base = path.join(root, 'k8s/base');
  const kustomization = load('k8s/base/kustomization.yaml')[0]!;
  const docs = (kustomization.resources as string[]).flatMap((f) => load(`k8s/base/${f}`));
  it('lists only files that exist', () => {
    for (const f of kustomization.resources as string[]) expect(existsSync(path.join(base, f))).toBe(true);
    expect(readdirSync(base).filter((f) => f !== 'kustomization.yaml').sort()).toEqual([...(kustomization.resources as string[])].sort());
  });
  it('deploys every service with probes, an autoscaler and a disruption budget', () => {
    for (const name of SERVICES) {
      const kinds = docs.filter((d) => d.metadata?.name === name).map((d) => d.kind).sort();
      expect(kinds).toEqual(['Deployment', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'Service']);
      const dep = docs.find((d) => d.kind === 'Deployment' && d.metadata.name === name)!;
      const c = dep.spec.template.spec.containers[0];
      expect(c.readinessProbe.httpGet.path).toBe('/readyz');
      expect(c.livenessProbe.httpGet.path).toBe('/healthz');
      expect(c.args).toEqual([...SERVICE_NODE_ARGS[name], `services/${name}/src/main.ts`]);
      expect(existsSync(path.join(root, c.args.at(-1)))).toBe(true);
    }
  });
  it('runs migrations as a job', () => {
    expect(docs.some((d) => d.kind === 'Job' && d.spec.template.spec.containers[0].args[0] === 'infra/migrate.ts')).toBe(true);
  });
});
