/**
 * The featured traits: the curated consumer set. Each entry names one study of the
 * impute.me AllDiseases table (its study_id); every number comes from that study's rows.
 * Names, phrases and overviews are written here in plain language.
 */
import type { Connotation, PricingType } from '../../src/service/science/types.js';

export interface FeaturedDef {
  code: string;
  name: string;
  /** study_id in AllDiseases_2021-01-28_snp_weights. */
  study: string;
  category: string;
  connotation: Connotation;
  pricing: PricingType;
  /** Lower-case phrase for sentences ("your genetic score for …"). */
  phrase: string;
  /** A disease or condition (as opposed to a measurement or preference). */
  condition: boolean;
  /** Plain-language overview; the citation is appended by the build. */
  overview: string;
}

const f = (
  code: string,
  name: string,
  study: string,
  category: string,
  connotation: Connotation,
  pricing: PricingType,
  phrase: string,
  condition: boolean,
  overview: string,
): FeaturedDef => ({ code, name, study, category, connotation, pricing, phrase, condition, overview });

export const FEATURED: FeaturedDef[] = [
  // Body
  f('height', 'Height', 'height_30718517', 'Body', 'neutral', 'free', 'height', false,
    'Adult height is one of the most heritable human traits, yet it is shaped by thousands of genetic variants with tiny effects each, plus nutrition and health in childhood. This score uses the strongest variants from one large study; it explains only a small share of the differences in height between people.'),
  f('body_mass_index', 'Body mass index', 'body_mass_index_30124842', 'Body', 'risky', 'free', 'body mass index (BMI)', false,
    'Body mass index (weight divided by height squared) is influenced by many genes, several of which act on appetite in the brain. A higher score means a slightly higher average BMI among people with similar scores; diet, activity, sleep and environment have far larger effects on any one person.'),
  // Cardiometabolic
  f('type_2_diabetes', 'Type 2 diabetes', 'type_2_diabetes_30297969', 'Cardiometabolic', 'risky', 'free', 'type 2 diabetes', true,
    'Type 2 diabetes develops when the body stops responding well to insulin and cannot make enough of it to compensate. Family history, body weight, activity and age are the main risk factors; the genetic variants in this score each raise risk only slightly.'),
  f('coronary_artery_disease', 'Coronary artery disease', 'coronary_artery_disease_33020668', 'Cardiometabolic', 'risky', 'free', 'coronary artery disease', true,
    'Coronary artery disease is the narrowing of the arteries that supply the heart, the usual cause of heart attacks. Blood pressure, cholesterol, smoking, diabetes and family history are the established risk factors; this score adds a small amount of information about inherited risk.'),
  f('systolic_blood_pressure', 'Systolic blood pressure', 'systolic_blood_pressure_30224653', 'Blood pressure', 'risky', 'free', 'systolic blood pressure', false,
    'Systolic blood pressure is the higher number of a blood pressure reading, the pressure while the heart beats. Hundreds of genetic variants each shift it by a fraction of a unit; salt, weight, alcohol, activity and age matter much more. Only a measurement tells you your blood pressure.'),
  // Lipids
  f('ldl_cholesterol', 'LDL cholesterol', 'ldl_cholesterol_30275531', 'Lipids', 'risky', 'free', 'LDL cholesterol', false,
    'LDL cholesterol ("bad" cholesterol) carries cholesterol to the artery walls; higher levels raise the risk of heart disease. Common variants in genes such as APOE, LDLR and PCSK9 shift the level modestly. Rare inherited forms of very high cholesterol are not detected by this score; only a blood test tells you your level.'),
  f('hdl_cholesterol', 'HDL cholesterol', 'hdl_cholesterol_levels_32203549', 'Lipids', 'good', 'basic', 'HDL cholesterol', false,
    'HDL cholesterol ("good" cholesterol) carries cholesterol away from the tissues. Genetic variants, for example in CETP and LIPC, influence the level, as do activity, weight and alcohol. A higher score means a slightly higher expected HDL level.'),
  f('triglycerides', 'Triglycerides', 'triglyceride_levels_32203549', 'Lipids', 'risky', 'basic', 'triglyceride levels', false,
    'Triglycerides are the most common fat in the blood. Levels depend strongly on diet, alcohol, weight and blood sugar control, and moderately on genes such as APOA5 and GCKR. A higher score means slightly higher expected levels.'),
  // Nutrition
  f('caffeine_consumption', 'Caffeine consumption', 'caffeine_consumption_21490707', 'Nutrition', 'neutral', 'free', 'caffeine consumption', false,
    'How much caffeine people drink is partly inherited, through variants near genes that break down caffeine (CYP1A2) and regulate that process (AHR). People who clear caffeine faster tend to drink a little more coffee. Habits and culture matter much more than this score.'),
  // Sleep
  f('chronotype', 'Morning or evening person', 'chronotype_30696823', 'Sleep', 'neutral', 'free', 'being a morning person', false,
    'Chronotype is whether you naturally prefer mornings or evenings. It is partly inherited through genes of the body clock. A higher score means a slightly greater tendency to be a morning person; age, light exposure and routines shift chronotype too.'),
  // Autoimmune
  f('celiac_disease', 'Celiac disease', 'celiac_disease_22057235', 'Autoimmune', 'risky', 'basic', 'celiac disease', true,
    'Celiac disease is an immune reaction to gluten that damages the small intestine. Almost everyone with it carries particular HLA types, but most carriers never develop it. This score summarizes variants outside and near the HLA region found by one study; it cannot diagnose or rule out celiac disease, which needs blood tests and a doctor.'),
  // Cancer
  f('breast_cancer', 'Breast cancer', 'breast_cancer_29059683', 'Cancer', 'risky', 'basic', 'breast cancer', true,
    'Breast cancer risk is influenced by many common variants with small effects, and by rare variants in genes such as BRCA1 and BRCA2 that this score does not test. A low score does not remove the need for the screening recommended for your age, and a family history of breast or ovarian cancer is worth discussing with a doctor whatever this score says.'),
  // Psychiatric
  f('depression', 'Depression', 'depression_29700475', 'Psychiatric', 'risky', 'basic', 'depression', true,
    'Major depression is common and arises from many causes, including life events, health and genes. Each genetic variant in this score changes the risk very slightly, and the score as a whole says little about any one person. If you are struggling with your mood, talk to a doctor or someone you trust.'),
];
