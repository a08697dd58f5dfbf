/**
 * Distributions built at scoring time are kept for the next call with the same inputs
 * (src/service/science/built-distributions.ts). Keeping them must change nothing a person
 * sees: each result equals the one a fresh engine gives, whichever genotypes came before.
 */
import { describe, expect, it } from 'vitest';
import { builtDistributions } from '../../src/service/science/built-distributions.js';
import type { ScoreDistribution } from '../../src/service/science/distribution/reference.js';
import type { Genotype } from '../../src/service/genotype/types.js';
import { rng } from '../support/prng.js';
import { contextOf, genotypeOf, testEngine, traitOf, type TestMarker } from './helpers.js';

const LETTERS = ['A', 'C', 'G', 'T'];

/** Two traits of 40 markers with varied weights and frequencies, sharing no rsIDs. */
function traits() {
  const rand = rng(11);
  const markers = (from: number): TestMarker[] =>
    Array.from({ length: 40 }, (_, i) => ({
      rsid: from + i,
      effect: LETTERS[i % 4],
      other: LETTERS[(i + 1) % 4],
      weight: Math.round((0.02 + rand() * 0.3) * 1e4) / 1e4,
      freq: [0.05 + rand() * 0.9, 0.05 + rand() * 0.9, 0.05 + rand() * 0.9, 0.05 + rand() * 0.9, 0.05 + rand() * 0.9],
    }));
  return [traitOf('first', markers(1000)), traitOf('second', markers(2000))];
}

/** A person's genotype at every marker of the traits, some left uncalled ("--"). */
function person(seed: number, defs: ReturnType<typeof traits>, dropShare: number): Genotype {
  const rand = rng(seed);
  const entries: Array<[string, string]> = [];
  for (const d of defs)
    d.markers.rsid.forEach((rs, i) => {
      const e = d.markers.effect[i];
      const o = d.markers.other[i];
      const gt = rand() < dropShare ? '--' : (rand() < 0.5 ? e : o) + (rand() < 0.5 ? e : o);
      entries.push([`rs${rs}`, gt]);
    });
  return genotypeOf(entries);
}

describe('distributions built at scoring time', () => {
  it('give every person the result a fresh engine gives, across references and missing markers', () => {
    const defs = traits();
    const shared = testEngine(defs);
    const people = [
      ...Array.from({ length: 6 }, (_, i) => person(100 + i, defs, 0.1)), // each misses different markers
      person(200, defs, 0), // fully genotyped
      person(201, defs, 0),
    ];
    // The same person twice, and every reference: later calls may reuse what earlier ones built.
    const calls = [...people, people[0]].flatMap((g) => [1, 3, 4].map((ethnicity) => ({ g, ethnicity })));
    let checked = 0;
    for (const { g, ethnicity } of calls) {
      const kept = shared.assessMany(g, contextOf(ethnicity), undefined, { details: false });
      const fresh = testEngine(defs).assessMany(g, contextOf(ethnicity), undefined, { details: false });
      for (const [code, outcome] of fresh) {
        expect(kept.get(code)).toEqual(outcome);
        if (outcome.status === 'computed') checked++;
      }
    }
    expect(checked).toBe(calls.length * 2);
  });

  it('keep what every fully genotyped person shares at once and any other distribution from its second call, build again when the markers left out differ, and forget the least recently used beyond the budget', () => {
    const made: string[] = [];
    const dist = (bytes: number) => ({ bytes }) as ScoreDistribution;
    const memo = builtDistributions(1000);
    const get = (key: string, missing: number[], bytes = 100, shared = missing.length === 0) =>
      memo.get(
        key,
        Int32Array.from(missing),
        missing.length,
        () => {
          made.push(`${key}:${missing.join(',')}`);
          return { dist: dist(bytes), levels: [3] };
        },
        shared,
      );
    get('t', [1, 2]); // seen once: not kept
    get('t', [1, 2]); // seen again: kept
    get('t', [1, 2]);
    get('t', [1, 3]); // same count, other markers
    get('t', [1, 3]);
    get('u', [1, 2]);
    get('u', [1, 2]);
    expect(made).toEqual(['t:1,2', 't:1,2', 't:1,3', 't:1,3', 'u:1,2', 'u:1,2']);
    get('full', [], 100); // shared by everyone fully genotyped: kept at once
    get('full', [], 100);
    expect(made).toHaveLength(7);
    get('mixture', [], 100, false); // nothing left out, but one person's mixture: kept from its second call
    get('mixture', [], 100, false);
    get('mixture', [], 100, false);
    expect(made).toHaveLength(9);
    get('big', [], 900); // over the budget: the oldest leave, down to three quarters
    get('t', [1, 2]);
    expect(made.at(-1)).toBe('t:1,2');
    expect(made).toHaveLength(11);
  });
});
