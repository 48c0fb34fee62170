import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { startEvents } from './events/loop';
import { prefetchOnRegister } from './feed/prefetch';
import './styles/base.css';

prefetchOnRegister();
startEvents();
createRoot(document.getElementById('root')!).render(<App />);
