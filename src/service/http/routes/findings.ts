/** GET /api/profiles/{id}/findings/: the single-variant findings of a profile's genotype (read scope). */
import type { Router } from 'express';
import type { FindingsResponse } from '../../../shared/api.js';
import { findRsid } from '../../genotype/encoding.js';
import { genotypeFacts } from '../../genotype/genotype-store.js';
import { assessContext } from '../../science/assess-context.js';
import { FINDING_GENES, FINDING_SOURCES, findingsFor } from '../../science/findings.js';
import type { ServiceContext } from '../context.js';
import { requireProfileGenotype } from '../genotype-required.js';
import { operationRouter } from '../router.js';

export function findingRoutes(ctx: ServiceContext): Router {
  const { router, on } = operationRouter(ctx, '/api');
  on('getFindings', (req, res) => {
    const { profile, stored } = requireProfileGenotype(ctx, req, res);
    const { rsids, calls } = stored.genotype;
    // The reference the person's results use: how reliable a call of a rare variant is depends on it.
    const reference = ctx.engine.reference(stored.genotype, assessContext(profile, genotypeFacts(stored)));
    const findings = findingsFor((rsid) => {
      const i = findRsid(rsids, rsid);
      return i < 0 ? undefined : calls[i];
    }, reference);
    const body: FindingsResponse = { findings, genes: FINDING_GENES, sources: FINDING_SOURCES };
    res.json(body);
  });
  return router;
}
