/** GET /api/profiles/{id}/pharmacogenes/: drug–gene results of a profile's genotype (read scope). */
import type { Router } from 'express';
import type { PharmacogeneList } from '../../../shared/api.js';
import { genotypeSiteReader, pharmacogeneData, pharmacogenesFor } from '../../science/pharmacogenes/index.js';
import type { ServiceContext } from '../context.js';
import { requireProfileGenotype } from '../genotype-required.js';
import { operationRouter } from '../router.js';

export function pharmacogeneRoutes(ctx: ServiceContext): Router {
  const { router, on } = operationRouter(ctx, '/api');
  on('getPharmacogenes', (req, res) => {
    const { stored } = requireProfileGenotype(ctx, req, res);
    const data = pharmacogeneData(ctx.config.resourcesDir);
    const body: PharmacogeneList = pharmacogenesFor(
      data,
      genotypeSiteReader(stored.genotype, stored.summary.build, data.table),
    );
    res.json(body);
  });
  return router;
}
