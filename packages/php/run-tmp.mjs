import { loadNodeRuntime } from '@php-wasm/node';
import { PHP } from '@php-wasm/universal';
import fs from 'node:fs';
const [v, file] = process.argv.slice(2);
const php = new PHP(await loadNodeRuntime(v, { emscriptenOptions: { processId: 1 } }));
const r = await php.run({ code: fs.readFileSync(file, 'utf8') });
process.stdout.write(r.text); if (r.errors) console.error('ERR', r.errors); php.exit();
