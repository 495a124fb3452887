import { TextField } from '../../../lib/text-field';
import { FILE_TYPES, type FormSettings } from './builder-api';
import { RichTextEditor, ThemeEditor } from './editor-slots';

type FormSettingsPanelProps = {
  settings: FormSettings;
  onChange: (patch: Partial<FormSettings>) => void;
  problems: Readonly<Record<string, string>>;
  /** Saved locked: everything but the lock itself waits for an unlock and a save. */
  locked: boolean;
  wasSecured: boolean;
};

type Flag = 'showImportantInfoMessage' | 'showLogo' | 'hasChat' | 'allowFileUploads' | 'allowChatFileUploads';
const FLAGS: readonly [Flag, string][] = [
  ['showLogo', 'Show the organisation logo'],
  ['hasChat', 'Reporters can chat with the team'],
  ['allowFileUploads', 'Reporters can upload files with a report'],
  ['allowChatFileUploads', 'Reporters can send files in the chat'],
];

type Message = 'welcomeMessageContent' | 'finishMessageContent' | 'uploadFilesMessage' | 'assignedToSupportMessage' | 'reportClosedMessage';
const MESSAGES: readonly [Message, string][] = [
  ['uploadFilesMessage', 'Upload Files Message'],
  ['assignedToSupportMessage', 'Assigned To Support Message'],
  ['reportClosedMessage', 'Report Closed Message'],
];

function Check({ label, checked, onChange, disabled, describedBy }: { label: string; checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean; describedBy?: string }) {
  return (
    <label className="builder-check">
      <input type="checkbox" checked={checked} disabled={disabled} aria-describedby={describedBy} onChange={(event) => onChange(event.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

/** Everything about a form but its widgets: messages, flags, uploads, theme and protection. */
export function FormSettingsPanel({ settings, onChange, problems, locked, wasSecured }: FormSettingsPanelProps) {
  const message = (key: Message, label: string) => (
    <RichTextEditor key={key} id={`builder-${key}`} label={label} value={settings[key]} onChange={(html) => onChange({ [key]: html })} disabled={locked} />
  );
  const toggleType = (type: string, on: boolean) => onChange({ allowedFileTypes: FILE_TYPES.filter((candidate) => (candidate === type ? on : settings.allowedFileTypes.includes(candidate))) });

  return (
    <div className="stack">
      <fieldset className="builder-group stack" disabled={locked}>
        <legend className="card__title">Messages</legend>
        <TextField id="builder-welcome-title" label="Welcome Message Title" value={settings.welcomeMessageTitle} onChange={(welcomeMessageTitle) => onChange({ welcomeMessageTitle })} />
        {message('welcomeMessageContent', 'Welcome Message')}
        <TextField id="builder-finish-title" label="Finish Message Title" value={settings.finishMessageTitle} onChange={(finishMessageTitle) => onChange({ finishMessageTitle })} />
        {message('finishMessageContent', 'Finish Message')}
        {MESSAGES.map(([key, label]) => message(key, label))}
        <div className="field">
          <label className="field__label" htmlFor="builder-acknowledgementMessage">
            Automatic Acknowledgement
          </label>
          <textarea
            id="builder-acknowledgementMessage"
            className="field__input"
            rows={3}
            value={settings.acknowledgementMessage}
            aria-describedby="builder-acknowledgement-hint"
            onChange={(event) => onChange({ acknowledgementMessage: event.target.value })}
          />
          <p id="builder-acknowledgement-hint" className="muted">
            Sent into the reporter&apos;s chat when they submit a report, and counts as acknowledging it. Leave empty to send none.
          </p>
        </div>
        <Check label="Show the important information message" checked={settings.showImportantInfoMessage} onChange={(showImportantInfoMessage) => onChange({ showImportantInfoMessage })} />
      </fieldset>
      <fieldset className="builder-group stack" disabled={locked}>
        <legend className="card__title">Reporting Options</legend>
        {FLAGS.map(([key, label]) => (
          <Check key={key} label={label} checked={settings[key]} onChange={(on) => onChange({ [key]: on })} />
        ))}
        <fieldset className="builder-file-types">
          <legend className="field__label">Allowed File Types</legend>
          {FILE_TYPES.map((type) => (
            <Check key={type} label={type} checked={settings.allowedFileTypes.includes(type)} onChange={(on) => toggleType(type, on)} />
          ))}
        </fieldset>
      </fieldset>
      <fieldset className="builder-group stack" disabled={locked}>
        <legend className="card__title">Theme</legend>
        <ThemeEditor value={settings.theme} onChange={(theme) => onChange({ theme })} disabled={locked} />
      </fieldset>
      <fieldset className="builder-group stack" disabled={locked}>
        <legend className="card__title">Protection</legend>
        <Check
          label="Secure this form with a password"
          checked={settings.secure}
          describedBy="builder-secure-hint"
          onChange={(secure) => onChange(secure ? { secure } : { secure, password: '' })}
        />
        <p id="builder-secure-hint" className="muted">
          {wasSecured ? 'A password is set. Type a new one to change it; turning this off removes it.' : 'Reporters must enter the password before they can report.'}
        </p>
        {settings.secure && (
          <TextField id="builder-password" label="Form Password" type="password" value={settings.password} onChange={(password) => onChange({ password })} error={problems['builder-password']} autoComplete="new-password" />
        )}
      </fieldset>
    </div>
  );
}
