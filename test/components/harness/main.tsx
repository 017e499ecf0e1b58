// Mounts one workbench component, chosen by the page's `?scene=`, with the inputs a scene gives it: the
// component is the real one from renderer/src, built by Vite with the workbench's React plugin.
import { createRoot } from 'react-dom/client';
import { SCENES } from './scenes';
import '../../../renderer/src/styles.css';

const name = new URLSearchParams(location.search).get('scene') ?? '';
const scene = SCENES[name];
const root = document.getElementById('root')!;
if (!scene) root.textContent = `no scene "${name}"; known: ${Object.keys(SCENES).join(', ')}`;
else createRoot(root).render(scene());
