/**
 * main.ts's first import, so that every module of the built server after it loads through the code
 * cache (compile-cache.ts), kept in api/dist/compile-cache beside the build it belongs to. Under tsx
 * (sources, not the build) tsx compiles the modules, so nothing is installed.
 */
import path from 'node:path';
import { enableCompileCache } from './compile-cache';

if (__filename.endsWith('.js')) enableCompileCache(path.resolve(__dirname, '../../compile-cache'));
