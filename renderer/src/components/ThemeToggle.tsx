import { useTheme, type ThemeChoice } from '../hooks/useTheme';

export function ThemeToggle() {
  const [choice, setChoice] = useTheme();
  return (
    <label className="theme-toggle">
      Theme{' '}
      <select value={choice} onChange={(e) => setChoice(e.target.value as ThemeChoice)} data-testid="theme-select">
        <option value="system">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}
