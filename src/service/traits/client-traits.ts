/** Which traits a client has configured, and which of them it gets for free. */
import type { Client } from '../auth/clients.js';
import type { PricingType, ScienceEngine, TraitInfo } from '../science/types.js';

export interface ClientTraitEntry {
  trait: TraitInfo;
  type: PricingType;
}

export function pricingFor(client: Pick<Client, 'freeTraits'>, trait: TraitInfo): PricingType {
  const free = client.freeTraits;
  if (free === 'all') return 'free';
  if (free === 'none') return 'basic';
  if (free === 'default') return trait.default_pricing;
  return free.includes(trait.code) ? 'free' : 'basic';
}

/** The client's configured traits in catalog order (codes no longer in the catalog are skipped). */
export function clientTraits(
  client: Pick<Client, 'freeTraits' | 'traitCodes'>,
  engine: ScienceEngine,
): ClientTraitEntry[] {
  const traits = client.traitCodes
    ? client.traitCodes.map((code) => engine.trait(code)).filter((t): t is TraitInfo => t !== undefined)
    : engine.traits;
  return traits.map((trait) => ({ trait, type: pricingFor(client, trait) }));
}

export function freeTraitCodes(client: Pick<Client, 'freeTraits' | 'traitCodes'>, engine: ScienceEngine): string[] {
  return clientTraits(client, engine)
    .filter((e) => e.type === 'free')
    .map((e) => e.trait.code);
}

export function clientHasTrait(client: Pick<Client, 'traitCodes'>, engine: ScienceEngine, code: string): boolean {
  if (!engine.trait(code)) return false;
  return client.traitCodes === null || client.traitCodes.includes(code);
}
