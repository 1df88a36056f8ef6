// ARIA tabs (WAI-ARIA Authoring Practices "tabs with automatic activation"): click or arrow
// keys select a tab; Home/End jump; only the selected tab is in the Tab order.
export function setupTabs(tablist: HTMLElement, onChange: (id: string) => void = () => {}): (id: string) => void {
  const tabs = [...tablist.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const select = (id: string, focus = false) => {
    for (const tab of tabs) {
      const on = tab.id === id;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      document.getElementById(tab.getAttribute("aria-controls")!)!.hidden = !on;
      if (on && focus) tab.focus();
    }
    onChange(id);
  };
  tablist.addEventListener("click", (event) => {
    const tab = (event.target as HTMLElement).closest<HTMLButtonElement>('[role="tab"]');
    if (tab) select(tab.id);
  });
  tablist.addEventListener("keydown", (event) => {
    const current = tabs.findIndex((t) => t === document.activeElement);
    if (current < 0) return;
    const next = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(tabs[(next + tabs.length) % tabs.length].id, true);
  });
  return (id: string) => select(id);
}
