import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { startEvents } from './events/loop';
import './styles/base.css';

startEvents();
createRoot(document.getElementById('root')!).render(<App />);
