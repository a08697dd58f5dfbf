/**
 * The standard normal distribution's CDF: one home for the service (score distributions)
 * and the UI (how notable a result is). Plain math, no imports, so the renderer can take it.
 */

/** Standard normal CDF via erfc (Numerical Recipes' Chebyshev fit, relative error < 1.2e-7). */
export function normalCdf(z: number): number {
  const x = -z / Math.SQRT2;
  const ax = Math.abs(x);
  const t = 1 / (1 + 0.5 * ax);
  const y =
    t *
    Math.exp(
      -ax * ax -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return 0.5 * (x >= 0 ? y : 2 - y);
}
