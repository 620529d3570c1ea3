import { startRedditSim } from './index';

const port = Number(process.env.PORT ?? 4100);
const seed = Number(process.env.SIM_SEED ?? 42);
const host = process.env.HOST ?? '127.0.0.1';

const sim = await startRedditSim({ port, seed, host, acceptAnyClient: true });
console.log(`Reddit simulator (seed ${seed}) listening on ${sim.url}`);
console.log(
  `  consent page: ${sim.url}/api/v1/authorize?client_id=demo&response_type=code&state=x&redirect_uri=http://localhost/cb&duration=permanent&scope=identity+read`,
);
console.log(`  inspection:   ${sim.url}/__sim`);

const stop = () => {
  sim.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
