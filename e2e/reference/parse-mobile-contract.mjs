#!/usr/bin/env node
/**
 * Turns mobile-client-contract.md (the keys the family's mobile app parses, by model class) into
 * mobile-contract.json, which the contract tests read:
 *   { classes: { Name: { source, fields: { key: { type, required, default?, note? } } } },
 *     dispatch: { eventType: { op|"": ClassName } } }
 * Run after updating the .md: node e2e/reference/parse-mobile-contract.mjs
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const md = readFileSync(join(here, 'mobile-client-contract.md'), 'utf8');

const classes = {};
const dispatch = {};
let current = null;
let inDispatch = false;

for (const line of md.split('\n')) {
  const heading = /^## (\S+)\s+\((.+)\)\s*$/.exec(line);
  if (heading) {
    current = { source: heading[2], fields: {} };
    classes[heading[1]] = current;
    inDispatch = false;
    continue;
  }
  if (/^## Event dispatch/.test(line)) {
    current = null;
    inDispatch = true;
    continue;
  }
  if (inDispatch) {
    // "- user_group: add->UserGroupAddEvent, update->..." or "- alert_words: AlertWordsEvent"
    const m = /^- (\w+): (.+)$/.exec(line);
    if (!m) continue;
    const ops = {};
    for (const part of m[2].split(',').map((s) => s.trim())) {
      const arrow = /^(\w+)->(\w+)$/.exec(part);
      if (arrow) ops[arrow[1]] = arrow[2];
      else ops[''] = part;
    }
    dispatch[m[1]] = ops;
    continue;
  }
  if (!current) continue;
  // "- `key`: Type — REQUIRED  [note]" / "— optional (default x)" / "— custom"
  const f = /^- `([^`]+)`: (.+?) — (REQUIRED|optional|custom)(?: \(default (.+?)\))?(?:\s+\[(.+)\])?\s*$/.exec(line);
  if (!f) continue;
  const field = { type: f[2], required: f[3] === 'REQUIRED' };
  if (f[3] === 'custom') field.custom = true;
  if (f[4] !== undefined) field.default = f[4];
  if (f[5] !== undefined) field.note = f[5];
  current.fields[f[1]] = field;
}

writeFileSync(join(here, 'mobile-contract.json'), `${JSON.stringify({ classes, dispatch }, null, 1)}\n`);
console.log(`${Object.keys(classes).length} classes, ${Object.keys(dispatch).length} event types`);
