// Settings: the theme (system, light, dark) and the text size, applied at once and remembered (appearance.ts, appearance-sync.ts).
import { appearance, FONT_SIZE_LABELS, FONT_SIZES, THEME_LABELS, THEMES, useAppearance } from './appearance.ts';

export function AppearanceSettings() {
  const current = useAppearance();
  return (
    <section className="settings-section" aria-labelledby="settings-appearance">
      <h2 id="settings-appearance">Appearance</h2>
      <fieldset className="settings-choices" data-testid="theme-choices">
        <legend>Theme</legend>
        {THEMES.map((t) => (
          <label key={t} className="settings-choice">
            <input
              type="radio"
              name="theme"
              value={t}
              data-testid={`theme-${t}`}
              checked={current.theme === t}
              onChange={() => appearance().set({ theme: t })}
            />
            {THEME_LABELS[t]}
          </label>
        ))}
      </fieldset>
      <fieldset className="settings-choices" data-testid="font-size-choices">
        <legend>Text size</legend>
        {FONT_SIZES.map((f) => (
          <label key={f} className="settings-choice">
            <input
              type="radio"
              name="font-size"
              value={f}
              data-testid={`font-size-${f}`}
              checked={current.fontSize === f}
              onChange={() => appearance().set({ fontSize: f })}
            />
            {FONT_SIZE_LABELS[f]}
          </label>
        ))}
      </fieldset>
      <p className="muted settings-note">
        Kept in the data folder, so the desktop app and every browser window use the same; the charts and every view follow at once.
      </p>
    </section>
  );
}
