/**
 * The route table: every operation of /api, /oauth and /storage with its method, path,
 * schemas, scopes, statuses and documentation. The express routers register their
 * handlers by operationId from it, the OpenAPI document is generated from it, and the
 * renderer's typed client takes its types from it (and method and path from
 * operation-table.ts, which the UI's build turns into a literal, so its bundle carries no schemas).
 */
import { GENOTYPE_EXTENSIONS } from '../genotype-files.js';
import { z } from 'zod';
import { APP_SCOPE, Detail } from '../schemas/common.js';
import {
  ApiClientInput,
  ApiClientList,
  AppInfo,
  CorsSettings,
  CorsSettingsInput,
  CreatedApiClient,
  CustomTrait,
  CustomTraitList,
  RevokedApiClient,
} from '../schemas/app.js';
import {
  GenotypeMetadata,
  GenotypeSnpList,
  MAX_SNP_LOOKUP,
  MAX_VCF_SAMPLE_NAME,
  SnpLookupRequest,
  UploadContentType,
  UploadReceipt,
  UploadUrl,
} from '../schemas/genotype.js';
import { EventMessage } from '../schemas/events.js';
import { FindingsResponse } from '../schemas/findings.js';
import { PharmacogeneList } from '../schemas/pharmacogenes.js';
import { VersionInfo } from '../schemas/meta.js';
import { OAuthError, SignInRequest, TokenRequest, TokenResponse } from '../schemas/oauth.js';
import { Profile, ProfileInput, ProfileList } from '../schemas/profiles.js';
import {
  ClientTrait,
  ClientTraitList,
  ComputeRequest,
  FullTraitAssessment,
  PricingType,
  ProfileTraitDetail,
  ProfileTraitList,
  TraitAssessmentList,
} from '../schemas/traits.js';
import { operation, type ParamSpec } from './define.js';

export { expressPath } from './define.js';
export type { Operation, ParamSpec, ResponseSpec, Tag } from './define.js';

const READ = ['read:profiles'] as const;
const WRITE = ['write:profiles'] as const;
const APP = [APP_SCOPE] as const;

const profileId = {
  profile_id: { schema: z.uuid(), description: 'The profile id (from POST /api/profiles/).' },
} satisfies Record<string, ParamSpec>;
const traitCode = {
  schema: z.string(),
  description: 'A trait code from GET /api/traits/.',
  example: 'height',
} satisfies ParamSpec;
const profileAndTrait = { ...profileId, trait_code: traitCode };

const view: ParamSpec = {
  schema: z.enum(['full', 'compact']).default('full'),
  description: 'compact leaves out the long trait texts (see each response shape).',
  extension: true,
};
const ifNoneMatch: ParamSpec = {
  schema: z.string(),
  description: 'The ETag of a response you hold: the answer is 304 with no body while it is still current.',
  extension: true,
};
const etag = {
  ETag: {
    description: 'Identifies this response; send it back in If-None-Match.',
    schema: { type: 'string' as const },
  },
};
const notModified = {
  description: 'Not modified: the response held under If-None-Match is still current.',
  headers: etag,
};
/** Names the codes of a compute request that the client has no trait for (URI-encoded, comma-separated). */
export const UNKNOWN_CODES_HEADER = 'Traitscope-Unknown-Trait-Codes';
const unknownCodes = {
  [UNKNOWN_CODES_HEADER]: {
    description:
      'The requested codes this client has no trait for, URI-encoded and comma-separated; absent when every code is known.',
    schema: { type: 'string' as const },
    optional: true,
  },
};

const oauthError = (description: string) => ({ description, schema: OAuthError });
const profileInvalid = {
  description: 'Invalid profile input; the detail names every bad field (interface.md answers invalid input with 405).',
  schema: Detail,
  code: 'invalid_input',
};

export const operations = {
  // ---- Service -------------------------------------------------------------------------
  getVersion: operation({
    method: 'get',
    path: '/api/version',
    summary: 'App, API and catalog versions',
    description:
      "What is running: the app version, the API version (this document's info.version) and the trait catalog revision. Needs no token.",
    tags: ['Service'],
    scopes: null,
    extension: true,
    query: {
      challenge: {
        schema: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/),
        description:
          'A fresh random value (16 to 128 characters of A-Z a-z 0-9 _ -). With client_id, the answer carries `identity`: a proof only the service holding that client can compute.',
        extension: true,
      },
      client_id: {
        schema: z.string().max(200),
        description: 'Your client id, whose stored secret hash keys the proof (needed with challenge).',
        extension: true,
      },
    },
    success: { status: 200, schema: VersionInfo, description: 'The versions.' },
    errors: {
      400: 'challenge without client_id (or the reverse), or a challenge not of 16 to 128 characters of A-Z a-z 0-9 _ -.',
    },
  }),
  getOpenApiDocument: operation({
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This OpenAPI document',
    description:
      'The OpenAPI 3.1 document of the API, generated from the route table the service runs on. Needs no token.',
    tags: ['Service'],
    scopes: null,
    success: {
      status: 200,
      schema: z
        .record(z.string(), z.unknown())
        .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document.' }),
      description: 'The document.',
    },
  }),
  getApiReference: operation({
    method: 'get',
    path: '/api/docs',
    summary: 'The API reference page',
    description: 'A browsable reference of this document (Swagger UI, bundled: it works offline). Needs no token.',
    tags: ['Service'],
    scopes: null,
    extension: true,
    success: {
      status: 200,
      contentType: 'text/html',
      schema: z.string().meta({ id: 'HtmlPage', description: 'An HTML page.' }),
      description: 'The page.',
    },
  }),

  // ---- Authentication ------------------------------------------------------------------
  requestToken: operation({
    method: 'post',
    path: '/oauth/token',
    summary: 'Get an access token (client credentials)',
    description:
      'OAuth 2.0 client credentials grant (RFC 6749 §4.4). The body is JSON or application/x-www-form-urlencoded; client_id and client_secret may instead come as HTTP Basic credentials. Errors follow RFC 6749 §5.2.',
    tags: ['Authentication'],
    scopes: null,
    body: {
      schema: TokenRequest,
      contentTypes: ['application/json', 'application/x-www-form-urlencoded'],
      required: true,
    },
    success: {
      status: 200,
      schema: TokenResponse,
      description: 'The token. Send it as "Authorization: Bearer <access_token>".',
      headers: { 'Cache-Control': { description: 'no-store', schema: { type: 'string' } } },
    },
    errors: {
      400: oauthError(
        'invalid_request (missing grant_type or an unreadable body), unsupported_grant_type, invalid_target (missing or foreign audience) or invalid_scope.',
      ),
      401: {
        ...oauthError('invalid_client: unknown client, wrong secret, revoked client, or no credentials.'),
        headers: { 'WWW-Authenticate': { description: 'Basic realm="traitscope"', schema: { type: 'string' } } },
      },
      413: oauthError('invalid_request: the body is too large.'),
      429: {
        ...oauthError(
          'slow_down: too many failed requests for this client_id (10 a minute), or too many being checked at once.',
        ),
        headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'string' } } },
      },
    },
  }),
  signIn: operation({
    method: 'post',
    path: '/oauth/sign-in',
    summary: 'Trade a one-time sign-in link for a token (web UI)',
    description:
      "The headless web UI opens a link printed by `serve` (…/#signin=<code>) and trades its code here, once, for a token of the app's own client. Not for third-party tools.",
    tags: ['Authentication'],
    scopes: null,
    internal: true,
    extension: true,
    body: { schema: SignInRequest, contentTypes: ['application/json'], required: true },
    success: { status: 200, schema: TokenResponse, description: "A token of the app's own client." },
    errors: {
      400: oauthError(
        'invalid_grant: the code was used, has expired or is unknown; or invalid_request: the body could not be read.',
      ),
      413: oauthError('invalid_request: the body is too large.'),
    },
  }),

  // ---- Profiles ------------------------------------------------------------------------
  listProfiles: operation({
    method: 'get',
    path: '/api/profiles/',
    summary: 'List profiles',
    description: 'The profiles this client created, oldest first.',
    tags: ['Profiles'],
    scopes: READ,
    success: { status: 200, schema: ProfileList, description: 'The profiles.' },
  }),
  createProfile: operation({
    method: 'post',
    path: '/api/profiles/',
    summary: 'Create a profile',
    description:
      'Creates a profile owned by this client. Omitted fields take their defaults ("", "", 0, null, 0); id, email and unknown keys are ignored.',
    tags: ['Profiles'],
    scopes: WRITE,
    body: { schema: ProfileInput, contentTypes: ['application/json'] },
    success: { status: 201, schema: Profile, description: 'The new profile.' },
    errors: { 405: profileInvalid },
  }),
  getProfile: operation({
    method: 'get',
    path: '/api/profiles/{profile_id}/',
    summary: 'Get a profile',
    description: 'One profile of this client.',
    tags: ['Profiles'],
    scopes: READ,
    params: profileId,
    success: { status: 200, schema: Profile, description: 'The profile.' },
  }),
  replaceProfile: operation({
    method: 'put',
    path: '/api/profiles/{profile_id}/',
    summary: 'Replace a profile',
    description:
      'Sets every writable field: omitted ones take their defaults ("", "", 0, null, 0). Changing the ethnicity recomputes stored assessments against the new reference population.',
    tags: ['Profiles'],
    scopes: WRITE,
    params: profileId,
    body: { schema: ProfileInput, contentTypes: ['application/json'] },
    success: { status: 200, schema: Profile, description: 'The updated profile.' },
    errors: { 405: profileInvalid },
  }),
  updateProfile: operation({
    method: 'patch',
    path: '/api/profiles/{profile_id}/',
    summary: 'Update some profile fields',
    description: 'Sets the fields present in the body; the others stay as they are.',
    tags: ['Profiles'],
    scopes: WRITE,
    params: profileId,
    body: { schema: ProfileInput, contentTypes: ['application/json'] },
    success: { status: 200, schema: Profile, description: 'The updated profile.' },
    errors: { 405: profileInvalid },
  }),
  deleteProfile: operation({
    method: 'delete',
    path: '/api/profiles/{profile_id}/',
    summary: 'Delete a profile',
    description: 'Deletes the profile with its stored files, parsed genotype and assessments.',
    tags: ['Profiles'],
    scopes: WRITE,
    params: profileId,
    success: { status: 200, schema: Detail, description: 'Deleted.' },
  }),

  // ---- Genotype ------------------------------------------------------------------------
  getGenotypeMetadata: operation({
    method: 'get',
    path: '/api/profiles/{profile_id}/genotype/',
    summary: 'Get genotype metadata',
    description:
      'Metadata of the uploaded file with its processing state and parse summary, or {} when nothing was uploaded.',
    tags: ['Genotype'],
    scopes: READ,
    params: profileId,
    success: { status: 200, schema: GenotypeMetadata, description: 'The metadata, or {}.' },
  }),
  getUploadUrl: operation({
    method: 'get',
    path: '/api/profiles/{profile_id}/genotype/upload/',
    summary: 'Get an upload URL',
    description:
      'A time-limited URL (180 s by default) to PUT the genotype file to, with the same Content-Type and no Authorization header (operation uploadGenotypeFile). Processing starts by itself once the upload completes.',
    tags: ['Genotype'],
    scopes: READ,
    params: profileId,
    query: {
      'content-type': {
        schema: UploadContentType.default('text/plain'),
        description: 'The Content-Type the file will be sent with.',
      },
    },
    success: { status: 200, schema: UploadUrl, description: 'The upload URL.' },
    errors: { 400: 'content-type is not text/plain or application/zip.' },
  }),
  processGenotype: operation({
    method: 'post',
    path: '/api/profiles/{profile_id}/genotype/upload/',
    summary: 'Process the uploaded file and wait',
    description:
      '(Re)processes the stored file and answers when processing has ended. A file much smaller or stranger than the genotype in use waits (422, metadata.needs_confirmation) until it is confirmed with confirm_replace=true.',
    tags: ['Genotype'],
    scopes: WRITE,
    params: profileId,
    query: {
      confirm_replace: {
        schema: z.enum(['true', 'false']),
        description:
          'true: the latest upload may replace the genotype in use although it is much smaller or stranger (docs/api.md).',
        extension: true,
      },
      variants_only: {
        schema: z.enum(['true', 'false']),
        description:
          "The person's answer on how a VCF's unlisted sites are read (docs/file-formats.md): true, the file lists only the sites that differ from the reference, so every unlisted marker is read as homozygous for the reference allele; false, it lists every site that was called. Without it the file's contents decide (site_reading in the summary says which).",
        extension: true,
      },
      sample: {
        schema: z.string().min(1).max(MAX_VCF_SAMPLE_NAME),
        description:
          "A VCF of several people (vcf_samples in the summary): the name of the profile's sample, read from then on instead of the first. A new upload forgets it. A name the file does not have fails processing (422), saying the file's samples.",
        extension: true,
      },
    },
    success: { status: 200, schema: Detail, description: 'Processed.' },
    errors: {
      400: 'confirm_replace or variants_only is not true or false, or sample is empty, too long or holds a tab or line break.',
      401: {
        description:
          'No token (or a bad one), or nothing was uploaded for this profile yet (as interface.md specifies).',
        schema: Detail,
        headers: {
          'WWW-Authenticate': {
            description: 'Bearer challenge, when the token is the problem.',
            schema: { type: 'string' },
          },
        },
      },
      404: 'No profile with this id exists for this client, or it was deleted during processing.',
      422: 'The file could not be read, or waits for confirm_replace=true; the detail says why. The previous genotype stays in use.',
    },
  }),
  lookupSnps: operation({
    method: 'get',
    path: '/api/profiles/{profile_id}/genotype/snps/',
    summary: 'Look up genotypes of markers',
    description: `The genotypes of the requested markers in the genotype in use; markers not in it are left out. At most ${MAX_SNP_LOOKUP.toLocaleString('en')} rsIDs, but a query string longer than about 16 KB (some 1,400 rsIDs) is refused with 431: use lookupSnpsInBody for long lists.`,
    tags: ['Genotype'],
    scopes: READ,
    extension: true,
    params: profileId,
    query: {
      rsid: {
        schema: z.string(),
        required: true,
        description: 'Comma-separated rsIDs (the parameter may also repeat).',
        example: 'rs4988235,rs12913832',
      },
    },
    success: { status: 200, schema: GenotypeSnpList, description: 'The markers found.' },
    errors: {
      400: `An entry is not an rsID, none was given, or more than ${MAX_SNP_LOOKUP} were.`,
      409: 'The profile has no processed genotype yet.',
    },
  }),
  lookupSnpsInBody: operation({
    method: 'post',
    path: '/api/profiles/{profile_id}/genotype/snps/',
    summary: 'Look up genotypes of many markers',
    description: `The same look-up with the rsIDs in a JSON body, for lists too long for a URL (up to ${MAX_SNP_LOOKUP.toLocaleString('en')}). A read: it needs only the read:profiles scope.`,
    tags: ['Genotype'],
    scopes: READ,
    extension: true,
    params: profileId,
    body: { schema: SnpLookupRequest, contentTypes: ['application/json'], required: true },
    success: { status: 200, schema: GenotypeSnpList, description: 'The markers found.' },
    errors: {
      400: `The body is not a list of rsIDs, an entry is not an rsID, or more than ${MAX_SNP_LOOKUP} were given.`,
      409: 'The profile has no processed genotype yet.',
    },
  }),

  getFindings: operation({
    method: 'get',
    path: '/api/profiles/{profile_id}/findings/',
    summary: 'Single-variant findings',
    description:
      'APOE ε, Factor V Leiden, HFE C282Y/H63D, lactase persistence and ALDH2 read from the genotype in use: each a curated set of qualitative statements with their PubMed ids, the markers as read (missing, no-call, not matching, other strand) and what a consumer chip cannot tell. Clinically meaningful findings are flagged `clinical`: the desktop UI shows them only after the person opted in.',
    tags: ['Genotype'],
    scopes: READ,
    extension: true,
    params: profileId,
    success: { status: 200, schema: FindingsResponse, description: 'The findings.' },
    errors: { 409: 'The profile has no processed genotype yet.' },
  }),

  getPharmacogenes: operation({
    method: 'get',
    path: '/api/profiles/{profile_id}/pharmacogenes/',
    summary: 'Drug–gene results',
    description:
      "One element per gene (CYP2C19, CYP2C9, VKORC1, CYP4F2, SLCO1B1, TPMT, NUDT15, DPYD, CYP3A5, CYP3A4, UGT1A1, CYP2B6, IFNL3, ABCG2, NAT2, CYP2D6) called from the genotype in use with CPIC/PharmVar allele definitions: a diplotype only when exactly one pair of named alleles fits, otherwise the candidates; positions missing or not called are listed and never taken as the reference allele. With the phenotype, the medicines with CPIC guidance it affects, and the definitions' versions. CYP2D6 is never determinable from a consumer chip. The desktop UI shows these results only after the person opted in.",
    tags: ['Genotype'],
    scopes: READ,
    extension: true,
    params: profileId,
    success: { status: 200, schema: PharmacogeneList, description: 'One result per gene.' },
    errors: { 409: 'The profile has no processed genotype yet.' },
  }),

  // ---- Traits --------------------------------------------------------------------------
  listClientTraits: operation({
    method: 'get',
    path: '/api/traits/',
    summary: "List the client's traits",
    description:
      'Every trait configured for this client with its pricing type, in catalog order. Filters combine (AND). The response carries an ETag; send it back in If-None-Match to get 304 while nothing changed.',
    tags: ['Traits'],
    scopes: READ,
    query: {
      q: { schema: z.string(), description: 'Keep traits whose code or name contains this (case-insensitive).' },
      featured: {
        schema: z.boolean(),
        description: 'true: only the curated consumer set; false: only the generated GWAS set.',
        extension: true,
      },
      type: { schema: PricingType, description: 'Only traits of this pricing type.', extension: true },
      category: {
        schema: z.string(),
        description: 'Only traits of this category (exact, case-insensitive).',
        extension: true,
        example: 'Appearance',
      },
      view,
    },
    headers: { 'If-None-Match': ifNoneMatch },
    success: {
      status: 200,
      schema: ClientTraitList,
      description: 'The traits (ClientTraitBrief elements with view=compact).',
      headers: etag,
    },
    errors: { 304: notModified, 400: 'A filter has a value it cannot have (the detail says which).' },
  }),
  getClientTrait: operation({
    method: 'get',
    path: '/api/traits/{trait_code}/',
    summary: "Get one of the client's traits",
    description: 'One trait of this client with its pricing type.',
    tags: ['Traits'],
    scopes: READ,
    extension: true,
    params: { trait_code: traitCode },
    success: { status: 200, schema: ClientTrait, description: 'The trait.' },
    errors: { 404: 'The client has no trait with this code.' },
  }),
  listProfileTraits: operation({
    method: 'get',
    path: '/api/profiles/{profile_id}/traits/',
    summary: "List the profile's traits",
    description:
      'Without score: every client trait with its status. With score: only computed traits, with their assessment summary. An empty array while no genotype is ready (none uploaded, or still processing). view=compact names each trait by its code instead of embedding it.',
    tags: ['Traits'],
    scopes: READ,
    params: profileId,
    query: {
      score: {
        schema: z.string(),
        description: 'Present (with or without a value): the scored form.',
        allowEmptyValue: true,
      },
      view,
    },
    headers: { 'If-None-Match': ifNoneMatch },
    success: { status: 200, schema: ProfileTraitList, description: 'The traits.', headers: etag },
    errors: { 304: notModified, 400: 'view has a value it cannot have.' },
  }),
  computeTraits: operation({
    method: 'post',
    path: '/api/profiles/{profile_id}/traits/',
    summary: 'Compute traits',
    description:
      'Computes the requested traits that are available and returns every requested trait that is computed afterwards, with its assessment summary. Unavailable codes are left out; [] while no genotype is ready. Codes the client has no trait for are named in the Traitscope-Unknown-Trait-Codes header, and when none of the codes is known the answer is 400.',
    tags: ['Traits'],
    scopes: WRITE,
    params: profileId,
    query: { view },
    body: { schema: ComputeRequest, contentTypes: ['application/json'], required: true },
    success: {
      status: 200,
      schema: TraitAssessmentList,
      description: 'The computed traits.',
      headers: unknownCodes,
    },
    errors: {
      400: {
        description:
          'The body is not a list of trait codes, or none of its codes is known to this client (named in the detail and the header).',
        schema: Detail,
        headers: unknownCodes,
      },
    },
  }),
  getTraitAssessment: operation({
    method: 'get',
    path: '/api/profiles/{profile_id}/traits/{trait_code}/',
    summary: 'Get a trait assessment',
    description:
      'The full assessment when the trait is computed; otherwise the trait and its status (unavailable while no genotype is ready).',
    tags: ['Traits'],
    scopes: READ,
    params: profileAndTrait,
    success: { status: 200, schema: ProfileTraitDetail, description: 'The assessment, or the trait and its status.' },
    errors: { 404: 'No profile with this id exists for this client, or the client has no trait with this code.' },
  }),
  computeTrait: operation({
    method: 'put',
    path: '/api/profiles/{profile_id}/traits/{trait_code}/',
    summary: 'Compute a trait',
    description: 'Computes the trait when it is available (or returns it when computed) with the full assessment.',
    tags: ['Traits'],
    scopes: WRITE,
    params: profileAndTrait,
    success: { status: 200, schema: FullTraitAssessment, description: 'The full assessment.' },
    errors: {
      404: 'No profile with this id exists for this client, or the client has no trait with this code.',
      409: 'The trait cannot be computed for this profile, or its genotype is missing or still processing; the detail says which.',
    },
  }),

  // ---- Storage -------------------------------------------------------------------------
  uploadGenotypeFile: operation({
    method: 'put',
    path: '/storage/genotypes/{profile_id}',
    summary: 'Upload a genotype file to an upload URL',
    description:
      'The storage side of getUploadUrl: PUT the raw file to the URL exactly as returned, with the Content-Type it was issued for and no Authorization header (the signed URL is the credential). The last complete upload wins; processing starts by itself. A failed or partial upload changes nothing.',
    tags: ['Genotype'],
    scopes: null,
    params: profileId,
    query: {
      expires: { schema: z.string(), required: true, description: 'Expiry (epoch seconds), as issued.' },
      content_type: { schema: UploadContentType, required: true, description: 'The signed Content-Type, as issued.' },
      signature: { schema: z.string(), required: true, description: 'HMAC signature, as issued.' },
    },
    body: {
      schema: z.string().meta({
        id: 'GenotypeFileBody',
        description: `The raw genotype file: ${GENOTYPE_EXTENSIONS.map((e) => `.${e}`).join(', ')} (a .gz or .zip of a raw-data file or VCF, .tar.gz included).`,
      }),
      contentTypes: ['text/plain', 'application/zip'],
      required: true,
    },
    success: { status: 200, schema: UploadReceipt, description: 'Stored; processing has started.' },
    errors: {
      400: 'The body was empty or the transfer broke off; nothing was changed.',
      403: "The URL is expired, incomplete or tampered with, the Content-Type is not the signed one, or the Host header is not this service's address.",
      404: 'The profile of this URL no longer exists.',
      405: {
        description: 'Any method but PUT.',
        schema: Detail,
        headers: { Allow: { description: 'PUT', schema: { type: 'string' } } },
      },
      413: 'The file is larger than the upload limit (1 GiB by default); nothing was changed.',
      429: {
        description: 'Too many uploads in progress (8 in all, 2 per profile).',
        schema: Detail,
        headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'string' } } },
      },
    },
  }),

  // ---- Events --------------------------------------------------------------------------
  getEventsUrl: operation({
    method: 'get',
    path: '/api/events/url',
    summary: 'A one-time URL of the events stream',
    description:
      "For browsers' EventSource, which cannot send an Authorization header: a URL of GET /api/events carrying a single-use ticket, valid 60 s, for the calling client. The access token never appears in a URL. Needs read:profiles (the events tell of results).",
    tags: ['Service'],
    scopes: READ,
    extension: true,
    success: {
      status: 200,
      schema: z
        .object({ url: z.url().describe('GET it within expires_in seconds, once.'), expires_in: z.number().int() })
        .meta({ id: 'EventsUrl' }),
      description: 'The URL.',
    },
  }),
  streamEvents: operation({
    method: 'get',
    path: '/api/events',
    summary: 'Job progress and result changes (Server-Sent Events)',
    description:
      'A text/event-stream of the calling client\'s jobs (`job` events: queued, running with its stage, done or failed) and of changes to its profiles\' results (`traits` events), so progress is pushed rather than polled (docs/api.md, "Events"). Authenticate with Authorization: Bearer, or with the ticket of GET /api/events/url.',
    tags: ['Service'],
    scopes: null,
    extension: true,
    query: {
      ticket: {
        schema: z.string(),
        description: 'A ticket from GET /api/events/url, instead of the Authorization header.',
        extension: true,
      },
    },
    success: {
      status: 200,
      contentType: 'text/event-stream',
      schema: z.string().meta({
        id: 'EventStream',
        description:
          'Server-Sent Events (docs/api.md, "Events"). Each message is `event: job|traits|ready` and a `data:` line of JSON; x-item-schema (EventMessage) gives the shape of each event type.',
      }),
      itemSchema: EventMessage,
      example:
        'retry: 2000\n\nevent: ready\ndata: {}\n\nevent: job\ndata: {"job_id":3,"kind":"processing","profile_id":"3f1c2a4e-8d2b-4c7e-9a51-0b6f4d2e7c10","state":"done","snp_count":638412}\n\nevent: traits\ndata: {"profile_id":"3f1c2a4e-8d2b-4c7e-9a51-0b6f4d2e7c10"}\n\n',
      description: 'The stream.',
    },
    errors: {
      401: { description: 'No valid token, or a used, expired or unknown ticket.', schema: Detail },
      403: { description: 'The token lacks read:profiles.', schema: Detail },
    },
  }),

  // ---- App (the desktop UI's own client) -----------------------------------------------
  getDiagnostics: operation({
    method: 'get',
    path: '/api/app/diagnostics',
    summary: 'Event-loop delay, memory and the worker pool',
    description:
      'For the benchmarks and bug reports: the longest event-loop stall, memory use and pool state since the last ?reset.',
    tags: ['App'],
    scopes: APP,
    internal: true,
    extension: true,
    query: {
      reset: {
        schema: z.string(),
        description: 'Present: start a new measurement window.',
        allowEmptyValue: true,
        extension: true,
      },
    },
    success: {
      status: 200,
      schema: z.record(z.string(), z.unknown()).meta({ id: 'Diagnostics' }),
      description: 'The measurements.',
    },
  }),
  getAppInfo: operation({
    method: 'get',
    path: '/api/app/info',
    summary: 'App facts',
    description: 'Version, data folder, addresses and catalog size, for the desktop UI.',
    tags: ['App'],
    scopes: APP,
    internal: true,
    extension: true,
    success: { status: 200, schema: AppInfo, description: 'The facts.' },
  }),
  listApiClients: operation({
    method: 'get',
    path: '/api/app/clients/',
    summary: 'List API clients',
    description: "The credentials issued to third-party tools (the app's own client is not listed).",
    tags: ['App'],
    scopes: APP,
    internal: true,
    extension: true,
    success: { status: 200, schema: ApiClientList, description: 'The clients.' },
  }),
  createApiClient: operation({
    method: 'post',
    path: '/api/app/clients/',
    summary: 'Create an API client',
    description: 'New credentials for a third-party tool; the secret is in this response only.',
    tags: ['App'],
    scopes: APP,
    internal: true,
    extension: true,
    body: { schema: ApiClientInput, contentTypes: ['application/json'], required: true },
    success: { status: 201, schema: CreatedApiClient, description: 'The client with its secret.' },
  }),
  revokeApiClient: operation({
    method: 'delete',
    path: '/api/app/clients/{client_id}/',
    summary: 'Revoke an API client',
    description:
      'Its tokens and upload URLs stop working at once. With delete_data=true every profile it created is deleted too (also for a client revoked earlier).',
    tags: ['App'],
    scopes: APP,
    internal: true,
    extension: true,
    params: { client_id: { schema: z.string(), description: 'The client id.' } },
    query: {
      delete_data: {
        schema: z.enum(['true', 'false']),
        description: 'true: also delete every profile the client created, with all their data.',
      },
    },
    success: { status: 200, schema: RevokedApiClient, description: 'Revoked (and its profiles deleted, when asked).' },
    errors: {
      400: 'delete_data is not true or false.',
      404: 'No such client.',
      409: 'The client was already revoked (and delete_data was not true).',
    },
  }),
  listCustomTraits: operation({
    method: 'get',
    path: '/api/app/traits/',
    summary: 'List imported traits',
    description: 'Traits imported from PGS Catalog scoring files.',
    tags: ['App'],
    scopes: APP,
    internal: true,
    extension: true,
    success: { status: 200, schema: CustomTraitList, description: 'The imported traits.' },
  }),
  importCustomTrait: operation({
    method: 'post',
    path: '/api/app/traits/',
    summary: 'Import a PGS Catalog scoring file',
    description:
      "Adds the scoring file as a trait of every client that follows the catalog, priced basic unless the client's free traits say otherwise.",
    tags: ['App'],
    scopes: APP,
    internal: true,
    extension: true,
    query: {
      file_name: { schema: z.string(), description: 'The file name, for the report.' },
      name: { schema: z.string(), description: 'The trait name (default: from the file).' },
      code: { schema: z.string(), description: 'The trait code (default: from the file).' },
      profile_id: {
        schema: z.string(),
        description:
          "A profile whose genotype file the scoring file's positions are also matched against (for position-only files whose variants are not markers Traitscope knows); lifted between GRCh37 and GRCh38 when the builds differ.",
      },
    },
    body: {
      schema: z.string().meta({ id: 'ScoringFileBody', description: 'A PGS Catalog scoring file, plain or gzipped.' }),
      contentTypes: ['application/octet-stream', 'application/gzip'],
      required: true,
    },
    success: { status: 201, schema: CustomTrait, description: 'The imported trait with the import report.' },
    errors: {
      409: 'A trait with this code exists.',
      413: 'The file is larger than 64 MB.',
      415: 'The body was not sent as application/octet-stream or application/gzip.',
      422: 'The file is not a usable scoring file; the detail says why.',
    },
  }),
  removeCustomTrait: operation({
    method: 'delete',
    path: '/api/app/traits/{trait_code}/',
    summary: 'Remove an imported trait',
    description: 'Removes the trait and its assessments.',
    tags: ['App'],
    scopes: APP,
    internal: true,
    extension: true,
    params: { trait_code: traitCode },
    success: { status: 200, schema: Detail, description: 'Removed.' },
    errors: { 404: 'No imported trait has this code.' },
  }),
  getCorsSettings: operation({
    method: 'get',
    path: '/api/app/cors',
    summary: 'Allowed browser origins',
    description:
      'The origins browser-based tools may call the API from (CORS): the saved list and those fixed for this run.',
    tags: ['App'],
    scopes: APP,
    internal: true,
    extension: true,
    success: { status: 200, schema: CorsSettings, description: 'The origins.' },
  }),
  updateCorsSettings: operation({
    method: 'put',
    path: '/api/app/cors',
    summary: 'Set the allowed browser origins',
    description:
      'Replaces the saved list. Each entry is an origin: scheme, host and optional port, e.g. http://localhost:3000.',
    tags: ['App'],
    scopes: APP,
    internal: true,
    extension: true,
    body: { schema: CorsSettingsInput, contentTypes: ['application/json'], required: true },
    success: { status: 200, schema: CorsSettings, description: 'The origins now in force.' },
  }),
  deleteAllData: operation({
    method: 'delete',
    path: '/api/app/data/',
    summary: 'Delete every profile',
    description: 'Deletes every profile with its files, genotypes and assessments; API clients are kept.',
    tags: ['App'],
    scopes: APP,
    internal: true,
    extension: true,
    success: { status: 200, schema: Detail, description: 'Deleted.' },
  }),
};

export type Operations = typeof operations;
export type OperationId = keyof Operations;
