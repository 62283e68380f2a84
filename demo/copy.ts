/** Copies text to the clipboard: the async Clipboard API, or a selected textarea where it is missing or refused. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* permission refused or not focused: fall back */
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'visually-hidden';
  document.body.append(area);
  area.select();
  const ok = (() => {
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  })();
  area.remove();
  return ok;
}

/** Wires every `button[data-copy="<id of a code element>"]` under `root`. */
export function wireCopyButtons(root: ParentNode, status: HTMLElement): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  root.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>('button[data-copy]');
    if (!button) return;
    const source = document.getElementById(button.dataset.copy ?? '');
    if (!source) return;
    void copyText(source.textContent ?? '').then((ok) => {
      const message = ok ? 'کد کپی شد.' : 'کپی نشد؛ کد را انتخاب و دستی کپی کنید.';
      status.textContent = message;
      button.textContent = ok ? 'کپی شد' : 'کپی نشد';
      button.dataset.state = ok ? 'done' : 'failed';
      clearTimeout(timer);
      timer = setTimeout(() => {
        status.textContent = '';
        for (const b of root.querySelectorAll<HTMLButtonElement>('button[data-copy][data-state]')) {
          b.textContent = 'کپی';
          delete b.dataset.state;
        }
      }, 2000);
    });
  });
}
