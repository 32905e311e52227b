/** Entry point: loads `config.json`, then renders the console. */
import { render } from 'preact';
import { App } from './app';
import { loadConsoleConfig } from './config';
import { installEd25519Fallback } from './ledger/ed25519-fallback';
import './styles.css';

installEd25519Fallback();
const root = document.getElementById('app') as HTMLElement;
loadConsoleConfig().then(
  (config) => render(<App apiBaseUrl={config.apiBaseUrl} signInConfig={config.signIn} />, root),
  (error: unknown) => {
    root.innerHTML = '';
    const message = document.createElement('p');
    message.setAttribute('role', 'alert');
    message.textContent = error instanceof Error ? error.message : String(error);
    root.append(message);
  },
);
