/**
 * The document's introduction: what the API is, and the whole workflow as curl commands.
 * It opens the reference page at /api/docs.
 */
export function workflowGuide(): string {
  return `Genetic trait assessments computed on this machine: the interface of Traitscope's
specification (version 1.0.0) with the additions marked \`x-traitscope-extension\`.
Operations marked \`x-internal\` are for the Traitscope app itself.

* Every path works with and without its trailing slash.
* Every non-2xx response of \`/api\` and \`/storage\` has the body \`{"detail": "...", "code": "..."}\`;
  \`/oauth/token\` errors follow RFC 6749 §5.2.
* Request bodies may carry keys an operation does not know: they are ignored.
* Responses may gain fields in later minor versions (see \`GET /api/version\`); ignore the ones you do not know.
* Browser-based tools: allow your page's origin in Settings → API access (or
  \`TRAITSCOPE_CORS_ORIGINS\` / \`serve --cors-origin\`).

## The workflow with curl

Get credentials (the secret is shown once): Settings → API access in the app, or

\`\`\`sh
npm run --silent cli -- clients create --name "My tool"
# {"client_id":"…","client_secret":"…"}
npm run --silent cli -- status     # where the service listens
\`\`\`

Then:

\`\`\`sh
BASE=$(npm run --silent cli -- status --json | jq -r .origin)   # the port is not fixed
TOKEN=$(curl -s -X POST $BASE/oauth/token -H 'content-type: application/json' \\
  -d "{\\"client_id\\":\\"$ID\\",\\"client_secret\\":\\"$SECRET\\",\\"audience\\":\\"$BASE/api/profiles\\",\\"grant_type\\":\\"client_credentials\\"}" | jq -r .access_token)
AUTH="Authorization: Bearer $TOKEN"

# create a profile
P=$(curl -s -X POST $BASE/api/profiles/ -H "$AUTH" -H 'content-type: application/json' \\
  -d '{"first_name":"Ada","age":36,"ethnicity":1}' | jq -r .id)

# get an upload URL (valid 180 s) and PUT the file to it, without Authorization
URL=$(curl -s "$BASE/api/profiles/$P/genotype/upload/?content-type=text/plain" -H "$AUTH" | jq -r .url)
curl -s -X PUT "$URL" -H 'content-type: text/plain' --data-binary @genome.txt

# wait until processing has ended
curl -s -X POST $BASE/api/profiles/$P/genotype/upload/ -H "$AUTH"

curl -s "$BASE/api/traits/?view=compact" -H "$AUTH"          # your traits and pricing
curl -s "$BASE/api/profiles/$P/traits/?view=compact" -H "$AUTH" # statuses
curl -s "$BASE/api/profiles/$P/traits/?score" -H "$AUTH"       # computed (free) assessments
curl -s -X POST $BASE/api/profiles/$P/traits/ -H "$AUTH" -H 'content-type: application/json' \\
  -d '{"trait_codes":["height","freckles"]}'                   # compute available traits
curl -s $BASE/api/profiles/$P/traits/height/ -H "$AUTH"        # one full assessment
curl -s -X POST $BASE/api/profiles/$P/genotype/snps/ -H "$AUTH" -H 'content-type: application/json' \\
  -d '["rs4988235","rs12913832"]'                              # genotypes of markers
curl -s -X DELETE $BASE/api/profiles/$P/ -H "$AUTH"            # delete everything of the profile
\`\`\``;
}
