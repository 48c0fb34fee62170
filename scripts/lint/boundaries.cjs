// The workspace's import boundaries, as an ESLint rule: a service never imports another
// service's code (shared code lives in packages/), and packages never import services.
// Imports are resolved to files, so relative paths that climb into a neighbour are caught as
// well as workspace package names.
// CommonJS, so the ESLint config and the tests (which run without ES module support) load it alike.
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const SERVICE_PACKAGE = /^@chat\/svc-([a-z-]+)(\/|$)/;

/** The service a file belongs to ('messaging'), 'package' for packages/, or null elsewhere. */
function ownerOf(file) {
  const rel = path.relative(root, file).split(path.sep);
  if (rel[0] === 'services' && rel.length > 2) return rel[1];
  if (rel[0] === 'packages' && rel.length > 2) return 'package';
  return null;
}

/** The service an import specifier points into, or null. */
function targetService(fromFile, spec) {
  const named = SERVICE_PACKAGE.exec(spec);
  if (named) return named[1];
  if (!spec.startsWith('.')) return null;
  const rel = path.relative(root, path.resolve(path.dirname(fromFile), spec)).split(path.sep);
  return rel[0] === 'services' && rel.length > 1 ? rel[1] : null;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'No service imports another service; packages import no service.' },
    messages: {
      crossService: "A service imports only its own code and packages/: '{{spec}}' is the {{target}} service's.",
      packageToService: "packages/ import no service: '{{spec}}' is the {{target}} service's.",
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const owner = ownerOf(file);
    if (!owner) return {};
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string') return;
      const target = targetService(file, source.value);
      if (!target || target === owner) return;
      context.report({
        node,
        messageId: owner === 'package' ? 'packageToService' : 'crossService',
        data: { spec: source.value, target },
      });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') check(node, node.arguments[0]);
      },
    };
  },
};

module.exports = { rules: { 'no-cross-service-imports': rule } };
