/**
 * A small realistic project on disk for engine, CLI and end-to-end tests, with the facts tests
 * assert against: which files the walk must yield, which it must leave out and why, and where
 * the distinctive functions and sections are.
 */
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';

export interface FixtureSymbol {
  rel: string;
  name: string;
  kind: string;
  language: string;
  /** 1-based inclusive lines of the definition (as SymbolDef reports them). */
  startLine: number;
  endLine: number;
}

export interface FixtureSection {
  rel: string;
  /** Heading path as chunks carry it. */
  heading: string;
  startLine: number;
  endLine: number;
}

export type ExclusionReason =
  'symlink-outside' | 'binary' | 'too-large' | 'gitignored' | 'default-exclude' | 'minified';

export interface FixtureInfo {
  /** The folder to index (absolute). */
  folder: string;
  /** A directory next to the folder, holding the secret the symlink points at. */
  outside: string;
  secretPath: string;
  /** Text of the secret: must never appear in any index or result. */
  secretText: string;
  /** Use as `maxFileBytes`: the huge file is over it, everything else under. */
  maxFileBytes: number;
  /** Folder-relative paths the walk must yield as files (sorted). */
  indexed: string[];
  /** Folder-relative paths that must not be indexed, with why. */
  excluded: Array<{ rel: string; reason: ExclusionReason }>;
  /**
   * A file made unreadable with chmod 000. `enforced` is false when the process runs as root (as
   * in CI): root reads it anyway, so there it is readable and listed in `indexed`.
   */
  unreadable: { rel: string; enforced: boolean };
  symbols: FixtureSymbol[];
  sections: FixtureSection[];
  imports: Array<{ rel: string; target: string }>;
  links: Array<{ rel: string; target: string }>;
  pdf: { rel: string; pages: string[][] };
  docx: { rel: string; paragraphs: string[] };
  html: { rel: string; visible: string[]; hidden: string[] };
  /** A phrase per distinctive file, for search tests: phrase -> rel. */
  phrases: Record<string, string>;
}

/** 1-based line of the first line containing `needle`, at or after line `from`. */
export function lineOf(text: string, needle: string, from = 1): number {
  const lines = text.split('\n');
  for (let i = from - 1; i < lines.length; i++) if (lines[i].includes(needle)) return i + 1;
  throw new Error(`fixture: "${needle}" not found`);
}

/** A closing line (`}`, `    }`, `};`) must match whole; other end needles match within a line. */
function endOf(text: string, end: string, from: number): number {
  if (!/^\s*[}\]);]+$/.test(end)) return lineOf(text, end, from);
  const lines = text.split('\n');
  for (let i = from - 1; i < lines.length; i++) if (lines[i] === end) return i + 1;
  throw new Error(`fixture: closing line "${end}" not found`);
}

function range(
  rel: string,
  text: string,
  name: string,
  kind: string,
  language: string,
  start: string,
  end: string,
): FixtureSymbol {
  const startLine = lineOf(text, start);
  return { rel, name, kind, language, startLine, endLine: endOf(text, end, startLine) };
}

/** Python blocks end at their last indented line. */
function pyRange(rel: string, text: string, name: string, kind: string, start: string, last: string): FixtureSymbol {
  return range(rel, text, name, kind, 'python', start, last);
}

export async function makeFixtureFolder(root: string): Promise<FixtureInfo> {
  const folder = join(root, 'project');
  const outside = join(root, 'outside');
  const secretPath = join(outside, 'secret.txt');
  const secretText = 'TOPSECRET-ZEBRA-7731 never index me';
  const maxFileBytes = 256 * 1024;
  const pdfPages = [
    ['Quarterly Revenue Report', 'Revenue grew in the northern region thanks to glacier tourism.'],
    ['Appendix: Methodology', 'Survey responses were weighted by household size and fjord distance.'],
  ];
  const docxParagraphs = [
    'Meeting notes for the lighthouse renovation.',
    'Action item: order copper flashing for the lantern room.',
  ];

  const files: Record<string, string | Uint8Array> = {
    'README.md': README_MD,
    'docs/guide.md': GUIDE_MD,
    'docs/api.md': API_MD,
    'src/invoice.ts': INVOICE_TS,
    'src/money.ts': MONEY_TS,
    'py/geo.py': GEO_PY,
    'py/units.py': UNITS_PY,
    'go/server.go': SERVER_GO,
    'rust/src/lib.rs': LIB_RS,
    'java/com/acme/Ledger.java': LEDGER_JAVA,
    'c/checksum.h': CHECKSUM_H,
    'c/checksum.c': CHECKSUM_C,
    'cpp/matrix.hpp': MATRIX_HPP,
    'cpp/matrix.cpp': MATRIX_CPP,
    'web/index.html': INDEX_HTML,
    'docs/report.pdf': await makePdf(pdfPages),
    'docs/notes.docx': await makeDocx(docxParagraphs),
    'data/config.json': JSON.stringify({ service: 'acme', retries: 3, regions: ['north', 'south'] }, null, 2) + '\n',
    'data/settings.yaml': 'service: acme\nfeatures:\n  tidal_forecasting: true\n  retries: 3\n',
    'data/cities.csv': 'city,lat,lon\nTromso,69.6492,18.9553\nReykjavik,64.1466,-21.9426\n',
    '.gitignore': '*.tmp\nscratch/\n',
    'scratch/draft.md': '# Draft\nignored by .gitignore\n',
    'notes.tmp': 'temporary notes, ignored\n',
    'node_modules/leftpad/index.js': 'module.exports = function leftpad() {};\n',
    'package-lock.json': '{ "lockfileVersion": 3 }\n',
    'web/app.min.js': 'function a(){return 1}\n',
    'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
    'data/dump.txt': Buffer.concat([Buffer.from('header\n'), Buffer.from([0, 1, 2, 3, 0]), Buffer.from('tail\n')]),
    'logs/huge.log': 'x'.repeat(maxFileBytes + 1024) + '\n',
    'private/locked.txt': 'locked content\n',
  };
  await mkdir(outside, { recursive: true });
  await writeFile(secretPath, secretText + '\n');
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(dirname(join(folder, rel)), { recursive: true });
    await writeFile(join(folder, rel), content);
  }
  await symlink(secretPath, join(folder, 'secret-link.txt'));
  await chmod(join(folder, 'private/locked.txt'), 0o000);
  const isRoot = process.getuid?.() === 0;

  const indexed = [
    '.gitignore',
    'README.md',
    'c/checksum.c',
    'c/checksum.h',
    'cpp/matrix.cpp',
    'cpp/matrix.hpp',
    'data/cities.csv',
    'data/config.json',
    'data/settings.yaml',
    'docs/api.md',
    'docs/guide.md',
    'docs/notes.docx',
    'docs/report.pdf',
    'go/server.go',
    'java/com/acme/Ledger.java',
    'py/geo.py',
    'py/units.py',
    'rust/src/lib.rs',
    'src/invoice.ts',
    'src/money.ts',
    'web/index.html',
    ...(isRoot ? ['private/locked.txt'] : []),
  ].sort();

  return {
    folder,
    outside,
    secretPath,
    secretText,
    maxFileBytes,
    indexed,
    excluded: [
      { rel: 'secret-link.txt', reason: 'symlink-outside' },
      { rel: 'assets/logo.png', reason: 'binary' },
      { rel: 'data/dump.txt', reason: 'binary' },
      { rel: 'logs/huge.log', reason: 'too-large' },
      { rel: 'notes.tmp', reason: 'gitignored' },
      { rel: 'scratch/draft.md', reason: 'gitignored' },
      { rel: 'node_modules/leftpad/index.js', reason: 'default-exclude' },
      { rel: 'package-lock.json', reason: 'default-exclude' },
      { rel: 'web/app.min.js', reason: 'minified' },
    ],
    unreadable: { rel: 'private/locked.txt', enforced: !isRoot },
    symbols: [
      range(
        'src/invoice.ts',
        INVOICE_TS,
        'parseInvoiceTotals',
        'function',
        'typescript',
        'export function parseInvoiceTotals',
        '}',
      ),
      range('src/invoice.ts', INVOICE_TS, 'InvoiceStore', 'class', 'typescript', 'export class InvoiceStore', '}'),
      range('src/invoice.ts', INVOICE_TS, 'InvoiceStore.save', 'method', 'typescript', '  save(', '  }'),
      range('src/money.ts', MONEY_TS, 'formatCents', 'function', 'typescript', 'export function formatCents', '}'),
      pyRange(
        'py/geo.py',
        GEO_PY,
        'haversine_distance',
        'function',
        'def haversine_distance',
        'return 2 * EARTH_RADIUS_KM',
      ),
      pyRange('py/geo.py', GEO_PY, 'Route', 'class', 'class Route', 'return sum('),
      pyRange('py/geo.py', GEO_PY, 'Route.total_length', 'method', 'def total_length', 'return sum('),
      range('go/server.go', SERVER_GO, 'HandleHealth', 'function', 'go', 'func HandleHealth', '}'),
      range('go/server.go', SERVER_GO, 'Server.Start', 'method', 'go', 'func (s *Server) Start', '}'),
      range('go/server.go', SERVER_GO, 'Server', 'struct', 'go', 'type Server struct', '}'),
      range('rust/src/lib.rs', LIB_RS, 'levenshtein_distance', 'function', 'rust', 'pub fn levenshtein_distance', '}'),
      range('rust/src/lib.rs', LIB_RS, 'Cache.lookup', 'method', 'rust', 'pub fn lookup', '    }'),
      range('rust/src/lib.rs', LIB_RS, 'Cache', 'struct', 'rust', 'pub struct Cache', '}'),
      range('java/com/acme/Ledger.java', LEDGER_JAVA, 'Ledger', 'class', 'java', 'public class Ledger', '}'),
      range(
        'java/com/acme/Ledger.java',
        LEDGER_JAVA,
        'Ledger.reconcileAccounts',
        'method',
        'java',
        'public List<Integer> reconcileAccounts',
        '    }',
      ),
      range('c/checksum.c', CHECKSUM_C, 'crc32_checksum', 'function', 'c', 'uint32_t crc32_checksum', '}'),
      range('cpp/matrix.cpp', MATRIX_CPP, 'Matrix.transpose', 'method', 'cpp', 'Matrix Matrix::transpose', '}'),
      range('cpp/matrix.hpp', MATRIX_HPP, 'Matrix', 'class', 'cpp', 'class Matrix', '};'),
    ],
    sections: [
      { rel: 'README.md', heading: 'Acme Toolkit', start: '# Acme Toolkit', end: 'See the [guide]' },
      { rel: 'README.md', heading: 'Acme Toolkit > Install > Linux', start: '## Install', end: 'Run the installer' },
      { rel: 'README.md', heading: 'Acme Toolkit > Install > macOS', start: '### macOS', end: 'Use Homebrew' },
      { rel: 'README.md', heading: 'Acme Toolkit > Usage', start: '## Usage', end: 'Call `parseInvoiceTotals`' },
      { rel: 'docs/guide.md', heading: 'Guide > Reconciliation', start: '## Reconciliation', end: 'The [API]' },
    ].map((s) => {
      const text = s.rel === 'README.md' ? README_MD : GUIDE_MD;
      const startLine = lineOf(text, s.start);
      return { rel: s.rel, heading: s.heading, startLine, endLine: lineOf(text, s.end, startLine) };
    }),
    imports: [
      { rel: 'src/invoice.ts', target: './money.js' },
      { rel: 'py/geo.py', target: 'math' },
      { rel: 'py/geo.py', target: '.units' },
      { rel: 'go/server.go', target: 'net/http' },
      { rel: 'rust/src/lib.rs', target: 'std::collections::HashMap' },
      { rel: 'java/com/acme/Ledger.java', target: 'java.util.List' },
      { rel: 'c/checksum.c', target: 'checksum.h' },
      { rel: 'cpp/matrix.cpp', target: 'matrix.hpp' },
      { rel: 'cpp/matrix.hpp', target: 'vector' },
    ],
    links: [
      { rel: 'README.md', target: 'docs/guide.md' },
      { rel: 'README.md', target: 'docs/api.md' },
      { rel: 'docs/guide.md', target: '../README.md' },
      { rel: 'docs/guide.md', target: 'api.md#ledger' },
      { rel: 'web/index.html', target: '../README.md' },
    ],
    pdf: { rel: 'docs/report.pdf', pages: pdfPages },
    docx: { rel: 'docs/notes.docx', paragraphs: docxParagraphs },
    html: {
      rel: 'web/index.html',
      visible: ['Acme Status Page', 'Service Status', 'All aurora pipelines are operational.'],
      hidden: ['trackingSecretMarker', 'hidden-style-marker', 'another hidden script marker'],
    },
    phrases: {
      'glacier repository key': 'README.md',
      parseInvoiceTotals: 'src/invoice.ts',
      haversine_distance: 'py/geo.py',
      levenshtein_distance: 'rust/src/lib.rs',
      reconcileAccounts: 'java/com/acme/Ledger.java',
      crc32_checksum: 'c/checksum.c',
      'glacier tourism': 'docs/report.pdf',
      'copper flashing': 'docs/notes.docx',
      'aurora pipelines': 'web/index.html',
      tidal_forecasting: 'data/settings.yaml',
    },
  };
}

// ---- Binary fixture documents, built in memory with pdf-lib and jszip ----

/** Two pages, each with its own distinctive lines. */
export async function makePdf(pages: string[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 24, size: 14, font }));
  }
  return doc.save();
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The smallest DOCX Word and mammoth both open: content types, package rels, one document part. */
export async function makeDocx(paragraphs: string[]): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${esc(p)}</w:t></w:r></w:p>`).join('');
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

// ---- Text of the fixture project's files ----

export const README_MD = `---
title: Acme Toolkit
tags: [demo]
---
# Acme Toolkit

Acme Toolkit reconciles invoices and measures routes between warehouses.
See the [guide](docs/guide.md) and the [API reference](docs/api.md).

## Install

### Linux

Run the installer with \`sudo ./install.sh --prefix /opt/acme\` and add the glacier repository key.

### macOS

Use Homebrew: \`brew install acme-toolkit\`. The cask ships a notarised binary.

## Usage

Call \`parseInvoiceTotals\` to sum invoice lines, or \`haversine_distance\` for great-circle distances.
`;

export const GUIDE_MD = `# Guide

Back to the [readme](../README.md).

## Reconciliation

Ledgers are reconciled nightly; mismatches above one cent are flagged for a human.
The [API](api.md#ledger) documents every endpoint.

## Routing

Distances between depots use the haversine formula on a spherical earth model.
`;

export const API_MD = `# API

## Ledger

\`reconcileAccounts(accounts)\` returns the accounts whose balances disagree.
`;

export const INVOICE_TS = `import { formatCents } from './money.js';
import type { Currency } from './money.js';

export interface InvoiceLine {
  description: string;
  cents: number;
}

/** Sums the lines of an invoice, ignoring voided ones. */
export function parseInvoiceTotals(lines: InvoiceLine[], currency: Currency): string {
  let total = 0;
  for (const line of lines) {
    if (line.description.startsWith('VOID')) continue;
    total += line.cents;
  }
  return formatCents(total, currency);
}

export class InvoiceStore {
  private readonly invoices = new Map<string, InvoiceLine[]>();

  save(id: string, lines: InvoiceLine[]): void {
    this.invoices.set(id, lines);
  }
}
`;

export const MONEY_TS = `export type Currency = 'EUR' | 'USD';

export function formatCents(cents: number, currency: Currency): string {
  return (cents / 100).toFixed(2) + ' ' + currency;
}
`;

export const GEO_PY = `import math
from .units import EARTH_RADIUS_KM


def haversine_distance(lat1, lon1, lat2, lon2):
    """Great-circle distance in kilometres between two points."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp = p2 - p1
    dl = math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(a))


class Route:
    def __init__(self, stops):
        self.stops = stops

    def total_length(self):
        return sum(haversine_distance(*a, *b) for a, b in zip(self.stops, self.stops[1:]))
`;

export const UNITS_PY = `EARTH_RADIUS_KM = 6371.0088
`;

export const SERVER_GO = `package main

import (
	"fmt"
	"net/http"
)

type Server struct {
	Addr string
}

func HandleHealth(w http.ResponseWriter, r *http.Request) {
	fmt.Fprintln(w, "ok")
}

func (s *Server) Start() error {
	http.HandleFunc("/health", HandleHealth)
	return http.ListenAndServe(s.Addr, nil)
}
`;

export const LIB_RS = `use std::collections::HashMap;

pub struct Cache {
    entries: HashMap<String, usize>,
}

impl Cache {
    pub fn lookup(&self, key: &str) -> Option<usize> {
        self.entries.get(key).copied()
    }
}

pub fn levenshtein_distance(a: &str, b: &str) -> usize {
    let b_chars: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b_chars.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b_chars.iter().enumerate() {
            let cost = if ca == *cb { 0 } else { 1 };
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b_chars.len()]
}
`;

export const LEDGER_JAVA = `package com.acme;

import java.util.ArrayList;
import java.util.List;

public class Ledger {
    private final List<Long> balances = new ArrayList<>();

    public List<Integer> reconcileAccounts(List<Long> expected) {
        List<Integer> mismatched = new ArrayList<>();
        for (int i = 0; i < expected.size(); i++) {
            if (!expected.get(i).equals(balances.get(i))) mismatched.add(i);
        }
        return mismatched;
    }
}
`;

export const CHECKSUM_H = `#ifndef CHECKSUM_H
#define CHECKSUM_H
#include <stdint.h>
#include <stddef.h>

uint32_t crc32_checksum(const uint8_t *data, size_t len);

#endif
`;

export const CHECKSUM_C = `#include "checksum.h"

uint32_t crc32_checksum(const uint8_t *data, size_t len) {
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < len; i++) {
        crc ^= data[i];
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1u));
    }
    return ~crc;
}
`;

export const MATRIX_HPP = `#pragma once
#include <vector>

class Matrix {
public:
    Matrix(int rows, int cols) : rows_(rows), cols_(cols), data_(rows * cols) {}
    double at(int r, int c) const { return data_[r * cols_ + c]; }
    Matrix transpose() const;

private:
    int rows_, cols_;
    std::vector<double> data_;
};
`;

export const MATRIX_CPP = `#include "matrix.hpp"

Matrix Matrix::transpose() const {
    Matrix t(cols_, rows_);
    for (int r = 0; r < rows_; r++)
        for (int c = 0; c < cols_; c++)
            t.data_[c * rows_ + r] = at(r, c);
    return t;
}
`;

export const INDEX_HTML = `<!doctype html>
<html>
<head>
  <title>Acme Status Page</title>
  <style>body { color: #123456; } .hidden-style-marker { display: none; }</style>
  <script>window.trackingSecretMarker = 42;</script>
</head>
<body>
  <h1>Service Status</h1>
  <p>All aurora pipelines are operational.</p>
  <p>See the <a href="../README.md">readme</a> or the
     <a href="https://status.example.com/history">history</a>.</p>
  <script>console.log("another hidden script marker");</script>
</body>
</html>
`;
