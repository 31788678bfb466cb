const app = document.querySelector<HTMLDivElement>('#app');
if (app) app.textContent = 'claude-code-hub';
