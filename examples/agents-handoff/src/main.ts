import { main } from './example.js';

await main();
