/** Text of the fixture project's files (code in seven languages, Markdown, HTML, data). */

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
