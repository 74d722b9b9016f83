// What the API reference loads with the page (inlined, a few KB): a "Try it" button on each
// operation, and on the first click the console itself (api-console.js beside the page, with the
// mock's handlers), injected as a classic <script src>: Chromium fetches no module script from
// file://, and a classic script loads there as from any host.
export interface ApiConsole {
  open(container: HTMLElement, operationId: string): void;
}

declare global {
  interface Window {
    hrApiConsole?: ApiConsole;
  }
}

const BUTTON_CSS = `.hr-try-open{align-self:flex-start;font:600 13px/1.2 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:4px 0 8px;padding:6px 14px;border-radius:4px;border:1px solid #1f2a44;background:#fff;color:#1f2a44;cursor:pointer;}
.hr-try-open:hover,.hr-try-open[aria-expanded="true"]{background:#1f2a44;color:#fff;}
.hr-try-open:focus-visible{outline:2px solid #3b62c4;outline-offset:2px;}`;

export function installTryIt(operationIds: string[], script: string): void {
  let loading: Promise<ApiConsole> | undefined;
  const load = () =>
    (loading ??= new Promise<ApiConsole>((resolve, reject) => {
      const tag = document.createElement("script");
      tag.src = script;
      tag.onload = () => (window.hrApiConsole ? resolve(window.hrApiConsole) : reject(new Error(`${script} set no console`)));
      tag.onerror = () => {
        loading = undefined;
        reject(new Error(`${script} did not load`));
      };
      document.head.append(tag);
    }));

  const style = document.createElement("style");
  style.textContent = BUTTON_CSS;
  document.head.append(style);

  // Redoc renders an operation when its tag's page is shown, and may render it again: each time
  // one appears without its button, it gets one.
  const place = () => {
    for (const operationId of operationIds) {
      const section = document.querySelector(`[id$="/${operationId.toLowerCase()}"]`);
      const header = section?.querySelector('[data-testid="middle-panel"] > div');
      if (!section || !header || section.querySelector(".hr-try-open")) continue;
      const panel = document.createElement("div");
      panel.id = `hr-try-panel-${operationId}`;
      panel.hidden = true;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "hr-try-open";
      button.textContent = "Try it";
      button.setAttribute("aria-expanded", "false");
      button.setAttribute("aria-controls", panel.id);
      button.addEventListener("click", () => {
        const open = button.getAttribute("aria-expanded") !== "true";
        button.setAttribute("aria-expanded", String(open));
        panel.hidden = !open;
        if (!open || panel.childElementCount > 0) return;
        panel.textContent = "Loading the console…";
        load().then(
          (console_) => console_.open(panel, operationId),
          (error: Error) => (panel.textContent = `The console did not load: ${error.message}`),
        );
      });
      header.after(button, panel);
    }
  };
  // Once per frame at most: Redoc's rendering is many mutations.
  let queued = false;
  const schedule = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      place();
    });
  };
  new MutationObserver(schedule).observe(document.body, { childList: true, subtree: true });
  place();
}
