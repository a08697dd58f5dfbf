/** GET /api/profiles/{id}/pharmacogenes/: drug–gene results of a profile's genotype (read scope). */
import type { Router } from 'express';
import type { PharmacogeneList } from '../../../shared/api.js';
import { loadGenotype } from '../../genotype/genotype-store.js';
import { genotypeSiteReader, pharmacogeneData, pharmacogenesFor } from '../../science/pharmacogenes/index.js';
import type { ServiceContext } from '../context.js';
import { HttpError } from '../errors.js';
import { operationRouter } from '../router.js';
import { requireProfile } from './profiles.js';

export function pharmacogeneRoutes(ctx: ServiceContext): Router {
  const { router, on } = operationRouter(ctx, '/api');
  on('getPharmacogenes', (req, res) => {
    const profile = requireProfile(ctx, req, res);
    const stored = loadGenotype(ctx.db, profile.id);
    if (!stored)
      throw new HttpError(
        409,
        'This profile has no processed genotype yet. Upload a file and wait for processing to finish.',
      );
    const data = pharmacogeneData(ctx.config.resourcesDir);
    const body: PharmacogeneList = pharmacogenesFor(
      data,
      genotypeSiteReader(stored.genotype, stored.summary.build, data.table),
    );
    res.json(body);
  });
  return router;
}
