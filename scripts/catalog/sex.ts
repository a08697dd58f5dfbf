/**
 * Sex-specific traits: scores for conditions or measurements that exist in one sex only
 * (prostate, testes, ovaries, uterus, menstruation, pregnancy), or that were studied in
 * one sex and mean little in the other (breast cancer and mammographic density in women,
 * male-pattern baldness in men). A trait matching a rule is `not applicable` to people of
 * the other sex (docs/science.md). Questions about relatives ("Illnesses of father:
 * prostate cancer") apply to everyone and are excluded first.
 */
export type Sex = 'male' | 'female';

interface SexRule {
  pattern: RegExp;
  sex: Sex;
  why: string;
}

/** Phenotypes about relatives apply to everyone. */
const ABOUT_RELATIVES = /\billnesses of (father|mother|siblings)\b|\bmaternal smoking\b|\boffspring\b/i;

export const SEX_RULES: readonly SexRule[] = [
  { pattern: /prostat/i, sex: 'male', why: 'the prostate exists only in males' },
  { pattern: /testic|testis|germ cell tumou?r/i, sex: 'male', why: 'the testes exist only in males' },
  { pattern: /erectile|sperm|semen/i, sex: 'male', why: 'a male reproductive trait' },
  { pattern: /hypospadias/i, sex: 'male', why: 'a condition of male development' },
  { pattern: /male puberty|facial hair|voice breaking/i, sex: 'male', why: 'studied in males only' },
  { pattern: /male-pattern baldness|balding pattern/i, sex: 'male', why: 'male-pattern hair loss, studied in men' },
  { pattern: /ovar|oophorectomy/i, sex: 'female', why: 'the ovaries exist only in females' },
  {
    pattern: /uter(us|ine)|endometri|leiomyoma of uterus|fibroid/i,
    sex: 'female',
    why: 'the uterus exists only in females',
  },
  { pattern: /cervical cancer|cin\/pre-cancer cells cervix/i, sex: 'female', why: 'the cervix exists only in females' },
  { pattern: /menarche|menopause|menstru|dysmenorrh/i, sex: 'female', why: 'a female reproductive trait' },
  {
    pattern:
      /pregnan|gestation|pre-?eclampsia|placent|labour and delivery|maternal care|nausea and vomiting of pregnancy/i,
    sex: 'female',
    why: 'a trait of pregnancy',
  },
  { pattern: /contracept|female genital|vagin/i, sex: 'female', why: 'a female reproductive trait' },
  {
    pattern: /breast cancer|malignant neoplasm of breast|breast cysts|breast size|mammographic/i,
    sex: 'female',
    why: 'studied in women (breast cancer in men is rare and not what these scores describe)',
  },
  { pattern: /polycystic ovary/i, sex: 'female', why: 'the ovaries exist only in females' },
];

/** The sex a phenotype applies to, with the reason, or null when it applies to everyone. */
export function sexOf(phenotype: string): { sex: Sex; why: string } | null {
  if (ABOUT_RELATIVES.test(phenotype)) return null;
  for (const rule of SEX_RULES) if (rule.pattern.test(phenotype)) return { sex: rule.sex, why: rule.why };
  return null;
}
