/**
 * The recommendation text for each assessment level (1 = lowest score … 5 = highest),
 * from a template chosen by the trait's kind and filled with its phrase. Careful wording:
 * a score from published variants explains little of any trait; no advice beyond
 * suggesting a professional. Templates live in code so the catalog file stays small; a
 * trait's revision covers the filled-in texts, so changing a template changes revisions.
 */
export type TextKind = 'condition' | 'risk_measure' | 'trait';

const LIMITS =
  'A score built from published genetic variants captures only a small part of what shapes this trait; ' +
  'lifestyle, environment, chance and variants not in the score usually matter more.';

const TEMPLATES: Record<TextKind, readonly string[]> = {
  // A disease or condition: higher score, higher genetic predisposition.
  condition: [
    `Your genetic score for {p} is among the lowest in the reference population. This does not mean you cannot develop {p}. ${LIMITS} Keep to the usual health checks and talk to a doctor about any symptoms.`,
    `Your genetic score for {p} is below average in the reference population. ${LIMITS} Keep to the usual health checks and talk to a doctor about any symptoms.`,
    `Your genetic score for {p} is close to the average of the reference population. ${LIMITS} Family history and lifestyle are better guides; talk to a doctor if you have symptoms or concerns.`,
    `Your genetic score for {p} is above average in the reference population. Most people with a score like this never develop {p}. ${LIMITS} If {p} runs in your family or you have concerns, talk to a doctor or a genetic counsellor.`,
    `Your genetic score for {p} is among the highest in the reference population. This is not a diagnosis, and many people with a high score never develop {p}. ${LIMITS} Consider discussing this result, your family history and any symptoms with a doctor or a genetic counsellor.`,
  ],
  // A measurement where higher values carry more risk (BMI, LDL cholesterol, blood pressure, …).
  risk_measure: [
    `Your genetic score for {p} is among the lowest in the reference population: your genes may tend towards lower values. ${LIMITS} Only a measurement tells you your actual value; keep to the usual health checks.`,
    `Your genetic score for {p} is below average in the reference population. ${LIMITS} Only a measurement tells you your actual value; keep to the usual health checks.`,
    `Your genetic score for {p} is close to the average of the reference population. ${LIMITS} Only a measurement tells you your actual value.`,
    `Your genetic score for {p} is above average in the reference population: your genes may tend towards somewhat higher values. ${LIMITS} A measurement tells you where you actually stand; healthy habits help whatever the score, and a doctor can advise.`,
    `Your genetic score for {p} is among the highest in the reference population: your genes may tend towards higher values. ${LIMITS} Consider having it measured at your next health check, and talk to a doctor about what the result means for you.`,
  ],
  // Anything else: appearance, preferences, desirable measurements, neutral traits.
  trait: [
    `Your genetic score for {p} is among the lowest in the reference population. ${LIMITS} Treat this as a curiosity rather than a prediction; if the trait affects your health, talk to a professional.`,
    `Your genetic score for {p} is below average in the reference population. ${LIMITS} Treat this as a curiosity rather than a prediction; if the trait affects your health, talk to a professional.`,
    `Your genetic score for {p} is close to the average of the reference population. ${LIMITS} Treat this as a curiosity rather than a prediction.`,
    `Your genetic score for {p} is above average in the reference population. ${LIMITS} Treat this as a curiosity rather than a prediction; if the trait affects your health, talk to a professional.`,
    `Your genetic score for {p} is among the highest in the reference population. ${LIMITS} Treat this as a curiosity rather than a prediction; if the trait affects your health, talk to a professional.`,
  ],
};

/** Five recommendation texts for a trait, levels 1–5. */
export function recommendationTexts(kind: TextKind, phrase: string): string[] {
  return TEMPLATES[kind].map((t) => t.replaceAll('{p}', phrase));
}
