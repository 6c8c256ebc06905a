// `npm run lint`: every linter over the whole repository, each run even when
// one before it failed, then one line per tool; fails when any tool failed.
//   lint:js      wp-scripts lint-js (ESLint, WordPress config, TypeScript, Prettier rules)
//   lint:style   wp-scripts lint-style (Stylelint, WordPress config)
//   format:check Prettier over the code, JSON and YAML files (.prettierrc.json, .prettierignore)
//   lint:php     php -l over every PHP file
//   lint:classes no loop of PHP classes outside a plugin's wiring, no reference
//                to a higher room (scripts/lint-classes.mjs, scripts/lint-classes.json)
//   i18n:check   each plugin's committed .pot is what `npm run i18n` writes (line
//                references included: moving a translated string stales it)
// `npm run lint:fix` applies what the tools can fix themselves.
import { spawnSync } from 'node:child_process';

const steps = ['lint:js', 'lint:style', 'format:check', 'lint:php', 'lint:classes', 'i18n:check'];
const results = steps.map((step) => {
  console.log(`\n> ${step}`);
  const { status } = spawnSync('npm', ['run', '--silent', step], { stdio: 'inherit' });
  return [step, status];
});
console.log('\nlint summary:');
for (const [step, status] of results) {
  console.log(`  ${step.padEnd(13)} ${status === 0 ? 'clean' : `FAILED (exit ${status})`}`);
}
process.exit(results.every(([, status]) => status === 0) ? 0 : 1);
