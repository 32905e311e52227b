/** Entry point: loads `config.json`, then renders the console. */
import { render } from 'preact';
import { App } from './app';
import { loadConsoleConfig } from './config';
import './styles.css';

const root = document.getElementById('app') as HTMLElement;
loadConsoleConfig().then(
  (config) => render(<App apiBaseUrl={config.apiBaseUrl} />, root),
  (error: unknown) => {
    root.innerHTML = '';
    const message = document.createElement('p');
    message.setAttribute('role', 'alert');
    message.textContent = error instanceof Error ? error.message : String(error);
    root.append(message);
  },
);
