// terva's panel widgets on the wire (docs/TERVA.md 19): kept on panel_render and
// on a panel spec, each node checked for its type's fields, unknown types
// skipped, depth and size bounded with a problem that names widgets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failed, lib, succeeded } from '../helpers.mjs';

const { parseFrame, readWidgets, widgetActions, MAX_WIDGET_DEPTH, MAX_WIDGET_PARTS, MAX_JSON_DEPTH } = lib;

/** @typedef {import('../../out/types/protocol/index.js').FrameFromExt} FrameFromExt */
/** @typedef {import('../../out/types/protocol/index.js').Widget} Widget */

/** Frames from terva's examples (docs/TERVA.md 21), by name. */
const examples = /** @satisfies {Record<string, FrameFromExt>} */ ({
  "open_panel with widgets": {"type": "open_panel", "panel": {"id": "ledger-status", "title": "Ledger", "lines": ["March: 9 of 12 accounts reconciled"], "footer": "enter select · esc close", "widgets": [{"type": "heading", "text": "Ledger", "level": 2}, {"type": "meter", "label": "reconciled", "value": 9, "max": 12, "unit": "accounts"}]}},
  "panel_render every widget kind": {"type": "panel_render", "panel_id": "ledger-status", "title": "Ledger · March", "lines": ["March: 9 of 12 accounts reconciled", "4020 office supplies: off by 0.03"], "footer": "enter select · esc close", "widgets": [{"type": "heading", "text": "March close", "level": 1}, {"type": "text", "text": "Three accounts still differ from the bank export.", "tone": "muted"}, {"type": "meter", "label": "reconciled", "value": 9, "max": 12, "unit": "accounts"}, {"type": "keyvalue", "rows": [{"key": "ledger file", "value": "books/2026-03.ledger", "mono": true}, {"key": "difference", "value": "0.03 EUR", "note": "rounding suspected"}]}, {"type": "table", "columns": ["account", "ledger", "bank"], "cells": [["4010", "1200.00", "1200.00"], ["4020", "88.13", "88.10"]]}, {"type": "list", "items": [{"text": "4020 office supplies", "note": "off by 0.03", "tone": "danger", "action_id": "open-4020"}, {"text": "4030 travel", "tone": "ok"}]}, {"type": "group", "children": [{"type": "note", "text": "Export stays read-only until March is closed.", "tone": "warn"}, {"type": "action", "text": "Export CSV", "action_id": "export-csv"}]}, {"type": "divider"}, {"type": "action", "text": "Reconcile again", "action_id": "reconcile"}]},
  "command_response open_panel with widgets": {"type": "command_response", "id": "31", "action": "open_panel", "open_panel": {"id": "ledger-status", "title": "Ledger", "lines": ["March: 9 of 12 accounts reconciled"], "widgets": [{"type": "note", "text": "Loading bank export...", "tone": "muted"}]}},
});
const everyKind = examples['panel_render every widget kind'];

/** @param {unknown} widgets */
const render = (widgets) => parseFrame(JSON.stringify({ type: 'panel_render', panel_id: 'p', widgets }));
/**
 * The tree of a render that passed.
 * @param {import('../../out/types/protocol/index.js').ParseResult} result
 */
const widgetsOf = (result) => {
  const { widgets } = /** @type {Extract<FrameFromExt, { type: 'panel_render' }>} */ (succeeded(result).frame);
  assert.ok(widgets, 'the render has widgets');
  return widgets;
};

test("terva's examples pass whole: every widget kind on panel_render, widgets on open_panel and command_response", () => {
  assert.deepEqual(succeeded(parseFrame(JSON.stringify(everyKind))).frame, everyKind, 'nothing of a well-formed tree is lost or added');
  for (const name of /** @type {const} */ (['open_panel with widgets', 'command_response open_panel with widgets'])) {
    const frame = examples[name];
    assert.deepEqual(succeeded(parseFrame(JSON.stringify(frame))).frame, frame, name);
  }
  assert.deepEqual(widgetActions(everyKind.widgets), ['open-4020', 'export-csv', 'reconcile'], 'list items, actions inside groups and at the top');
});

test('zero values terva leaves out are filled in; unknown fields, tones and null fields are dropped; text stays text', () => {
  const got = widgetsOf(render([
    { type: 'heading' },
    { type: 'text', text: 'a', tone: 'neon', script: 'alert(1)' },
    { type: 'note', text: '<b>x</b>', tone: 'default', label: null },
    { type: 'meter', label: 'm' },
    { type: 'keyvalue', rows: [{ key: 'k' }, { value: 'v', mono: false, note: '' }] },
    { type: 'table', columns: null, cells: [null, ['a']] },
    { type: 'list', items: [{ text: 't', action_id: '' }] },
    { type: 'group' },
    { type: 'action', text: 'go', action_id: null },
    { type: 'divider', text: 'ignored' },
  ]));
  assert.deepEqual(widgetActions(got), [], 'an empty or missing action_id offers no action');
  assert.deepEqual(got, [
    { type: 'heading', text: '' },
    { type: 'text', text: 'a' },
    { type: 'note', text: '<b>x</b>' },
    { type: 'meter', label: 'm', value: 0, max: 0 },
    { type: 'keyvalue', rows: [{ key: 'k', value: '' }, { key: '', value: 'v' }] },
    { type: 'table', columns: [], cells: [[], ['a']] },
    { type: 'list', items: [{ text: 't' }] },
    { type: 'group', children: [] },
    { type: 'action', text: 'go' },
    { type: 'divider' },
  ]);
  const absent = succeeded(parseFrame('{"type":"panel_render","panel_id":"p","widgets":null}')).frame;
  assert.equal('widgets' in absent, false, 'null means absent, as for every optional field');
});

test('a node of a type this host does not know is skipped, at the top and inside groups; the panel stands', () => {
  const got = widgetsOf(render([
    { type: 'chart', series: [[1, 2]], text: 'later' },
    { type: 'group', children: [{ type: 'sparkline', values: 'any shape at all' }, { type: 'divider' }] },
  ]));
  assert.deepEqual(got, [{ type: 'group', children: [{ type: 'divider' }] }]);
});

test("a known node with a field of the wrong type fails the frame, naming the node and the field", () => {
  /** @type {[unknown, RegExp][]} */
  const cases = [
    [[{ type: 'meter', value: '9' }], /field "widgets" item 0 \("meter"\): "value" must be a finite number, got string "9"/],
    [[{ type: 'heading', level: '1' }], /"level" must be a finite number/],
    [[{ type: 'text', text: 7 }], /item 0 \("text"\): "text" must be a string, got number 7/],
    [[{ type: 'text', tone: ['ok'] }], /"tone" must be a string, got a list/],
    [[{ type: 'keyvalue', rows: {} }], /"rows" must be a list, got an object/],
    [[{ type: 'keyvalue', rows: ['k=v'] }], /"rows" entry 0 must be an object, got string/],
    [[{ type: 'keyvalue', rows: [{ key: 'k', mono: 'yes' }] }], /"rows" entry 0: "mono" must be a boolean/],
    [[{ type: 'table', columns: ['a', 1] }], /"columns" must be a list of strings/],
    [[{ type: 'table', cells: [['a', null]] }], /"cells" row 0 must be a list of strings/],
    [[{ type: 'list', items: [{ text: 't', action_id: 5 }] }], /"items" entry 0: "action_id" must be a string/],
    [[{ type: 'divider' }, { type: 'group', children: [{ type: 'action', text: {} }] }], /item 1 \("group"\) child 0 \("action"\): "text" must be a string, got an object/],
    [[{ type: 'group', children: 'x' }], /"children" must be a list/],
    [['heading'], /item 0 must be an object with a string "type"/],
    [[{ text: 'no type' }], /item 0 must be an object with a string "type"/],
    [{ type: 'heading' }, /field "widgets" must be a list of widgets, got an object/],
  ];
  for (const [widgets, want] of cases) {
    const r = failed(render(widgets));
    assert.match(r.problem, /^"panel_render" frame: field "widgets" /, JSON.stringify(widgets));
    assert.match(r.problem, want, JSON.stringify(widgets));
  }
  // JSON can spell an infinity; no bar can be drawn for one.
  assert.match(failed(parseFrame('{"type":"panel_render","panel_id":"p","widgets":[{"type":"meter","max":1e999}]}')).problem, /"max" must be a finite number/);
});

test('widgets in a panel spec are checked the same way, for open_panel and for command_response', () => {
  const spec = { id: 'p', lines: ['x'], widgets: [{ type: 'meter', value: 'high' }] };
  assert.match(failed(parseFrame(JSON.stringify({ type: 'open_panel', panel: spec }))).problem, /^"open_panel" frame: field "panel" "widgets" item 0 \("meter"\): "value" must be a finite number/);
  const r = failed(parseFrame(JSON.stringify({ type: 'command_response', id: '4', action: 'open_panel', open_panel: spec })));
  assert.equal(r.id, '4', 'the request can still be failed');
  const kept = /** @type {Extract<FrameFromExt, { type: 'open_panel' }>} */ (succeeded(parseFrame(JSON.stringify({ type: 'open_panel', panel: { id: 'p', widgets: [{ type: 'future' }, { type: 'divider' }] } }))).frame);
  assert.deepEqual(kept.panel.widgets, [{ type: 'divider' }]);
});

test(`groups nest at most ${MAX_WIDGET_DEPTH} levels: one deeper fails with a problem about widgets, long before the frame's depth bound`, () => {
  /** @param {number} levels */
  const nest = (levels) => {
    /** @type {Widget} */
    let node = { type: 'text', text: 'deep' };
    for (let i = 1; i < levels; i++) node = { type: 'group', children: [node] };
    return [node];
  };
  assert.equal(MAX_WIDGET_DEPTH, 8);
  const deepest = widgetsOf(render(nest(MAX_WIDGET_DEPTH)));
  assert.equal(JSON.stringify(deepest).includes('"deep"'), true);
  const r = failed(render(nest(MAX_WIDGET_DEPTH + 1)));
  assert.match(r.problem, /"widgets" item 0 \("group"\)( child 0 \("group"\))+: groups nest deeper than 8 levels/);
  // The bound is well inside the frame's: the tree's JSON at the limit is far from MAX_JSON_DEPTH.
  assert.ok(2 * MAX_WIDGET_DEPTH + 4 < MAX_JSON_DEPTH);
  // Deeper than the frame's own bound: that check comes first, as for any frame.
  assert.match(failed(render(nest(40))).problem, /nested deeper than 64 levels/);
});

test(`a tree has at most ${MAX_WIDGET_PARTS} parts: nodes, rows, items, columns and cells all count`, () => {
  assert.equal(MAX_WIDGET_PARTS, 2000);
  /** @param {number} n */
  const cells = (n) => Array.from({ length: n }, () => ['c']);
  // One node, one column, and the rest cells: exactly at the bound.
  succeeded(render([{ type: 'table', columns: ['a'], cells: cells(MAX_WIDGET_PARTS - 2) }]));
  const over = [
    [{ type: 'table', columns: ['a'], cells: cells(MAX_WIDGET_PARTS - 1) }],
    Array.from({ length: MAX_WIDGET_PARTS + 1 }, () => ({ type: 'divider' })),
    [{ type: 'list', items: Array.from({ length: MAX_WIDGET_PARTS }, () => ({ text: 'i' })) }],
    [{ type: 'keyvalue', rows: Array.from({ length: MAX_WIDGET_PARTS }, () => ({ key: 'k' })) }],
    // Skipped nodes count too: they cost reading.
    Array.from({ length: MAX_WIDGET_PARTS + 1 }, () => ({ type: 'unknown' })),
  ];
  for (const widgets of over) assert.match(failed(render(widgets)).problem, /field "widgets" has more than 2000 parts \(nodes, rows, items, columns and cells\)/);
});

test('readWidgets itself never throws, whatever it is given', () => {
  for (const v of [undefined, null, 1, 'x', {}, [null], [[]], [{ type: 1 }]]) assert.equal(typeof readWidgets(v), 'string', JSON.stringify(v));
  assert.deepEqual(readWidgets([]), []);
});

test('a plain zot panel_render, without widgets, passes as it always did', () => {
  const f = { type: 'panel_render', panel_id: 'p', title: 't', lines: ['x'], footer: '' };
  assert.deepEqual(succeeded(parseFrame(JSON.stringify(f))).frame, f);
});
