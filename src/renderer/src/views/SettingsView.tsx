/**
 * Settings: API access for third-party tools on this computer (create, show the secret
 * once, revoke), where the data lives, and deleting all of it.
 */
import { useDocumentTitle } from '../lib/document-title.js';
import { useEffect, useState } from 'react';
import type { ApiClient, CreatedApiClient } from '../../../shared/api.js';
import { SCOPES } from '../../../shared/scopes.js';
import { api } from '../api/client.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { CorsOrigins } from '../components/CorsOrigins.js';
import { Dialog } from '../components/Dialog.js';
import { FormDialog } from '../components/FormDialog.js';
import { RadioOption } from '../components/RadioChoices.js';
import { TextField } from '../components/TextField.js';
import {
  AlertIcon,
  CheckIcon,
  CopyIcon,
  FolderIcon,
  KeyIcon,
  PlusIcon,
  Spinner,
  TrashIcon,
} from '../components/icons.js';
import { copyText } from '../lib/download.js';
import { formatDate, formatInt } from '../lib/format.js';
import { desktopBridge } from '../platform/bridge.js';
import { useJobs } from '../state/jobs.js';
import { forgetAllProfiles, useProfileList } from '../state/profiles.js';
import { navigate } from '../state/router.js';
import { useSettings } from '../state/settings.js';
import { toast } from '../state/toasts.js';
import { useCatalog } from '../state/traits.js';

const SCOPE_TEXT: Record<string, string> = {
  'read:profiles': 'Read its profiles, their DNA summaries and results',
  'write:profiles': 'Create and change profiles, upload DNA files, compute traits',
};

function freeTraitsText(f: ApiClient['free_traits']): string {
  if (f === 'default') return 'Catalog default';
  if (f === 'all') return 'All traits';
  if (f === 'none') return 'None';
  return f.length === 1 ? '1 trait' : `${f.length} traits`;
}

export function CopyButton({ text, label, onCopied }: { text: string; label: string; onCopied?: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="button button-small"
      aria-label={copied ? `${label} copied` : `Copy ${label}`}
      onClick={() =>
        void copyText(text).then((ok) => {
          if (ok) {
            setCopied(true);
            onCopied?.();
            setTimeout(() => setCopied(false), 1800);
          } else toast.error('Copying was refused. Select the text and copy it with the keyboard instead.');
        })
      }
    >
      {copied ? <CheckIcon size={14} /> : <CopyIcon size={14} />}
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

function CodeBlock({ code, label, onCopied }: { code: string; label: string; onCopied?: () => void }) {
  return (
    <div className="code-block">
      <pre tabIndex={0} aria-label={label}>
        <code>{code}</code>
      </pre>
      <CopyButton text={code} label={label} onCopied={onCopied} />
    </div>
  );
}

function curlExample(baseUrl: string, authUrl: string, id = '<CLIENT_ID>', secret = '<CLIENT_SECRET>'): string {
  return [
    `# 1. Get an access token (valid 24 hours)`,
    `curl -s -X POST ${authUrl}/oauth/token \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '{`,
    `    "client_id": "${id}",`,
    `    "client_secret": "${secret}",`,
    `    "audience": "${baseUrl}/profiles",`,
    `    "grant_type": "client_credentials"`,
    `  }'`,
    ``,
    `# 2. Call the API with it`,
    `curl -s ${baseUrl}/profiles/ -H 'Authorization: Bearer <ACCESS_TOKEN>'`,
  ].join('\n');
}

export function SettingsView() {
  useDocumentTitle('Settings');
  const { info, infoError, clients, clientsError } = useSettings();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiClient | null>(null);
  const [revoking, setRevoking] = useState<ApiClient | null>(null);
  const [revokeDeletesData, setRevokeDeletesData] = useState(false);
  const [deletingAll, setDeletingAll] = useState(false);
  const bridge = desktopBridge();
  const profileCount = useProfileList().profiles.length;

  useEffect(() => {
    void useSettings.getState().loadInfo();
    void useSettings.getState().loadClients();
  }, []);

  const thirdParty = (clients ?? []).filter((c) => !c.is_app);
  const active = thirdParty.filter((c) => !c.revoked_at);
  const revoked = thirdParty.filter((c) => c.revoked_at);

  return (
    <main className="page settings-page" aria-labelledby="settings-title" data-testid="settings-view">
      <header className="page-header">
        <div>
          <h1 id="settings-title">Settings</h1>
          <p className="muted">Your data, and API access for other programs.</p>
        </div>
      </header>

      <section className="card" aria-labelledby="data-title">
        <header className="card-header">
          <div>
            <h2 id="data-title">Your data</h2>
            <p className="muted">Profiles, DNA files and results are stored only in this folder on this computer.</p>
          </div>
        </header>
        {info ? (
          <div className="data-folder">
            <FolderIcon size={18} />
            <code className="data-path" data-testid="data-dir">
              {info.data_dir}
            </code>
            <CopyButton text={info.data_dir} label="folder path" />
            {bridge ? (
              <button
                type="button"
                className="button button-small"
                onClick={() =>
                  void bridge
                    .revealDataFolder()
                    .catch((err: Error) => toast.error(`The folder could not be opened: ${err.message}`))
                }
              >
                Show folder
              </button>
            ) : null}
          </div>
        ) : null}
        <div className="danger-zone">
          <div>
            <h3>Delete all my data</h3>
            <p className="muted">
              Removes every profile with its DNA file and results ({formatInt(profileCount)}{' '}
              {profileCount === 1 ? 'profile' : 'profiles'}). API clients stay. This cannot be undone.
            </p>
          </div>
          <button type="button" className="button button-danger" onClick={() => setDeletingAll(true)}>
            <TrashIcon size={16} /> Delete all data…
          </button>
        </div>
      </section>

      <section className="card" aria-labelledby="api-title" data-testid="api-access">
        <header className="card-header">
          <div>
            <h2 id="api-title">API access</h2>
            <p className="muted">
              Programs on this computer can use Traitscope’s API with their own credentials. Each one sees only the
              profiles it creates, never yours.
            </p>
          </div>
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            <PlusIcon size={16} /> New API client
          </button>
        </header>

        {infoError ? (
          <p className="inline-error" role="alert">
            {infoError}
          </p>
        ) : info ? (
          <dl className="kv">
            <div>
              <dt>Base URL</dt>
              <dd>
                <code>{info.base_url}</code> <CopyButton text={info.base_url} label="base URL" />
              </dd>
            </div>
            <div>
              <dt>Token URL</dt>
              <dd>
                <code>{info.auth_url}/oauth/token</code>
              </dd>
            </div>
            <div>
              <dt>Reference</dt>
              <dd>
                <a href={`${info.base_url}/docs`} target="_blank" rel="noopener noreferrer">
                  API reference
                </a>{' '}
                ·{' '}
                <a href={`${info.base_url}/openapi.json`} target="_blank" rel="noopener noreferrer">
                  OpenAPI document
                </a>
              </dd>
            </div>
          </dl>
        ) : null}

        <h3 className="subheading">Clients</h3>
        {clientsError ? (
          <p className="inline-error" role="alert">
            {clientsError}
          </p>
        ) : clients === null ? (
          <p className="muted">
            <Spinner size={14} /> Loading…
          </p>
        ) : active.length === 0 ? (
          <div className="empty-inline">
            <KeyIcon size={22} />
            <strong>No API clients yet.</strong>
            <span className="muted">
              Create one for each program that should use Traitscope, so you can revoke them one by one.
            </span>
          </div>
        ) : (
          <ClientTable clients={active} onRevoke={setRevoking} />
        )}
        {revoked.length > 0 ? (
          <details className="revoked">
            <summary>
              {revoked.length} revoked {revoked.length === 1 ? 'client' : 'clients'}
            </summary>
            <ClientTable clients={revoked} />
          </details>
        ) : null}

        <CorsOrigins />

        {info ? (
          <>
            <h3 className="subheading">Try it</h3>
            <CodeBlock code={curlExample(info.base_url, info.auth_url)} label="curl example" />
          </>
        ) : null}
      </section>

      {info ? (
        <section className="card about" aria-labelledby="about-title">
          <h2 id="about-title">About</h2>
          <p className="muted">
            Traitscope {info.version} · {formatInt(info.catalog.traits)} traits in the catalog,{' '}
            {formatInt(info.catalog.featured)} featured. Every effect size comes from a published study, cited with each
            trait.
          </p>
        </section>
      ) : null}

      {creating ? (
        <CreateClientDialog
          onClose={() => setCreating(false)}
          onCreated={(c) => {
            setCreating(false);
            setCreated(c);
          }}
        />
      ) : null}
      {created && info ? (
        <SecretDialog
          client={created}
          baseUrl={info.base_url}
          authUrl={info.auth_url}
          onClose={() => setCreated(null)}
        />
      ) : null}
      {revoking ? (
        <ConfirmDialog
          testId="revoke-dialog"
          title={`Revoke “${revoking.name}”?`}
          description={
            <>
              <p>
                The program using this client loses access at once: its tokens and upload links stop working and its
                secret can’t be used again.
              </p>
              <label className="check">
                <input
                  type="checkbox"
                  checked={revokeDeletesData}
                  onChange={(e) => setRevokeDeletesData(e.target.checked)}
                />
                <span>Also permanently delete every profile it created, with their DNA files and results</span>
              </label>
            </>
          }
          confirmLabel={revokeDeletesData ? 'Revoke and delete its data' : 'Revoke access'}
          onClose={() => {
            setRevoking(null);
            setRevokeDeletesData(false);
          }}
          onConfirm={async () => {
            await useSettings.getState().revokeClient(revoking.client_id, revokeDeletesData);
            toast.success(
              revokeDeletesData
                ? `${revoking.name} can no longer use the API, and its profiles were deleted.`
                : `${revoking.name} can no longer use the API.`,
            );
          }}
        />
      ) : null}
      {deletingAll ? (
        <ConfirmDialog
          testId="delete-all-dialog"
          title="Delete all your data?"
          description={
            <>
              <p>
                This permanently deletes <strong>every profile, every DNA file and every result</strong> stored by
                Traitscope on this computer.
              </p>
              <p className="muted">There is no undo and no backup. Export reports first if you want to keep them.</p>
            </>
          }
          confirmLabel="Delete everything"
          typeToConfirm="DELETE"
          onClose={() => setDeletingAll(false)}
          onConfirm={async () => {
            await api.deleteAllData();
            forgetAllProfiles();
            useJobs.setState({ jobs: [] });
            navigate({ name: 'home' }, { replace: true });
            toast.success('All profiles, DNA files and results were deleted.');
          }}
        />
      ) : null}
    </main>
  );
}

function ClientTable({ clients, onRevoke }: { clients: ApiClient[]; onRevoke?: (c: ApiClient) => void }) {
  return (
    <div className="table-wrap">
      <table className="table clients-table" data-testid="clients-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Client ID</th>
            <th scope="col">Scopes</th>
            <th scope="col">Free traits</th>
            <th scope="col">{onRevoke ? 'Created' : 'Revoked'}</th>
            {onRevoke ? (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {clients.map((c) => (
            <tr key={c.client_id} data-testid="client-row">
              <th scope="row">{c.name}</th>
              <td>
                <code className="client-id" title={c.client_id}>
                  {c.client_id}
                </code>
              </td>
              <td>
                <span className="chips">
                  {c.scopes.map((s) => (
                    <span key={s} className="chip" title={SCOPE_TEXT[s] ?? s}>
                      {s}
                    </span>
                  ))}
                </span>
              </td>
              <td>{freeTraitsText(c.free_traits)}</td>
              <td>{formatDate(onRevoke ? c.created_at : c.revoked_at)}</td>
              {onRevoke ? (
                <td className="actions">
                  <button
                    type="button"
                    className="button button-small button-danger-ghost"
                    onClick={() => onRevoke(c)}
                    aria-label={`Revoke ${c.name}`}
                  >
                    Revoke
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type FreeChoice = 'default' | 'all' | 'none' | 'list';

function CreateClientDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (c: CreatedApiClient) => void }) {
  const { catalog } = useCatalog();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([...SCOPES]);
  const [free, setFree] = useState<FreeChoice>('default');
  const [codes, setCodes] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'name' | 'scopes' | 'codes' | 'form', string>>>({});
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const next: typeof errors = {};
    if (!name.trim()) next.name = 'Give the client a name, e.g. the program that will use it.';
    if (scopes.length === 0) next.scopes = 'Choose at least one permission.';
    const list = codes
      .split(/[\s,]+/)
      .map((c) => c.trim())
      .filter(Boolean);
    if (free === 'list') {
      if (list.length === 0) next.codes = 'List at least one trait code, or choose another option.';
      else if (catalog) {
        const known = new Set(catalog.map((c) => c.trait.code));
        const unknown = list.filter((c) => !known.has(c));
        if (unknown.length)
          next.codes = `Unknown trait ${unknown.length === 1 ? 'code' : 'codes'}: ${unknown.slice(0, 5).join(', ')}.`;
      }
    }
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    try {
      const created = await useSettings.getState().createClient({
        name: name.trim(),
        scopes: scopes as (typeof SCOPES)[number][],
        free_traits: free === 'list' ? list : free,
      });
      onCreated(created);
    } catch (err) {
      setErrors({ form: (err as Error).message });
      setBusy(false);
    }
  };

  return (
    <FormDialog
      title="New API client"
      description="Credentials for one program. The secret is shown once, right after you create it."
      onClose={onClose}
      busy={busy}
      testId="create-client-dialog"
      formId="client-form"
      formClassName="form-stack"
      noValidate
      submitLabel="Create client"
      onSubmit={() => void submit()}
    >
      <TextField
        id="cc-name"
        label="Name"
        value={name}
        onChange={setName}
        error={errors.name}
        placeholder="e.g. My analysis notebook"
      />

      <fieldset className="field">
        <legend className="field-label">Permissions</legend>
        {SCOPES.map((s) => (
          <label key={s} className="check">
            <input
              type="checkbox"
              checked={scopes.includes(s)}
              onChange={(e) => setScopes(e.target.checked ? [...scopes, s] : scopes.filter((x) => x !== s))}
            />
            <span>
              <code>{s}</code>
              <span className="muted small">{SCOPE_TEXT[s]}</span>
            </span>
          </label>
        ))}
        {errors.scopes ? (
          <span className="field-error" role="alert">
            {errors.scopes}
          </span>
        ) : null}
      </fieldset>

      <fieldset className="field">
        <legend className="field-label">Free traits</legend>
        <p className="field-hint">
          Free traits are computed automatically for this client’s profiles; the others when it asks.
        </p>
        {(
          [
            ['default', 'Catalog default', 'The traits the catalog marks as free'],
            ['all', 'All traits', 'Every trait is computed automatically'],
            ['none', 'None', 'Nothing is computed until the program asks'],
            ['list', 'Only these traits', 'Trait codes, separated by commas'],
          ] as Array<[FreeChoice, string, string]>
        ).map(([value, label, hint]) => (
          <RadioOption
            key={value}
            className="check"
            name="free-traits"
            checked={free === value}
            onSelect={() => setFree(value)}
            title={label}
            hint={hint}
          />
        ))}
        {free === 'list' ? (
          <input
            className="input"
            value={codes}
            onChange={(e) => setCodes(e.target.value)}
            placeholder="height, body_mass_index"
            aria-label="Free trait codes"
            aria-invalid={!!errors.codes}
          />
        ) : null}
        {errors.codes ? (
          <span className="field-error" role="alert">
            {errors.codes}
          </span>
        ) : null}
      </fieldset>

      {errors.form ? (
        <p className="form-error" role="alert">
          {errors.form}
        </p>
      ) : null}
    </FormDialog>
  );
}

function SecretDialog({
  client,
  baseUrl,
  authUrl,
  onClose,
}: {
  client: CreatedApiClient;
  baseUrl: string;
  authUrl: string;
  onClose: () => void;
}) {
  // The secret is shown once: closing before it was copied asks first.
  const [copied, setCopied] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const close = () => (copied || confirming ? onClose() : setConfirming(true));
  if (confirming && !copied) {
    return (
      <Dialog
        title="Close without copying the secret?"
        onClose={() => setConfirming(false)}
        size="small"
        tone="danger"
        testId="secret-confirm-dialog"
        footer={
          <>
            <button type="button" className="button" data-autofocus onClick={() => setConfirming(false)}>
              Go back and copy it
            </button>
            <button type="button" className="button button-danger" onClick={onClose}>
              Close without copying
            </button>
          </>
        }
      >
        <p>
          The secret of “{client.name}” has not been copied. It cannot be shown again: without it, the program cannot
          sign in, and you will have to revoke this client and create a new one.
        </p>
      </Dialog>
    );
  }
  return (
    <Dialog
      title={`“${client.name}” is ready`}
      onClose={close}
      size="large"
      testId="secret-dialog"
      footer={
        <button type="button" className="button button-primary" onClick={close}>
          I’ve saved the secret
        </button>
      }
    >
      <div className="banner banner-warn" onCopy={() => setCopied(true)}>
        <AlertIcon size={18} />
        <div>
          <strong>Copy the secret now. It is shown only once.</strong>
          <p>Traitscope keeps only a fingerprint of it. If it is lost, revoke this client and create a new one.</p>
        </div>
      </div>
      <dl className="kv kv-stacked" onCopy={() => setCopied(true)}>
        <div>
          <dt>Client ID</dt>
          <dd>
            <code data-testid="new-client-id">{client.client_id}</code>{' '}
            <CopyButton text={client.client_id} label="client ID" />
          </dd>
        </div>
        <div>
          <dt>Client secret</dt>
          <dd>
            <code className="secret" data-testid="new-client-secret">
              {client.client_secret}
            </code>{' '}
            <CopyButton text={client.client_secret} label="client secret" onCopied={() => setCopied(true)} />
          </dd>
        </div>
      </dl>
      <h3 className="subheading">Ready to paste</h3>
      <CodeBlock
        code={curlExample(baseUrl, authUrl, client.client_id, client.client_secret)}
        label="curl example with these credentials"
        onCopied={() => setCopied(true)}
      />
    </Dialog>
  );
}
