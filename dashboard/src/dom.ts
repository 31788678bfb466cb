/** Building DOM from data. Text always goes in as text nodes, so nothing from the hub is parsed as HTML. */

export type Child = Node | string | null | undefined | false;

/** An element with attributes (`true` for a bare attribute, absent when false or undefined). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === true) element.setAttribute(name, '');
    else if (typeof value === 'string') element.setAttribute(name, value);
  }
  return fill(element, ...children);
}

/** Replaces the element's content, skipping children that are null or false. */
export function fill<E extends Element>(element: E, ...children: Child[]): E {
  element.replaceChildren(...children.filter((child): child is Node | string => !!child));
  return element;
}

/**
 * A button running an action; it stays disabled while the action runs so a slow mutation is
 * not sent twice, and a failure goes to `onError`.
 */
export function button(
  label: string,
  action: () => unknown,
  onError: (error: unknown) => void,
  attributes: Record<string, string | boolean | undefined> = {},
): HTMLButtonElement {
  const element = el('button', { type: 'button', ...attributes }, label);
  element.addEventListener('click', async () => {
    element.disabled = true;
    try {
      await action();
    } catch (error) {
      onError(error);
    } finally {
      element.disabled = false;
    }
  });
  return element;
}

/** JSON for people: strings as they are, anything else indented. */
export function readable(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2) ?? String(value);
}
